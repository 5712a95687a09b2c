import Schema

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Durable, atomic replacement of one file: after `durableReplace` returns, the file holds the new
/// bytes and keeps them across a crash or power loss; if it throws before the rename, the file is
/// exactly as it was. A reader at any instant sees the whole old file or the whole new one.
///
/// The procedure (man 2 open, man 2 fsync, man 2 rename):
/// 1. `lstat` the target: refuse a symbolic link (never follow it) and anything that is not a
///    regular file; keep an existing file's mode, else use `newFileMode`.
/// 2. Open the directory, so that failing to open it later cannot strand a renamed file.
/// 3. Create `.tmp-<16 random hex>-<name>` in the same directory (rename is only atomic within one
///    file system) with `O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC`: never an existing file, never
///    through a link, never inherited by a child process. The dot keeps readers away from it.
/// 4. Write every byte (a write may be short; loop), `fchmod` to the intended mode (so the umask
///    does not matter), `fsync` it (F_FULLFSYNC on Darwin), `close` it and check the close.
/// 5. `rename` it over the target: atomic, the target is never missing or partial.
/// 6. `fsync` the directory: the rename is only durable once the directory entry is.
///
/// Any failure in steps 1–5 removes the temp file and leaves the target untouched. A failed
/// fsync is never retried (see `SystemCalls.sync`). If step 6 fails the new content is in place
/// but may not survive a power loss, so the write is reported as failed.
///
/// Renaming over the target also breaks any hard link to the old file, which is what lets a
/// hard-linked backup keep the old content.
package enum AtomicFile {
    /// Every temp file name starts with this; `TempSweep` removes what a crash leaves behind.
    package static let temporaryPrefix = StoreLayout.Bookkeeping.temporaryPrefix

    /// Replaces (or creates) `directory/name` with `bytes`, durably and atomically.
    ///
    /// - Parameters:
    ///   - directory: The folder holding the file. It must exist.
    ///   - name: A single path component (no `/`). Callers validate document names first.
    ///   - bytes: The complete new content.
    ///   - newFileMode: Permissions for a file that does not exist yet. The default is `0o600`.
    ///     An existing file keeps its own mode.
    /// - Throws: `StoreError`: `.symlinkRefused` or `.notARegularFile` for what stands at the
    ///   target, or the code of the failed system call (`.noSpace`, `.io`, ...).
    package static func durableReplace(
        directory: String, name: String, bytes: [UInt8], newFileMode: mode_t = 0o600,
        system: SystemCalls = .real
    ) throws(StoreError) {
        let replaced = try replace(directory: directory, name: name, bytes: bytes, newFileMode: newFileMode, system: system)
        try replaced.directory.sync(context: replaced.context)
    }

    /// Steps 1–5 of `durableReplace`: the new file is in place, whole, its content durable, but its
    /// name not yet (step 6 is the caller's). Returns the folder's descriptor, opened before the
    /// rename, and the context for step 6's error. For writers that share step 6 with other
    /// threads (`FolderSyncGroup`): such a write is confirmed only once that `fsync` returned.
    package static func replace(
        directory: String, name: String, bytes: [UInt8], newFileMode: mode_t = 0o600,
        system: SystemCalls = .real
    ) throws(StoreError) -> ReplacedFile {
        let target = joinPath(directory, name)
        var context = ErrorContext("write", target)
        let mode = try intendedMode(of: target, newFileMode: newFileMode, system: system, context: &context)
        let directoryFD = try openDirectory(directory, system: system, context: context)
        let temporary = try writeTemporary(
            directory: directory, name: name, bytes: bytes, mode: mode, system: system, context: context)
        do {
            try system.rename(temporary, to: target, context: context)
        } catch {
            system.removeLeftover(temporary)
            throw error
        }
        return ReplacedFile(
            directory: directoryFD,
            context: context.noting(
                "the new version is in place but may not survive a power failure, so the write is not confirmed"))
    }

    /// Step 1: what stands at `path`, and the mode the new file must get.
    /// Sets `context.note` to describe the unchanged state for later errors.
    package static func intendedMode(
        of path: String, newFileMode: mode_t, system: SystemCalls, context: inout ErrorContext
    ) throws(StoreError) -> mode_t {
        context.note = "the file was not created"
        guard let status = try system.linkStatus(path, context: context) else { return newFileMode }
        context.note = "the previous version of the file is unchanged"
        switch status.type {
        case .regular:
            return status.permissions
        case .symbolicLink:
            throw StoreError(
                .symlinkRefused,
                "Can't write '\(path)': it is a symbolic link, which the store never follows. "
                    + "Replace the link with the file it points to.",
                path: path, file: context.file, line: context.line)
        case .directory, .other:
            throw StoreError(
                .notARegularFile,
                "Can't write '\(path)': it is not a regular file. Move it away and try again.",
                path: path, file: context.file, line: context.line)
        }
    }

    /// Step 2: a read-only descriptor of `directory`, for fsyncing it after the rename.
    package static func openDirectory(_ directory: String, system: SystemCalls, context: ErrorContext) throws(StoreError) -> FileDescriptor {
        try FileDescriptor.directory(directory, system: system, context: context)
    }

    /// Steps 3–4: a new temp file next to the target holding `bytes` with `mode`, fsynced and
    /// closed. Returns its path. On failure the temp file is removed.
    static func writeTemporary(
        directory: String, name: String, bytes: [UInt8], mode: mode_t,
        system: SystemCalls, context: ErrorContext
    ) throws(StoreError) -> String {
        let file = try createTemporary(directory: directory, name: name, system: system, context: context)
        let temporary = file.path
        do {
            try file.descriptor.writeAll(bytes, context: context)
            try file.descriptor.setPermissions(mode, context: context)
            try file.descriptor.sync(context: context)
        } catch {
            file.descriptor.discard()
            system.removeLeftover(temporary)
            throw error
        }
        do {
            // close can report a deferred write error (NFS does); the content is not trusted then.
            try file.descriptor.close(context: context)
        } catch {
            system.removeLeftover(temporary)
            throw error
        }
        return temporary
    }

    /// A new temp file next to the target holding `bytes` with `mode`, not yet fsynced and still
    /// open: for `BatchCommit`, which makes a whole batch durable at once. On failure the temp
    /// file is removed.
    package static func writeUnsynced(
        directory: String, name: String, bytes: [UInt8], mode: mode_t,
        system: SystemCalls, context: ErrorContext
    ) throws(StoreError) -> TemporaryFile {
        let file = try createTemporary(directory: directory, name: name, system: system, context: context)
        do {
            try file.descriptor.writeAll(bytes, context: context)
            try file.descriptor.setPermissions(mode, context: context)
        } catch {
            let temporary = file.path
            file.descriptor.discard()
            system.removeLeftover(temporary)
            throw error
        }
        return file
    }

    /// Step 3. A name collision (64 random bits) is retried with a new name a few times.
    private static func createTemporary(
        directory: String, name: String, system: SystemCalls, context: ErrorContext
    ) throws(StoreError) -> TemporaryFile {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
        var attempt = 0
        while true {
            let token = UInt64.random(in: .min ... .max)
            let path = joinPath(directory, temporaryName(for: name, token: token))
            do {
                // 0o600 while it is written; fchmod sets the intended mode before it becomes visible.
                return TemporaryFile(
                    descriptor: try FileDescriptor(opening: path, flags: flags, mode: 0o600, system: system, context: context),
                    path: path, token: token)
            } catch  where error.errno == EEXIST && attempt < 4 {
                attempt += 1
            }
        }
    }

    /// `.tmp-<16 random hex digits>-<name>`.
    package static func temporaryName(for name: String) -> String {
        temporaryName(for: name, token: UInt64.random(in: .min ... .max))
    }

    /// `.tmp-<token as 16 hex digits>-<name>`: a temp file's name is its document's name and its
    /// token, so a caller that keeps many temp files may keep the 8-byte token instead of the path.
    package static func temporaryName(for name: String, token: UInt64) -> String {
        let hex = String(token, radix: 16)
        return temporaryPrefix + String(repeating: "0", count: 16 - hex.count) + hex + "-" + name
    }
}

