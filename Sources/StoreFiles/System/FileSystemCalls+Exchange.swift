#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystemCalls {
    /// Exchanges two paths atomically. The default reports `ENOSYS` (unsupported), so a seam that
    /// does not model it makes callers fall back to replacing file by file, which is always correct.
    package func system_exchange(_ a: String, _ b: String) throws(Errno) { throw Errno(ENOSYS) }
}

extension PosixCalls {
    /// Linux: `renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)` (Linux 3.15; ext4, xfs,
    /// btrfs, tmpfs; other file systems report `EINVAL`). Darwin: `renamex_np(a, b, RENAME_SWAP)`
    /// (`<stdio.h>`, `unsigned int flags`; on volumes with `VOL_CAP_INT_RENAME_SWAP`, APFS; others
    /// report `ENOTSUP`; `EINVAL` when one path is a parent of the other, man 2 rename). Both paths
    /// must exist; neither is ever absent.
    package func system_exchange(_ a: String, _ b: String) throws(Errno) {
        guard let exchange = PathExchange.function else { throw Errno(ENOSYS) }
        guard exchange(a, b) == 0 else { throw Errno(errno) }
    }
}

/// The C function. Linux: looked up once in the C library already loaded into the process,
/// because Glibc's Swift module does not declare `renameat2` (it is behind `_GNU_SOURCE`), and
/// glibc before 2.28 does not have it. Darwin: declared by `<stdio.h>` since macOS 10.12.
private enum PathExchange {
    #if os(Linux)
    typealias Call = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    static let function: (@Sendable (String, String) -> Int32)? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
        let call = unsafeBitCast(symbol, to: Call.self)
        let atCurrentDirectory: Int32 = -100, renameExchange: UInt32 = 1 << 1  // AT_FDCWD, RENAME_EXCHANGE
        return { a, b in call(atCurrentDirectory, a, atCurrentDirectory, b, renameExchange) }
    }()
    #elseif canImport(Darwin)
    static let function: (@Sendable (String, String) -> Int32)? = { a, b in renamex_np(a, b, UInt32(RENAME_SWAP)) }
    #else
    static let function: (@Sendable (String, String) -> Int32)? = nil
    #endif
}

extension SystemCalls {
    /// Exchanges two existing paths atomically, retrying `EINTR`. Returns false, having changed
    /// nothing, when the platform, the file system or the seam cannot (`ENOSYS`, `EINVAL`,
    /// `ENOTSUP`/`EOPNOTSUPP`): the caller then replaces file by file.
    func exchange(_ a: String, _ b: String, context: ErrorContext) throws(StoreError) -> Bool {
        while true {
            do {
                try calls.system_exchange(a, b)
                return true
            } catch  where error.rawValue == EINTR {
                continue
            } catch  where [ENOSYS, EINVAL, ENOTSUP, EOPNOTSUPP].contains(error.rawValue) {
                return false
            } catch {
                throw .systemCall("exchange", errno: error.rawValue, context: context)
            }
        }
    }
}
