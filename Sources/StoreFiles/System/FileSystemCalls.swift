#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fault seam: every system call the store makes around writing goes through one value of
/// this protocol, so a test can replace it and fail the Nth call with `EIO`, `ENOSPC`, `EACCES`
/// or make a write short.
///
/// Layer 1 of three (HOUSE-STYLE §11, after swift-system's `Internals/Syscalls.swift`): each
/// `system_` shim makes exactly one C call and reports its `errno`; it never retries. Layer 2
/// (`SystemCalls`) retries `EINTR` and turns errno into `StoreError`; layer 3 is the named
/// methods the store uses. The names follow swift-system's `system_open` so that inside a
/// conforming type they do not shadow the C functions they call.
package protocol FileSystemCalls: Sendable {
    /// `open(2)`. Returns the new file descriptor.
    func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32
    /// `read(2)`. Returns the number of bytes read; 0 means end of file.
    func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int
    /// `write(2)`. Returns the number of bytes written, which may be fewer than asked.
    func system_write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int
    /// `pwrite(2)`. Returns the number of bytes written, which may be fewer than asked.
    func system_pwrite(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ offset: Int64) throws(Errno) -> Int
    /// `fsync(2)`; on Darwin `fcntl(F_FULLFSYNC)`, falling back to `fsync` only where the file
    /// system does not support it (fsync alone does not flush the drive's cache there: man 2 fsync).
    func system_fsync(_ fd: Int32) throws(Errno)
    /// `fchmod(2)`.
    func system_fchmod(_ fd: Int32, _ mode: mode_t) throws(Errno)
    /// `fstat(2)`.
    func system_fstat(_ fd: Int32) throws(Errno) -> FileStatus
    /// `lstat(2)`: never follows a symbolic link.
    func system_lstat(_ path: String) throws(Errno) -> FileStatus
    /// `rename(2)`.
    func system_rename(_ from: String, _ to: String) throws(Errno)
    /// `unlink(2)`.
    func system_unlink(_ path: String) throws(Errno)
    /// `mkdir(2)`.
    func system_mkdir(_ path: String, _ mode: mode_t) throws(Errno)
    /// `rmdir(2)`.
    func system_rmdir(_ path: String) throws(Errno)
    /// `close(2)`.
    func system_close(_ fd: Int32) throws(Errno)
    /// `flock(2)`.
    func system_flock(_ fd: Int32, _ operation: Int32) throws(Errno)
    /// `ftruncate(2)`.
    func system_ftruncate(_ fd: Int32, _ length: Int64) throws(Errno)
    /// `link(2)`: a hard link.
    func system_link(_ from: String, _ to: String) throws(Errno)
    /// `opendir(3)`, `readdir(3)`, `closedir(3)`: the entries of a directory except `.` and `..`.
    func system_readdir(_ path: String) throws(Errno) -> [DirectoryEntry]
    /// The first `limit` entries whose names pass `include`, without holding the others: a folder
    /// of 20,000 files listed in full was megabytes of a migration's peak memory. The default
    /// (for seams) filters `system_readdir`; `PosixCalls` filters while reading.
    func system_readdir(_ path: String, limit: Int, including include: (String) -> Bool) throws(Errno) -> [DirectoryEntry]
    /// Every entry except `.` and `..`, unsorted, handed to `visit` as its name's bytes (valid only
    /// during the call) and its type, without a `String` per entry: a work-stream folder of 50,000
    /// files listed as `String`s was megabytes of a migration's peak memory. The default (for
    /// seams) visits the entries of `system_readdir`; `PosixCalls` visits while reading.
    func system_readdir(_ path: String, visiting visit: (UnsafeBufferPointer<UInt8>, FileType?) -> Void) throws(Errno)
    /// The file system type of the mount holding `path` (`"nfs4"`, `"smbfs"`, `"ext4"`), or nil
    /// when it cannot be told. Darwin: `statfs(2)` `f_fstypename`. Linux: the mount in
    /// `/proc/self/mountinfo` whose device matches `stat(2)`'s, because Glibc's Swift module
    /// does not export `statfs`.
    func system_fileSystemType(_ path: String) throws(Errno) -> String?
    /// The file system type of the mount holding the open file `fd`, or nil when it cannot be
    /// told (Darwin: `fstatfs(2)`; Linux: `fstat(2)`'s device in `/proc/self/mountinfo`).
    func system_fileSystemType(descriptor fd: Int32) throws(Errno) -> String?
    /// `syncfs(2)`; see `FileSystemCalls+SyncFS.swift` (the default reports `ENOSYS`).
    func system_syncfs(_ fd: Int32) throws(Errno)
    /// Exchanges two paths in one atomic step (Linux `renameat2(RENAME_EXCHANGE)`, Darwin
    /// `renamex_np(RENAME_SWAP)`); see `FileSystemCalls+Exchange.swift` (the default reports `ENOSYS`).
    func system_exchange(_ a: String, _ b: String) throws(Errno)
    /// Creates `target` as a copy-on-write clone of `source` (Linux `ioctl(FICLONE)`, Darwin
    /// `clonefile`); see `FileSystemCalls+Clone.swift` (the default reports `ENOTSUP`).
    func system_cloneFile(_ source: String, _ target: String) throws(Errno)
    /// Starts write-back of a range of a file without waiting (Linux `sync_file_range`); see
    /// `FileSystemCalls+Writeback.swift` (the default does nothing).
    func system_startWriteback(_ fd: Int32, _ offset: Int64, _ length: Int64) throws(Errno)
}