/// A file `AtomicFile.replace` renamed into place: its folder, still to be fsynced, and what the
/// error of that `fsync` says.
package struct ReplacedFile: ~Copyable {
    package var directory: FileDescriptor
    package let context: ErrorContext
}

/// A temp file still open: its descriptor and its path (`.tmp-<16 hex>-<name>`), whose 16 hex
/// digits are `token` (`AtomicFile.temporaryName(for:token:)`).
package struct TemporaryFile: ~Copyable {
    var descriptor: FileDescriptor
    package let path: String
    package let token: UInt64

    /// Closes the descriptor, keeping the file. Another module cannot consume `descriptor` out of
    /// the struct (a partial consume of a non-frozen type), so it closes the file through here.
    package consuming func close(context: ErrorContext) throws(StoreError) {
        try descriptor.close(context: context)
    }
}

/// `directory/name`, without doubling a trailing slash.
package func joinPath(_ directory: String, _ name: String) -> String {
    // Byte searches: `String.contains(String)` is Foundation's `range(of:)`, ~7,000 instructions;
    // `==` and `hasSuffix` on `String`s compare by grapheme (a measurable cost on every update).
    let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
    precondition(
        !name.isEmpty && !name.utf8.contains(slash) && !name.utf8.elementsEqual([dot]) && !name.utf8.elementsEqual([dot, dot]),
        "joinPath: '\(name)' is not a single path component")
    return directory.utf8.last == slash ? directory + name : directory + "/" + name
}
