#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creating the files and folders of a backup, a staging folder or an export: always new
/// entries (never an existing file, never through a link), written completely and fsynced.
package enum NewFiles {
    /// Creates `path` (which must not exist) holding `bytes` with mode `mode` (`0o600` unless
    /// told), and closes it; with `sync`, fsyncs it first.
    ///
    /// `O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC`: an existing file or a link at `path` is an error,
    /// never overwritten or followed. The folder is not fsynced here; callers fsync each folder
    /// once after creating all its files (`syncDirectory`). Files written with `sync: false`
    /// must be made durable later, all at once (`StagingDirectory.makeDurable`).
    ///
    /// The file is created with `mode & 0o600` (never more open than `mode`; the umask may narrow
    /// it) and `fchmod` sets exactly `mode` after the bytes are written and before the fsync, so
    /// the mode is durable with the data.
    ///
    /// - Parameters:
    ///   - sync: fsync the file before closing it. The default is `true`.
    ///   - mode: The permission bits. The default is `0o600`.
    ///   - context: What an error names; the default names `path` (a migration staging a
    ///     document names the document it replaces instead).
    /// - Throws: `StoreError` of the failed call (`.alreadyExists`, `.noSpace`, ...). The partial
    ///   file is removed.
    package static func write(
        _ path: String, _ bytes: [UInt8], sync: Bool = true, mode: mode_t = 0o600,
        system: SystemCalls = .real, context: ErrorContext? = nil
    ) throws(StoreError) {
        let context = context ?? ErrorContext("write", path)
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = try FileDescriptor(opening: path, flags: flags, mode: mode & 0o600, system: system, context: context)
        do {
            try fd.writeAll(bytes, context: context)
            try fd.setPermissions(mode, context: context)
            if sync { try fd.sync(context: context) }
        } catch {
            fd.discard()
            system.removeLeftover(path)
            throw error
        }
        do {
            try fd.close(context: context)
        } catch {
            system.removeLeftover(path)
            throw error
        }
    }

    /// Creates the folder `path` (which must not exist) with mode `0o700` whatever the umask.
    /// The parent is not fsynced here (see `syncDirectory`).
    package static func makeDirectory(_ path: String, system: SystemCalls = .real) throws(StoreError) {
        let context = ErrorContext("create the folder", path)
        try system.makeDirectory(path, mode: 0o700, context: context)
        let fd = try FileDescriptor(opening: path, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, system: system, context: context)
        try fd.setPermissions(0o700, context: context)
    }

    /// fsyncs the folder `path`, so that the entries created, renamed or removed in it are
    /// durable (man 2 fsync: "an explicit fsync() on a file descriptor for the directory is also
    /// needed").
    package static func syncDirectory(_ path: String, note: String? = nil, system: SystemCalls = .real) throws(StoreError) {
        let context = ErrorContext("flush the folder", path, note: note)
        let fd = try FileDescriptor(opening: path, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC, system: system, context: context)
        try fd.sync(context: context)
    }

    /// Removes a folder this code created (a staging folder) with everything in it, without
    /// following links: files and links are unlinked, sub-folders emptied then removed.
    ///
    /// - Warning: Deletes data. Call it only on a folder this code created and owns (a staging
    ///   folder whose owner is gone), never on a store or a backup.
    package static func removeTree(_ path: String, system: SystemCalls = .real) throws(StoreError) {
        let context = ErrorContext("remove", path)
        for entry in try system.listDirectory(path, context: context) {
            let child = joinPath(path, entry.name)
            var type = entry.type
            if type == nil { type = try system.linkStatus(child, context: context)?.type }
            if type == .directory {
                try removeTree(child, system: system)
            } else if type != nil {
                try system.unlink(child, context: ErrorContext("remove", child))
            }
        }
        do {
            try system.calls.system_rmdir(path)
        } catch {
            throw .systemCall("rmdir", errno: error.rawValue, context: context)
        }
    }

    /// `removeTree`, ignoring errors: for cleaning up after another failure, which is the one to
    /// report. A leftover staging folder starts with a dot and is removed by the next run.
    package static func removeTreeLeftover(_ path: String, system: SystemCalls = .real) {
        do { try removeTree(path, system: system) } catch {
            // see above
        }
    }

    /// 16 random lowercase hex digits, for staging and temporary names.
    package static func randomSuffix() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
