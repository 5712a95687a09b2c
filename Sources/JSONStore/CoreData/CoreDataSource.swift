import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app's Core Data file, opened without touching it (spec §13: "the source file is never
/// modified").
///
/// SQLite writes to a WAL database's `-shm` file even to read it, and the last connection to close
/// checkpoints the `-wal` into the main file and deletes it. So the main file and its `-wal` are
/// copied into a private temporary folder first, and only the copy is opened (SQLite rebuilds the
/// `-shm` from the `-wal` there, so the `-shm` is never copied; a rollback `-journal` is copied
/// too). A path that is a symbolic link is resolved first and the `-wal` and `-journal` are taken
/// from beside its target, where SQLite looks for them. A writer that holds SQLite's locks while
/// the copy is taken (another process in a write transaction or a checkpoint) makes the import
/// refuse with `.locked`. The `-wal` is read first (`CoreDataWAL`) so that the report can say
/// whether it was applied, and a foreign or damaged `-wal` is blamed, not the main file.
final class CoreDataSource {
    /// The source path as given.
    let path: String
    /// The connection to the private copy.
    let database: SQLiteDatabase
    /// The model the file holds, and what in it the import does not know.
    let model: CoreDataModel
    /// The `-wal` beside the file (beside the link's target when `path` is a symbolic link), as
    /// SQLite read it; nil when there is none.
    let wal: CoreDataWAL?
    private let copyFolder: String

    init(_ path: String, system: SystemCalls) throws(StoreError) {
        self.path = path
        // SQLite opens a symbolic link's target and its -wal beside the target: so does the copy.
        let real = try CoreDataSource.resolve(path)
        let header = try CoreDataSource.checkHeader(path, system: system)
        try CoreDataSource.checkNotLocked(real, shown: path, system: system)
        let folder = try CoreDataSource.makePrivateFolder(path)
        let copy = joinPath(folder, "source.sqlite")
        var wal: CoreDataWAL?
        do {
            try CoreDataSource.copy(real, to: copy, system: system)
            if try system.linkStatus(real + "-wal", context: ErrorContext("read", real + "-wal")) != nil {
                try CoreDataSource.copy(real + "-wal", to: copy + "-wal", system: system)
                wal = try CoreDataWAL.read(
                    copy + "-wal", shownPath: real + "-wal", source: path, databasePageSize: CoreDataWAL.pageSize(header: header), system: system)
            }
            // A rollback journal left by a writer that stopped mid-transaction ("hot journal"):
            // SQLite rolls the copy back with it, as it would the file itself.
            if try system.linkStatus(real + "-journal", context: ErrorContext("read", real + "-journal")) != nil {
                try CoreDataSource.copy(real + "-journal", to: copy + "-journal", system: system)
            }
            // A writer that started while copying may have left the copies out of step: refuse.
            try CoreDataSource.checkNotLocked(real, shown: path, system: system)
            let applied = (wal?.commits ?? 0) > 0
            (database, model) = try CoreDataSource.openAndRecognise(
                copy, name: path, blamingWAL: applied ? real + "-wal" : nil,
                mainFile: real, folder: folder, system: system)
        } catch {
            NewFiles.removeTreeLeftover(folder, system: system)
            throw error
        }
        self.wal = wal
        copyFolder = folder
    }

    deinit { NewFiles.removeTreeLeftover(copyFolder) }

