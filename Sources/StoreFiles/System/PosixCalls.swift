import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real system calls: each shim makes one C call and throws its `errno` on failure.
/// No retries here; `SystemCalls` decides which failures are retried.
package struct PosixCalls: FileSystemCalls {
    package init() {}

    package func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        let fd = open(path, flags, mode)
        guard fd >= 0 else { throw Errno(errno) }
        return fd
    }

    package func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        let count = read(fd, buffer.baseAddress, buffer.count)
        guard count >= 0 else { throw Errno(errno) }
        return count
    }

    package func system_write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let count = write(fd, buffer.baseAddress, buffer.count)
        guard count >= 0 else { throw Errno(errno) }
        return count
    }

    package func system_pwrite(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ offset: Int64) throws(Errno) -> Int {
        let count = pwrite(fd, buffer.baseAddress, buffer.count, off_t(offset))
        guard count >= 0 else { throw Errno(errno) }
        return count
    }

    package func system_fsync(_ fd: Int32) throws(Errno) {
        #if canImport(Darwin)
        // On Darwin fsync(2) hands the data to the drive but does not flush the drive's cache;
        // F_FULLFSYNC does (man 2 fsync, man 2 fcntl). Fall back to fsync only where the file
        // system says it does not support F_FULLFSYNC: ENOTSUP or ENOTTY (external drives, SMB and
        // other network mounts report either), EOPNOTSUPP (a different number from ENOTSUP on
        // Darwin, 102 and 45, unlike Linux), EINVAL (a descriptor type without it). SQLite and
        // LevelDB fall back on any error; an I/O error (EIO) is not retried as a plain fsync here,
        // because that fsync could succeed after the failed flush and hide it.
        if fcntl(fd, F_FULLFSYNC) != -1 { return }
        let failure = errno
        guard [ENOTSUP, EOPNOTSUPP, EINVAL, ENOTTY].contains(failure) else { throw Errno(failure) }
        #endif
        guard fsync(fd) == 0 else { throw Errno(errno) }
    }

    package func system_fchmod(_ fd: Int32, _ mode: mode_t) throws(Errno) {
        guard fchmod(fd, mode) == 0 else { throw Errno(errno) }
    }

    package func system_fstat(_ fd: Int32) throws(Errno) -> FileStatus {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Errno(errno) }
        return FileStatus(status)
    }

    package func system_lstat(_ path: String) throws(Errno) -> FileStatus {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw Errno(errno) }
        return FileStatus(status)
    }

    package func system_rename(_ from: String, _ to: String) throws(Errno) {
        guard rename(from, to) == 0 else { throw Errno(errno) }
    }

    package func system_unlink(_ path: String) throws(Errno) {
        guard unlink(path) == 0 else { throw Errno(errno) }
    }

    package func system_mkdir(_ path: String, _ mode: mode_t) throws(Errno) {
        guard mkdir(path, mode) == 0 else { throw Errno(errno) }
    }

    package func system_rmdir(_ path: String) throws(Errno) {
        guard rmdir(path) == 0 else { throw Errno(errno) }
    }

    package func system_close(_ fd: Int32) throws(Errno) {
        guard close(fd) == 0 else { throw Errno(errno) }
    }

    package func system_flock(_ fd: Int32, _ operation: Int32) throws(Errno) {
        guard flock(fd, operation) == 0 else { throw Errno(errno) }
    }

    package func system_ftruncate(_ fd: Int32, _ length: Int64) throws(Errno) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw Errno(errno) }
    }

    package func system_link(_ from: String, _ to: String) throws(Errno) {
        guard link(from, to) == 0 else { throw Errno(errno) }
    }

    package func system_readdir(_ path: String) throws(Errno) -> [DirectoryEntry] {
        try system_readdir(path, limit: .max) { _ in true }
    }

    package func system_readdir(_ path: String, limit: Int, including include: (String) -> Bool) throws(Errno) -> [DirectoryEntry] {
        guard let directory = opendir(path) else { throw Errno(errno) }
        defer { closedir(directory) }
        var entries: [DirectoryEntry] = []
        while entries.count < limit {
            // readdir returns NULL both at the end and on error; only errno tells them apart (man 3 readdir).
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw Errno(errno) }
                return entries
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." || !include(name) { continue }
            entries.append(DirectoryEntry(name: name, type: FileType(directoryEntryType: entry.pointee.d_type)))
        }
        return entries
    }

    package func system_readdir(_ path: String, visiting visit: (UnsafeBufferPointer<UInt8>, FileType?) -> Void) throws(Errno) {
        guard let directory = opendir(path) else { throw Errno(errno) }
        defer { closedir(directory) }
        while true {
            // readdir returns NULL both at the end and on error; only errno tells them apart (man 3 readdir).
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw Errno(errno) }
                return
            }
            let type = FileType(directoryEntryType: entry.pointee.d_type)
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                raw.withMemoryRebound(to: UInt8.self) { bytes in
                    let name = UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)])
                    let dot = UInt8(ascii: ".")
                    if name.count == 1 && name[0] == dot || name.count == 2 && name[0] == dot && name[1] == dot { return }
                    visit(name, type)
                }
            }
        }
    }

    package func system_fileSystemType(_ path: String) throws(Errno) -> String? {
        #if canImport(Darwin)
        var info = statfs()
        guard statfs(path, &info) == 0 else { throw Errno(errno) }
        return Self.typeName(info)
        #else
        var status = stat()
        guard stat(path, &status) == 0 else { throw Errno(errno) }
        return Self.mountedType(device: status.st_dev)
        #endif
    }

    package func system_fileSystemType(descriptor fd: Int32) throws(Errno) -> String? {
        #if canImport(Darwin)
        var info = statfs()
        guard fstatfs(fd, &info) == 0 else { throw Errno(errno) }
        return Self.typeName(info)
        #else
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Errno(errno) }
        return Self.mountedType(device: status.st_dev)
        #endif
    }

    #if canImport(Darwin)
    private static func typeName(_ info: statfs) -> String {
        withUnsafeBytes(of: info.f_fstypename) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
    }
    #else
    private static func mountedType(device: dev_t) -> String? {
        // A missing or unreadable /proc only means the type cannot be told; that is not an error.
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return nil }
        return MountTable.fileSystemType(device: UInt64(truncatingIfNeeded: device), mountinfo: table)
    }
    #endif
}

