#if canImport(SQLite3)
import SQLite3
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The platform's SQLite, as the few C functions the Core Data import uses: the one place the
/// store touches SQLite's C interface (`SQLiteDatabase` wraps it).
///
/// Apple platforms: the SDK's `SQLite3` module. Linux: `libsqlite3.so.0`, loaded at run time with
/// `dlopen` and looked up with `dlsym`, so that building the package needs no SQLite headers
/// (the README's two commands work on a fresh machine); a machine without the library gets an
/// error naming the Debian package to install when, and only when, a command needs SQLite.
package struct SQLiteLibrary: Sendable {
    package typealias Handle = OpaquePointer
    package let open: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Handle?>?, Int32, UnsafePointer<CChar>?) -> Int32
    package let close: @convention(c) (Handle?) -> Int32
    package let errorMessage: @convention(c) (Handle?) -> UnsafePointer<CChar>?
    package let prepare:
        @convention(c) (
            Handle?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Handle?>?,
            UnsafeMutablePointer<UnsafePointer<CChar>?>?
        ) -> Int32
    package let step: @convention(c) (Handle?) -> Int32
    package let reset: @convention(c) (Handle?) -> Int32
    package let finalize: @convention(c) (Handle?) -> Int32
    let columnCount: @convention(c) (Handle?) -> Int32
    package let columnType: @convention(c) (Handle?, Int32) -> Int32
    package let columnInt64: @convention(c) (Handle?, Int32) -> Int64
    package let columnDouble: @convention(c) (Handle?, Int32) -> Double
    package let columnBlob: @convention(c) (Handle?, Int32) -> UnsafeRawPointer?
    package let columnText: @convention(c) (Handle?, Int32) -> UnsafePointer<UInt8>?
    package let columnBytes: @convention(c) (Handle?, Int32) -> Int32
    package let bindNull: @convention(c) (Handle?, Int32) -> Int32
    package let bindInt64: @convention(c) (Handle?, Int32, Int64) -> Int32
    package let bindDouble: @convention(c) (Handle?, Int32, Double) -> Int32
    /// `sqlite3_bind_blob` / `sqlite3_bind_text` with `SQLITE_TRANSIENT` (SQLite copies the bytes).
    package let bindBlob: @Sendable (Handle?, Int32, UnsafeRawPointer?, Int32) -> Int32
    package let bindText: @Sendable (Handle?, Int32, UnsafePointer<CChar>?, Int32) -> Int32

    // Result codes and flags from sqlite3.h (stable across SQLite 3 releases).
    package static let ok: Int32 = 0, busy: Int32 = 5, locked: Int32 = 6, corrupt: Int32 = 11, cantOpen: Int32 = 14
    package static let notADatabase: Int32 = 26, row: Int32 = 100, done: Int32 = 101
    package static let openReadOnly: Int32 = 0x1, openReadWrite: Int32 = 0x2, openCreate: Int32 = 0x4, openNoMutex: Int32 = 0x8000
    package static let typeInteger: Int32 = 1, typeFloat: Int32 = 2, typeText: Int32 = 3, typeBlob: Int32 = 4, typeNull: Int32 = 5

    /// The Linux shared library and the Debian package that installs it.
    package static let linuxLibrary = "libsqlite3.so.0", linuxPackage = "libsqlite3-0"

    /// The library, loaded once; nil with the reason when this machine has none.
    package static let shared: Result<SQLiteLibrary, SQLiteUnavailable> = load()

    private static func load() -> Result<SQLiteLibrary, SQLiteUnavailable> {
        #if canImport(SQLite3)
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        return .success(
            SQLiteLibrary(
                open: sqlite3_open_v2, close: sqlite3_close_v2, errorMessage: sqlite3_errmsg, prepare: sqlite3_prepare_v2,
                step: sqlite3_step, reset: sqlite3_reset, finalize: sqlite3_finalize, columnCount: sqlite3_column_count,
                columnType: sqlite3_column_type, columnInt64: sqlite3_column_int64, columnDouble: sqlite3_column_double,
                columnBlob: sqlite3_column_blob, columnText: sqlite3_column_text, columnBytes: sqlite3_column_bytes,
                bindNull: sqlite3_bind_null, bindInt64: sqlite3_bind_int64, bindDouble: sqlite3_bind_double,
                bindBlob: { sqlite3_bind_blob($0, $1, $2, $3, transient) },
                bindText: { sqlite3_bind_text($0, $1, $2, $3, transient) }))
        #elseif os(Linux)
        guard let handle = dlopen(linuxLibrary, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(SQLiteUnavailable(reason: reason))
        }
        var missing: [String] = []
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            guard let pointer = dlsym(handle, name) else { missing.append(name); return nil }
            return unsafeBitCast(pointer, to: type)
        }
        typealias BindBytes = @convention(c) (Handle?, Int32, UnsafeRawPointer?, Int32, Int) -> Int32
        typealias BindChars = @convention(c) (Handle?, Int32, UnsafePointer<CChar>?, Int32, Int) -> Int32
        let blob = symbol("sqlite3_bind_blob", as: BindBytes.self), text = symbol("sqlite3_bind_text", as: BindChars.self)
        guard let open = symbol("sqlite3_open_v2", as: type(of: placeholder.open)),
            let close = symbol("sqlite3_close_v2", as: type(of: placeholder.close)),
            let errorMessage = symbol("sqlite3_errmsg", as: type(of: placeholder.errorMessage)),
            let prepare = symbol("sqlite3_prepare_v2", as: type(of: placeholder.prepare)),
            let step = symbol("sqlite3_step", as: type(of: placeholder.step)),
            let reset = symbol("sqlite3_reset", as: type(of: placeholder.reset)),
            let finalize = symbol("sqlite3_finalize", as: type(of: placeholder.finalize)),
            let columnCount = symbol("sqlite3_column_count", as: type(of: placeholder.columnCount)),
            let columnType = symbol("sqlite3_column_type", as: type(of: placeholder.columnType)),
            let columnInt64 = symbol("sqlite3_column_int64", as: type(of: placeholder.columnInt64)),
            let columnDouble = symbol("sqlite3_column_double", as: type(of: placeholder.columnDouble)),
            let columnBlob = symbol("sqlite3_column_blob", as: type(of: placeholder.columnBlob)),
            let columnText = symbol("sqlite3_column_text", as: type(of: placeholder.columnText)),
            let columnBytes = symbol("sqlite3_column_bytes", as: type(of: placeholder.columnBytes)),
            let bindNull = symbol("sqlite3_bind_null", as: type(of: placeholder.bindNull)),
            let bindInt64 = symbol("sqlite3_bind_int64", as: type(of: placeholder.bindInt64)),
            let bindDouble = symbol("sqlite3_bind_double", as: type(of: placeholder.bindDouble)),
            let blob, let text
        else {
            return .failure(SQLiteUnavailable(reason: "it lacks \(missing.joined(separator: ", "))"))
        }
        // SQLITE_TRANSIENT is the destructor pointer -1: SQLite copies the bytes before the call returns.
        return .success(
            SQLiteLibrary(
                open: open, close: close, errorMessage: errorMessage, prepare: prepare, step: step, reset: reset,
                finalize: finalize, columnCount: columnCount, columnType: columnType, columnInt64: columnInt64,
                columnDouble: columnDouble, columnBlob: columnBlob, columnText: columnText, columnBytes: columnBytes,
                bindNull: bindNull, bindInt64: bindInt64, bindDouble: bindDouble,
                bindBlob: { blob($0, $1, $2, $3, -1) }, bindText: { text($0, $1, $2, $3, -1) }))
        #else
        return .failure(SQLiteUnavailable(reason: "this platform has no SQLite this tool knows how to load"))
        #endif
    }

    #if os(Linux) && !canImport(SQLite3)
    /// Only its field types are used: they spell each C function's signature once.
    private static let placeholder = SQLiteLibrary(
        open: { _, _, _, _ in 0 }, close: { _ in 0 }, errorMessage: { _ in nil }, prepare: { _, _, _, _, _ in 0 },
        step: { _ in 0 }, reset: { _ in 0 }, finalize: { _ in 0 }, columnCount: { _ in 0 }, columnType: { _, _ in 0 },
        columnInt64: { _, _ in 0 }, columnDouble: { _, _ in 0 }, columnBlob: { _, _ in nil }, columnText: { _, _ in nil },
        columnBytes: { _, _ in 0 }, bindNull: { _, _ in 0 }, bindInt64: { _, _, _ in 0 }, bindDouble: { _, _, _ in 0 },
        bindBlob: { _, _, _, _ in 0 }, bindText: { _, _, _, _ in 0 })
    #endif
}

/// This machine has no SQLite library the tool can load.
package struct SQLiteUnavailable: Error, Sendable {
    package var reason: String
}
