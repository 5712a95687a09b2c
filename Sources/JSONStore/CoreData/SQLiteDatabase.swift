import Foundation

/// One SQLite connection, and its only owner (closed when the value ends). Every call goes
/// through `SQLiteLibrary`; every failure is a `StoreError` naming the file.
///
/// ```swift
/// let db = try SQLiteDatabase(path, readOnly: true, name: "'/x/VoiceCode.sqlite'")
/// try db.query("SELECT name FROM sqlite_master") { row in print(row.text(0) ?? "") }
/// ```
final class SQLiteDatabase {
    private let library: SQLiteLibrary
    private var handle: SQLiteLibrary.Handle?
    /// The path as the user knows it, for messages (the file opened may be a private copy).
    let name: String

    /// Opens `path`. Read-write never creates the file unless `create` says so.
    init(_ path: String, readOnly: Bool, create: Bool = false, name: String? = nil) throws(StoreError) {
        self.name = name ?? path
        switch SQLiteLibrary.shared {
        case .success(let library): self.library = library
        case .failure(let missing):
            throw StoreError(
                .io,
                "Can't read '\(self.name)': this machine has no SQLite library (\(SQLiteLibrary.linuxLibrary): "
                    + "\(missing.reason)). Install the package '\(SQLiteLibrary.linuxPackage)' (apt-get install "
                    + "\(SQLiteLibrary.linuxPackage)) and try again.", path: self.name)
        }
        var flags = (readOnly ? SQLiteLibrary.openReadOnly : SQLiteLibrary.openReadWrite) | SQLiteLibrary.openNoMutex
        if create { flags |= SQLiteLibrary.openCreate }
        var opened: SQLiteLibrary.Handle?
        let code = library.open(path, &opened, flags, nil)
        handle = opened
        if code != SQLiteLibrary.ok { throw failure(code, "open") }
    }

    deinit { _ = library.close(handle) }

    /// Runs `sql` (one statement) with `bindings`, calling `row` for each result row.
    func query(_ sql: String, _ bindings: [SQLiteValue] = [], row: (SQLiteRow) throws(StoreError) -> Void = { _ in }) throws(StoreError) {
        let statement = try prepare(sql)
        try statement.run(bindings, row: row)
    }

    /// Runs statements one by one (no results), as a test fixture builder does.
    func execute(_ sql: String) throws(StoreError) {
        for part in sql.split(separator: ";") where !part.allSatisfy(\.isWhitespace) { try query(String(part)) }
    }

    /// A compiled statement, for running many times.
    func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        var statement: SQLiteLibrary.Handle?
        let code = library.prepare(handle, sql, -1, &statement, nil)
        guard code == SQLiteLibrary.ok, let statement else { throw failure(code, "read") }
        return SQLiteStatement(database: self, library: library, handle: statement)
    }

    /// The error for SQLite result `code`: busy or locked → `.locked` (another process holds the
    /// database), corrupt or not a database → `.corruptDocument`, anything else → `.io`.
    func failure(_ code: Int32, _ verb: String) -> StoreError {
        let detail = library.errorMessage(handle).map { String(cString: $0) } ?? "SQLite error \(code)"
        switch code & 0xff {
        case SQLiteLibrary.busy, SQLiteLibrary.locked:
            return StoreError(
                .locked,
                "Can't \(verb) '\(name)': the database is locked by another process (\(detail)). "
                    + "Quit the app that uses it, or wait, and try again.", path: name)
        case SQLiteLibrary.corrupt, SQLiteLibrary.notADatabase:
            return StoreError(
                .corruptDocument,
                "Can't \(verb) '\(name)': the database is damaged or truncated (\(detail)). "
                    + "Nothing was written.", path: name)
        default:
            return StoreError(.io, "Can't \(verb) '\(name)': SQLite reports '\(detail)' (code \(code)).", path: name)
        }
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue: Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// One prepared statement; finalized when the value ends.
final class SQLiteStatement {
    private let database: SQLiteDatabase
    private let library: SQLiteLibrary
    private let handle: SQLiteLibrary.Handle

    fileprivate init(database: SQLiteDatabase, library: SQLiteLibrary, handle: SQLiteLibrary.Handle) {
        self.database = database; self.library = library; self.handle = handle
    }

    deinit { _ = library.finalize(handle) }

    /// The current row after `step` returned true.
    var row: SQLiteRow { SQLiteRow(library: library, handle: handle) }

    /// Steps to the next row (pull style, for merging two ordered queries): false at the end.
    func step() throws(StoreError) -> Bool {
        let code = library.step(handle)
        if code == SQLiteLibrary.done { return false }
        guard code == SQLiteLibrary.row else { throw database.failure(code, "read") }
        return true
    }

    /// Binds `bindings` (1-based in order), steps through every row, then resets the statement.
    func run(_ bindings: [SQLiteValue] = [], row: (SQLiteRow) throws(StoreError) -> Void = { _ in }) throws(StoreError) {
        defer { _ = library.reset(handle) }
        for (index, value) in bindings.enumerated() {
            let i = Int32(index + 1)
            let code: Int32
            switch value {
            case .null: code = library.bindNull(handle, i)
            case .integer(let n): code = library.bindInt64(handle, i, n)
            case .real(let x): code = library.bindDouble(handle, i, x)
            case .text(let s): code = s.withCString { library.bindText(handle, i, $0, Int32(strlen($0))) }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { library.bindBlob(handle, i, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count)) }
            }
            if code != SQLiteLibrary.ok { throw database.failure(code, "write") }
        }
        let current = SQLiteRow(library: library, handle: handle)
        while true {
            let code = library.step(handle)
            if code == SQLiteLibrary.done { return }
            guard code == SQLiteLibrary.row else { throw database.failure(code, "read") }
            try row(current)
        }
    }
}

/// The current row of a statement: valid only inside the closure it is passed to.
struct SQLiteRow {
    fileprivate let library: SQLiteLibrary
    fileprivate let handle: SQLiteLibrary.Handle

    func isNull(_ column: Int32) -> Bool { library.columnType(handle, column) == SQLiteLibrary.typeNull }
    func type(_ column: Int32) -> Int32 { library.columnType(handle, column) }
    func int64(_ column: Int32) -> Int64? { isNull(column) ? nil : library.columnInt64(handle, column) }
    func double(_ column: Int32) -> Double? { isNull(column) ? nil : library.columnDouble(handle, column) }

    func text(_ column: Int32) -> String? {
        guard !isNull(column), let pointer = library.columnText(handle, column) else { return nil }
        let count = Int(library.columnBytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The text's bytes as stored, not checked as UTF-8.
    func textBytes(_ column: Int32) -> [UInt8]? {
        guard !isNull(column), let pointer = library.columnText(handle, column) else { return nil }
        let count = Int(library.columnBytes(handle, column))
        return Array(UnsafeBufferPointer(start: pointer, count: count))
    }

    func blob(_ column: Int32) -> [UInt8]? {
        guard !isNull(column) else { return nil }
        let count = Int(library.columnBytes(handle, column))
        guard count > 0, let pointer = library.columnBlob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
