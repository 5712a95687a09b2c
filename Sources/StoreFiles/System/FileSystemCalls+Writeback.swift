#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystemCalls {
    /// Asks the kernel to start writing `length` bytes of `fd` from `offset` to disk, without
    /// waiting. A hint: it makes nothing durable (the `fsync` after it does); the default does
    /// nothing, so a seam that does not model it changes no outcome.
    package func system_startWriteback(_ fd: Int32, _ offset: Int64, _ length: Int64) throws(Errno) {}
}

extension PosixCalls {
    /// Linux: `sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE)` (man 2
    /// sync_file_range: "initiate write-out of all dirty pages in the specified range which are
    /// not presently under write-out"; it is no durability guarantee, and is not used as one).
    /// Elsewhere: nothing.
    package func system_startWriteback(_ fd: Int32, _ offset: Int64, _ length: Int64) throws(Errno) {
        #if os(Linux)
        guard let syncFileRange = LinuxSyncFileRange.function else { return }
        guard syncFileRange(fd, offset, length, LinuxSyncFileRange.write) == 0 else { throw Errno(errno) }
        #endif
    }
}

#if os(Linux)
/// Glibc's Swift module does not declare `sync_file_range` (it is behind `_GNU_SOURCE`), so it is
/// looked up once in the C library already loaded into the process.
private enum LinuxSyncFileRange {
    typealias Function = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
    /// `SYNC_FILE_RANGE_WRITE` (linux/fs.h).
    static let write: UInt32 = 2
    static let function: Function? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}
#endif

extension SystemCalls {
    /// Starts writing `length` bytes of `fd` at `offset` to disk in the background, so that a
    /// later `fsync` of a large file has less left to wait for. Errors are ignored: this is only
    /// a hint, and a failed write-back is reported by that `fsync`.
    func startWriteback(_ fd: Int32, offset: Int64, length: Int64) {
        do { try calls.system_startWriteback(fd, offset, length) } catch {
            // a hint; see above
        }
    }
}