/// An `errno` value reported by a failed system call.
package struct Errno: Error, Equatable, Sendable {
    var rawValue: Int32
    package init(_ rawValue: Int32) { self.rawValue = rawValue }
}

/// The kind of a file system entry, from `st_mode` or `d_type`.
package enum FileType: Sendable, Equatable {
    case regular, directory, symbolicLink, other
}

/// The parts of `struct stat` the store uses.
package struct FileStatus: Sendable, Equatable {
    /// The whole `st_mode`: type bits and permission bits.
    package var mode: mode_t
    package var size: Int64
    package var device: UInt64
    package var inode: UInt64
    /// `st_mtim` and `st_ctim` (Darwin `st_mtimespec`, `st_ctimespec`) in nanoseconds since 1970:
    /// with the inode and size, what tells a replaced document from the one seen before (store
    /// observation). 0 where a seam does not report them.
    package var modified: Int64
    package var changed: Int64

    package init(mode: mode_t, size: Int64, device: UInt64, inode: UInt64, modified: Int64 = 0, changed: Int64 = 0) {
        self.mode = mode
        self.size = size
        self.device = device
        self.inode = inode
        self.modified = modified
        self.changed = changed
    }

    /// Permission bits including setuid, setgid and sticky (`st_mode & 0o7777`).
    package var permissions: mode_t { mode & 0o7777 }

    /// The entry's type. The `S_IF*` values are the same on Linux and Darwin (POSIX `<sys/stat.h>`);
    /// they are spelled out because Glibc and Darwin import the C macros with different types.
    package var type: FileType {
        switch mode & 0o170000 {
        case 0o100000: return .regular
        case 0o040000: return .directory
        case 0o120000: return .symbolicLink
        default: return .other
        }
    }
}

/// One directory entry: its name and, when the file system reports it in `d_type`, its type.
package struct DirectoryEntry: Sendable, Equatable {
    package var name: String
    /// Nil when `d_type` is `DT_UNKNOWN` (some file systems never fill it in): `lstat` then.
    package var type: FileType?

    package init(name: String, type: FileType?) {
        self.name = name
        self.type = type
    }
}

extension FileSystemCalls {
    package func system_readdir(_ path: String, limit: Int, including include: (String) -> Bool) throws(Errno) -> [DirectoryEntry] {
        var entries: [DirectoryEntry] = []
        for entry in try system_readdir(path) where entries.count < limit && include(entry.name) { entries.append(entry) }
        return entries
    }

    package func system_readdir(_ path: String, visiting visit: (UnsafeBufferPointer<UInt8>, FileType?) -> Void) throws(Errno) {
        for entry in try system_readdir(path) {
            var name = entry.name
            name.withUTF8 { visit($0, entry.type) }
        }
    }
}
