#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystemCalls {
    /// `syncfs(2)`: flush every file of the file system holding `fd`. The default reports
    /// `ENOSYS` (unsupported), so a seam that does not model it makes callers fall back to one
    /// `fsync` per file, which is always correct.
    package func system_syncfs(_ fd: Int32) throws(Errno) { throw Errno(ENOSYS) }
}

extension PosixCalls {
    /// Linux: `syncfs(2)`. Since Linux 5.8 it reports write-back errors of the file system that
    /// happened since `fd` was opened (man 2 syncfs, BUGS), like `fsync` does for one file.
    /// Darwin has no `syncfs`: `ENOSYS`, and callers `F_FULLFSYNC` each file.
    package func system_syncfs(_ fd: Int32) throws(Errno) {
        #if os(Linux)
        guard let syncfs = LinuxSyncFS.function else { throw Errno(ENOSYS) }
        guard syncfs(fd) == 0 else { throw Errno(errno) }
        #else
        throw Errno(ENOSYS)
        #endif
    }
}

#if os(Linux)
/// Glibc's Swift module does not declare `syncfs` (it is behind `_GNU_SOURCE`), so it is looked
/// up once in the C library already loaded into the process.
private enum LinuxSyncFS {
    typealias Function = @convention(c) (Int32) -> Int32
    static let function: Function? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}
#endif

/// Where `syncfs(2)` is a durability barrier. Linux returns 0 from `syncfs` on every file system,
/// but only a file system that implements the kernel's `sync_fs` operation makes anything durable
/// by it: on FUSE (LazyFS, sshfs, rclone, s3fs, gocryptfs), `syncfs` sends nothing to the file
/// system, and a rename after it can replace a durable file by an empty one after a power cut.
/// So the store trusts `syncfs` only on the local block-device file systems below, whose `syncfs`
/// writes back every dirty inode, commits the file system's own log and flushes the device cache
/// (`sync_filesystem` in fs/sync.c, then the file system's `sync_fs`):
///
/// - `ext4` (and `ext2`, `ext3`, served by the ext4 driver): `ext4_sync_fs` commits the jbd2
///   journal (or, without one, writes the superblock) and issues a cache flush.
/// - `xfs`: `xfs_fs_sync_fs` forces the log to disk.
/// - `btrfs`: `btrfs_sync_fs` commits the running transaction.
/// - `f2fs`: `f2fs_sync_fs` writes a checkpoint.
///
/// Everywhere else (FUSE, network file systems, overlay, an unknown or untold type, Darwin) the
/// caller makes each file and folder durable with its own `fsync`, which every file system
/// honours or reports failing.
enum SyncFSBarrier {
    static let honouredTypes: Set<String> = ["ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs"]

    static func isBarrier(onType type: String?) -> Bool {
        guard let type else { return false }
        return honouredTypes.contains(type)
    }
}

extension SystemCalls {
    /// `syncfs(2)` on the file system of `fd` where it is a durability barrier (`SyncFSBarrier`);
    /// false, without calling it, where it is not or the platform or seam lacks it: the caller
    /// then `fsync`s each file. Never retried, like `fsync`: a failure means the data may not be
    /// on disk.
    func syncFileSystem(_ fd: Int32, context: ErrorContext) throws(StoreError) -> Bool {
        let type: String?
        do {
            type = try calls.system_fileSystemType(descriptor: fd)
        } catch {
            throw .systemCall("fstatfs", errno: error.rawValue, context: context)
        }
        guard SyncFSBarrier.isBarrier(onType: type) else { return false }
        do {
            try calls.system_syncfs(fd)
            return true
        } catch  where error.rawValue == ENOSYS {
            return false
        } catch {
            throw .systemCall("syncfs", errno: error.rawValue, context: context)
        }
    }
}