extension FileStatus {
    package init(_ status: stat) {
        #if canImport(Darwin)
        let (modified, changed) = (status.st_mtimespec, status.st_ctimespec)
        #else
        let (modified, changed) = (status.st_mtim, status.st_ctim)
        #endif
        self.init(
            mode: status.st_mode, size: Int64(status.st_size),
            device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino),
            modified: Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec),
            changed: Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec))
    }
}

extension FileType {
    /// Maps `d_type`. `DT_DIR` 4, `DT_REG` 8, `DT_LNK` 10 are the same on Linux and Darwin
    /// (`<dirent.h>`); Glibc imports them as `Int`, Darwin as `Int32`, so they are spelled out.
    package init?(directoryEntryType: UInt8) {
        switch directoryEntryType {
        case 0: return nil
        case 4: self = .directory
        case 8: self = .regular
        case 10: self = .symbolicLink
        default: self = .other
        }
    }
}

/// Reads Linux's `/proc/self/mountinfo` (man 5 proc): field 3 is `major:minor` of the mount's
/// device, and the file system type follows the lone `-` field.
package enum MountTable {
    package static func fileSystemType(device: UInt64, mountinfo: String) -> String? {
        // gnu_dev_major / gnu_dev_minor from <sys/sysmacros.h>.
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        let wanted = "\(major):\(minor)"
        var found: String?
        // The last matching line wins: a later mount on the same device shadows an earlier one.
        for line in mountinfo.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 3, fields[2] == wanted,
                let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count
            else { continue }
            found = String(fields[dash + 1])
        }
        return found
    }
}
