#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creating the store's folders: mode `0o700` whatever the umask, and durable.
package enum Directories {
    /// Creates the folder `path` with mode `0o700`, unless a folder already stands there (whose
    /// mode is then kept, like a rewritten file's).
    ///
    /// The steps: `mkdir(path, 0o700)` (the umask can only narrow that), `fchmod` to exactly
    /// `0o700`, then fsync the parent, because a new directory entry is durable only once its
    /// directory is (man 2 fsync: "an explicit fsync() on a file descriptor for the directory is
    /// also needed"). If a step after `mkdir` fails, the new, empty folder is removed again.
    ///
    /// - Returns: true if the folder was created, false if it existed.
    /// - Throws: `StoreError`: `.symlinkRefused` if a symbolic link stands at `path`,
    ///   `.notARegularFile` if another non-folder does, or the code of the failed system call.
    @discardableResult
    package static func create(_ path: String, system: SystemCalls = .real) throws(StoreError) -> Bool {
        let context = ErrorContext("create the folder", path, note: "the folder was not created")
        if try existingDirectory(path, system: system, context: context) { return false }
        do {
            try system.makeDirectory(path, mode: 0o700, context: context)
        } catch  where error.code == .alreadyExists {
            // Another process created it between the lstat and the mkdir.
            if try existingDirectory(path, system: system, context: context) { return false }
            throw error
        }
        do {
            let fd = try FileDescriptor(opening: path, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, system: system, context: context)
            try fd.setPermissions(0o700, context: context)
            let parentFD = try AtomicFile.openDirectory(parent(of: path), system: system, context: context)
            try parentFD.sync(context: context)
        } catch {
            system.removeDirectoryLeftover(path)
            throw error
        }
        return true
    }

    /// True if a real folder (not a link to one) stands at `path`, false if nothing does.
    private static func existingDirectory(_ path: String, system: SystemCalls, context: ErrorContext) throws(StoreError) -> Bool {
        guard let status = try system.linkStatus(path, context: context) else { return false }
        switch status.type {
        case .directory:
            return true
        case .symbolicLink:
            throw StoreError(
                .symlinkRefused,
                "Can't create the folder '\(path)': a symbolic link stands there, which the store never follows. "
                    + "Replace the link with the folder it points to.",
                path: path, file: context.file, line: context.line)
        case .regular, .other:
            throw StoreError(
                .notARegularFile,
                "Can't create the folder '\(path)': a file that is not a folder stands there. Move it away and try again.",
                path: path, file: context.file, line: context.line)
        }
    }

    /// The folder containing `path` (`"."` for a bare name, `"/"` for a top-level entry).
    package static func parent(of path: String) -> String {
        // On the UTF-8 bytes: `Substring.count` counts characters, from the start each time.
        let slashByte = UInt8(ascii: "/")
        var trimmed = Substring(path)
        while trimmed.utf8.count > 1 && trimmed.utf8.last == slashByte { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.utf8.lastIndex(of: slashByte) else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