    /// The path with every symbolic link resolved (`realpath(3)`).
    static func resolve(_ path: String) throws(StoreError) -> String {
        guard let resolved = realpath(path, nil) else {
            let code = errno
            throw StoreError.systemCall("realpath", errno: code, context: ErrorContext("read", path))
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Opens the copy, checks it and recognises its model. When that fails with a `-wal` applied,
    /// the main file alone is checked too: if it is sound, the `-wal` is what is foreign or
    /// damaged, and the error names it instead of the main file.
    private static func openAndRecognise(
        _ copy: String, name: String, blamingWAL walPath: String?, mainFile: String, folder: String,
        system: SystemCalls
    ) throws(StoreError) -> (SQLiteDatabase, CoreDataModel) {
        do {
            let database = try SQLiteDatabase(copy, readOnly: false, name: name)
            try checkIntegrity(database)
            return (database, try CoreDataModel.recognise(database))
        } catch {
            guard let walPath, isAboutTheData(error), try mainFileAloneIsSound(mainFile, name: name, folder: folder, system: system) else {
                throw error
            }
            throw StoreError(
                .corruptDocument,
                "Can't import '\(name)': its -wal file '\(walPath)' belongs to another database or is "
                    + "damaged: the main file alone is sound, but with the -wal applied SQLite reads it as follows: \(error.message) "
                    + "Move the -wal aside to import the main file alone (its last commits would be lost), or give the -wal "
                    + "that belongs to it. Nothing was written.", path: walPath)
        }
    }

    private static func isAboutTheData(_ error: StoreError) -> Bool { error.code == .corruptDocument || error.code == .invalidDocument }

    /// Whether a fresh copy of the main file, without its `-wal`, is a sound store of the app.
    private static func mainFileAloneIsSound(_ mainFile: String, name: String, folder: String, system: SystemCalls) throws(StoreError) -> Bool {
        let alone = joinPath(folder, "main-only.sqlite")
        try copy(mainFile, to: alone, system: system)
        do {
            let database = try SQLiteDatabase(alone, readOnly: false, name: name)
            try checkIntegrity(database)
            _ = try CoreDataModel.recognise(database)
            return true
        } catch {
            if isAboutTheData(error) { return false }
            throw error
        }
    }

    /// An SQLite file starts with the 16 bytes "SQLite format 3\0" (sqlite.org/fileformat.html §1.3).
    @discardableResult
    static func checkHeader(_ path: String, system: SystemCalls) throws(StoreError) -> [UInt8] {
        let context = ErrorContext("read", path)
        let file = try FileDescriptor(opening: path, flags: O_RDONLY | O_CLOEXEC, system: system, context: context)
        let status = try file.status(context: context)
        guard status.type == .regular else {
            throw StoreError(.notARegularFile, "Can't import '\(path)': it is not a file. Give the path of VoiceCode.sqlite.", path: path)
        }
        let head = try file.readAll(limit: 100, context: context).prefix(100)
        let magic = Array("SQLite format 3".utf8) + [0]
        guard head.count >= 16, Array(head.prefix(16)) == magic else {
            throw StoreError(
                .corruptDocument,
                "Can't import '\(path)': it is not an SQLite database (\(head.count < 16 ? "it is only \(head.count) bytes long" : "its first bytes are not 'SQLite format 3'")). "
                    + "Give the path of the app's VoiceCode.sqlite.", path: path)
        }
        guard head.count == 100 else {
            throw StoreError(
                .corruptDocument,
                "Can't import '\(path)': the database is truncated (\(head.count) bytes, shorter "
                    + "than SQLite's 100-byte header). Nothing was written.", path: path)
        }
        return Array(head)
    }

    /// Refuses while another process holds a write lock SQLite uses: the main file's lock bytes
    /// (at 0x40000000, `PENDING_BYTE`, for 512 + 2 bytes: a writer in rollback mode or an
    /// exclusive-mode connection) or the `-shm` write and checkpoint locks (bytes 120–121 of the
    /// shared-memory file in WAL mode). `F_GETLK` only asks; it takes no lock and changes nothing.
    static func checkNotLocked(_ path: String, shown: String, system: SystemCalls) throws(StoreError) {
        let probes: [(String, Int64, Int64)] = [(path, 0x4000_0000, 512 + 2), (path + "-shm", 120, 2)]
        for (file, start, length) in probes {
            let fd = openForProbe(file)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if let holder = RecordLockProbe.writeLockHolder(fd: fd, start: start, length: length) {
                throw StoreError(
                    .locked,
                    "Can't import '\(shown)': process \(holder) is writing to it (it holds SQLite's write "
                        + "lock). Quit the app, or wait for it to finish, and try again. Nothing was written.", path: shown)
            }
        }
    }

    private static func openForProbe(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }

    /// `PRAGMA quick_check`: a truncated or damaged file is refused before anything is read from it.
    static func checkIntegrity(_ database: SQLiteDatabase) throws(StoreError) {
        var problems: [String] = []
        try database.query("PRAGMA quick_check") { row in if let text = row.text(0), text != "ok" { problems.append(text) } }
        guard problems.isEmpty else {
            throw StoreError(
                .corruptDocument,
                "Can't import '\(database.name)': the database is damaged (SQLite's quick_check: "
                    + "\(problems.prefix(3).joined(separator: "; "))). Nothing was written.", path: database.name)
        }
    }

    /// A new folder only this user can enter, in the system's temporary folder.
    private static func makePrivateFolder(_ source: String) throws(StoreError) -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast()) + Array("migrate-store-coredata-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            let code = errno
            throw StoreError.systemCall("mkdtemp", errno: code, context: ErrorContext("copy", source, note: "a private copy is read, never the file itself"))
        }
        return String(cString: made)
    }

    /// Copies `source` to the new file `target` (mode 0600) in 1 MiB reads.
    private static func copy(_ source: String, to target: String, system: SystemCalls) throws(StoreError) {
        let readContext = ErrorContext("read", source), writeContext = ErrorContext("copy", target)
        let input = try FileDescriptor(opening: source, flags: O_RDONLY | O_CLOEXEC, system: system, context: readContext)
        let output = try FileDescriptor(
            opening: target, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o600,
            system: system, context: writeContext)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input.rawValue, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw StoreError.systemCall("read", errno: code, context: readContext)
            }
            if count == 0 { break }
            try output.writeAll(Array(buffer[..<count]), context: writeContext)
        }
        try output.close(context: writeContext)
    }
}
