#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystemCalls {
    /// `syncfs(2)`: flush every file of the file system holding `fd`. The default reports
    /// `ENOSYS` (unsupported), so a seam that does not model it makes callers fall back to one
    /// `fsync` per file, which is always correct.
    func system_syncfs(_ fd: Int32) throws(Errno) { throw Errno(ENOSYS) }
}

extension PosixCalls {
    /// Linux: `syncfs(2)`. Since Linux 5.8 it reports write-back errors of the file system that
    /// happened since `fd` was opened (man 2 syncfs, BUGS), like `fsync` does for one file.
    /// Darwin has no `syncfs`: `ENOSYS`, and callers `F_FULLFSYNC` each file.
    func system_syncfs(_ fd: Int32) throws(Errno) {
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

extension SystemCalls {
    /// `syncfs(2)` on the file system of `fd`; false when the platform or seam does not support it.
    /// Never retried, like `fsync`: a failure means the data may not be on disk.
    func syncFileSystem(_ fd: Int32, context: ErrorContext) throws(StoreError) -> Bool {
        do {
            try calls.system_syncfs(fd)
            return true
        } catch where error.rawValue == ENOSYS {
            return false
        } catch {
            throw .systemCall("syncfs", errno: error.rawValue, context: context)
        }
    }
}
