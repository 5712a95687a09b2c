#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystemCalls {
    /// Creates `target`, which must not exist, as a copy-on-write clone of the regular file
    /// `source` (see `PosixCalls.system_cloneFile`). The default reports `ENOTSUP`, so a seam that
    /// does not model clones makes the backup copy the bytes, which is always correct.
    package func system_cloneFile(_ source: String, _ target: String) throws(Errno) { throw Errno(ENOTSUP) }
}

extension PosixCalls {
    /// A copy-on-write clone: `target` gets `source`'s content without copying its blocks, and the
    /// two are independent files from then on (a write to either leaves the other unchanged, unlike
    /// a hard link). Neither path's last component is followed if it is a symbolic link.
    ///
    /// - Darwin: `clonefile(2)` with `CLONE_NOFOLLOW` (APFS; other file systems report `ENOTSUP`,
    ///   another volume `EXDEV`; `target` must not exist, `EEXIST`). Unlike the Linux sequence below
    ///   (a new file, 0o600), the clone gets `source`'s mode and extended attributes, without
    ///   setuid/setgid, and the ACLs the target folder passes on (man 2 clonefile). Neither
    ///   matters here: a backup records each file's mode itself (`RecordedMode`) and a restore sets it.
    /// - Linux: there is no call by path, so this is the documented sequence of ioctl_ficlone(2):
    ///   open `source` read-only, create `target` (`O_CREAT | O_EXCL`, mode `0o600`), then
    ///   `ioctl(target, FICLONE, source)` (Btrfs, XFS, bcachefs; ext4 and tmpfs report
    ///   `EOPNOTSUPP`, another file system `EXDEV`). If a step fails `target` is removed again,
    ///   so the caller sees no file and one errno.
    /// - Elsewhere: `ENOTSUP`.
    package func system_cloneFile(_ source: String, _ target: String) throws(Errno) {
        #if canImport(Darwin)
        guard clonefile(source, target, UInt32(CLONE_NOFOLLOW)) == 0 else { throw Errno(errno) }
        #elseif os(Linux)
        let sourceFD = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard sourceFD >= 0 else { throw Errno(errno) }
        defer { _ = close(sourceFD) }
        let targetFD = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard targetFD >= 0 else { throw Errno(errno) }
        if ioctl(targetFD, Self.ficlone, sourceFD) != 0 {
            let failure = errno
            _ = close(targetFD)
            _ = unlink(target)
            throw Errno(failure)
        }
        guard close(targetFD) == 0 else {
            let failure = errno
            _ = unlink(target)
            throw Errno(failure)
        }
        #else
        throw Errno(ENOTSUP)
        #endif
    }

    #if os(Linux)
    /// `FICLONE` from `<linux/fs.h>`, `_IOW(0x94, 9, int)`, which Glibc's Swift module does not export.
    private static let ficlone = UInt(0x4004_9409)
    #endif
}

extension SystemCalls {
    /// A copy-on-write clone of `source` at the new path `target`, retrying `EINTR` (the shim has
    /// removed `target` before reporting it). The errors a caller falls back to a byte copy on:
    /// `cloneUnsupported`.
    package func cloneFile(_ source: String, to target: String, context: ErrorContext) throws(StoreError) {
        while true {
            do {
                return try calls.system_cloneFile(source, target)
            } catch  where error.rawValue == EINTR {
                continue
            } catch {
                throw .systemCall("clone", errno: error.rawValue, context: context)
            }
        }
    }

    /// The errnos by which a file system says "no clone here" (not a failure of the disk): the
    /// file system cannot clone (`ENOTSUP`, `EOPNOTSUPP`, `ENOTTY` for an ioctl it does not know,
    /// `ENOSYS`), the two paths are on different file systems (`EXDEV`), or it refuses these two
    /// files (`EINVAL`). `always`: no later clone into the same folder can work either.
    package static func cloneUnsupported(_ errno: Int32?) -> (unsupported: Bool, always: Bool) {
        guard let errno else { return (false, false) }
        if [ENOTSUP, EOPNOTSUPP, ENOTTY, ENOSYS, EXDEV].contains(errno) { return (true, true) }
        return (errno == EINVAL, false)
    }
}
