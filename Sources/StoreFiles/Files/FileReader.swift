#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading one whole file of the store, safely: never through a symbolic link, never from a FIFO
/// or a device, never more than a size cap.
package enum FileReader {
    /// The largest file the store reads: 256 MiB. Documents are far smaller; the cap keeps a
    /// stray huge file from exhausting memory.
    package static let defaultLimit = 256 * 1024 * 1024

    /// Reads every byte of the regular file at `path`.
    ///
    /// Opens with `O_RDONLY|O_NOFOLLOW|O_CLOEXEC|O_NONBLOCK` (O_NONBLOCK so that a FIFO in the
    /// file's place cannot block the open; it changes nothing for regular files, man 2 open),
    /// checks with `fstat` that it is a regular file, then reads until end of file.
    ///
    /// - Parameter limit: The most bytes accepted. The default is `defaultLimit` (256 MiB).
    /// - Throws: `StoreError`: `.notFound`, `.symlinkRefused`, `.notARegularFile`, `.fileTooLarge`,
    ///   or the code of the failed system call.
    package static func read(_ path: String, limit: Int = defaultLimit, system: SystemCalls = .real) throws(StoreError) -> [UInt8] {
        try readWithPermissions(path, limit: limit, system: system).bytes
    }

    /// `read`, also returning the file's permission bits (`st_mode & 0o7777`) from the same
    /// `fstat`, for a backup or an export that records them (`RecordedMode`).
    package static func readWithPermissions(
        _ path: String, limit: Int = defaultLimit,
        system: SystemCalls = .real
    ) throws(StoreError) -> (bytes: [UInt8], permissions: mode_t) {
        let context = ErrorContext("read", path)
        let fd = try FileDescriptor(opening: path, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, system: system, context: context)
        // Closing a read-only descriptor cannot lose data; its error is not worth reporting.
        let status = try fd.status(context: context)
        guard status.type == .regular else {
            throw StoreError(
                .notARegularFile, "Can't read '\(path)': it is not a regular file. Move it away and try again.",
                path: path)
        }
        let bytes = try fd.readAll(limit: limit, sizeHint: Int(clamping: status.size), context: context)
        guard bytes.count <= limit else {
            throw StoreError(
                .fileTooLarge,
                "Can't read '\(path)': it is larger than \(limit) bytes, more than any store document. "
                    + "Move it out of the store.",
                path: path)
        }
        return (bytes, status.permissions)
    }
}
