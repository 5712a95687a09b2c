import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app's Core Data file, opened without touching it (spec §12: "the source file is never
/// modified").
///
/// SQLite writes to a WAL database's `-shm` file even to read it, and the last connection to close
/// checkpoints the `-wal` into the main file and deletes it. So the main file and its `-wal` are
/// copied into a private temporary folder first, and only the copy is opened (SQLite rebuilds the
/// `-shm` from the `-wal` there; a rollback `-journal` is copied too). A writer that holds SQLite's locks while the copy is taken
/// (another process in a write transaction or a checkpoint) makes the import refuse with `.locked`.
final class CoreDataSource {
    /// The source path as given.
    let path: String
    /// The connection to the private copy.
    let database: SQLiteDatabase
    /// Whether the source had a `-wal` file (its rows are read like every other).
    let hadWAL: Bool
    private let copyFolder: String

    init(_ path: String, system: SystemCalls) throws(StoreError) {
        self.path = path
        try CoreDataSource.checkHeader(path, system: system)
        try CoreDataSource.checkNotLocked(path, system: system)
        let folder = try CoreDataSource.makePrivateFolder(path)
        var copiedWAL = false
        do {
            try CoreDataSource.copy(path, to: joinPath(folder, "source.sqlite"), system: system)
            if try system.linkStatus(path + "-wal", context: ErrorContext("read", path + "-wal")) != nil {
                try CoreDataSource.copy(path + "-wal", to: joinPath(folder, "source.sqlite-wal"), system: system)
                copiedWAL = true
            }
            // A rollback journal left by a writer that stopped mid-transaction ("hot journal"):
            // SQLite rolls the copy back with it, as it would the file itself.
            if try system.linkStatus(path + "-journal", context: ErrorContext("read", path + "-journal")) != nil {
                try CoreDataSource.copy(path + "-journal", to: joinPath(folder, "source.sqlite-journal"), system: system)
            }
            // A writer that started while copying may have left the copies out of step: refuse.
            try CoreDataSource.checkNotLocked(path, system: system)
            database = try SQLiteDatabase(joinPath(folder, "source.sqlite"), readOnly: false, name: path)
            try CoreDataSource.checkIntegrity(database)
        } catch {
            NewFiles.removeTreeLeftover(folder, system: system)
            throw error
        }
        hadWAL = copiedWAL
        copyFolder = folder
    }

    deinit { NewFiles.removeTreeLeftover(copyFolder) }

    /// An SQLite file starts with the 16 bytes "SQLite format 3\0" (sqlite.org/fileformat.html §1.3).
    static func checkHeader(_ path: String, system: SystemCalls) throws(StoreError) {
        let context = ErrorContext("read", path)
        let file = try FileDescriptor(opening: path, flags: O_RDONLY | O_CLOEXEC, system: system, context: context)
        let status = try file.status(context: context)
        guard status.type == .regular else {
            throw StoreError(.notARegularFile, "Can't import '\(path)': it is not a file. Give the path of VoiceCode.sqlite.", path: path)
        }
        let head = try file.readAll(limit: 100, context: context).prefix(100)
        let magic = Array("SQLite format 3".utf8) + [0]
        guard head.count >= 16, Array(head.prefix(16)) == magic else {
            throw StoreError(.corruptDocument, "Can't import '\(path)': it is not an SQLite database (\(head.count < 16 ? "it is only \(head.count) bytes long" : "its first bytes are not 'SQLite format 3'")). "
                                + "Give the path of the app's VoiceCode.sqlite.", path: path)
        }
        guard head.count == 100 else {
            throw StoreError(.corruptDocument, "Can't import '\(path)': the database is truncated (\(head.count) bytes, shorter "
                                + "than SQLite's 100-byte header). Nothing was written.", path: path)
        }
    }

    /// Refuses while another process holds a write lock SQLite uses: the main file's lock bytes
    /// (at 0x40000000, `PENDING_BYTE`, for 512 + 2 bytes: a writer in rollback mode or an
    /// exclusive-mode connection) or the `-shm` write and checkpoint locks (bytes 120–121 of the
    /// shared-memory file in WAL mode). `F_GETLK` only asks; it takes no lock and changes nothing.
    static func checkNotLocked(_ path: String, system: SystemCalls) throws(StoreError) {
        let probes: [(String, Int64, Int64)] = [(path, 0x4000_0000, 512 + 2), (path + "-shm", 120, 2)]
        for (file, start, length) in probes {
            let fd = openForProbe(file)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if let holder = RecordLockProbe.writeLockHolder(fd: fd, start: start, length: length) {
                throw StoreError(.locked, "Can't import '\(path)': process \(holder) is writing to it (it holds SQLite's write "
                                    + "lock). Quit the app, or wait for it to finish, and try again. Nothing was written.", path: path)
            }
        }
    }

    private static func openForProbe(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }

    /// `PRAGMA quick_check`: a truncated or damaged file is refused before anything is read from it.
    static func checkIntegrity(_ database: SQLiteDatabase) throws(StoreError) {
        var problems: [String] = []
        try database.query("PRAGMA quick_check") { row in if let text = row.text(0), text != "ok" { problems.append(text) } }
        guard problems.isEmpty else {
            throw StoreError(.corruptDocument, "Can't import '\(database.name)': the database is damaged (SQLite's quick_check: "
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
        let output = try FileDescriptor(opening: target, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o600,
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
