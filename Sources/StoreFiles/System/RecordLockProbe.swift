#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks whether another process holds a POSIX record lock (`fcntl(2)`, the kind SQLite takes)
/// that would conflict with a read lock on a byte range. `F_GETLK` takes no lock and changes nothing.
package enum RecordLockProbe {
    /// The process id of a holder of a write lock on `[start, start + length)`, or nil when none
    /// (or when the system can't say: the import then goes on, and SQLite reports a real conflict).
    package static func writeLockHolder(fd: Int32, start: Int64, length: Int64) -> Int32? {
        var lock = flock()
        lock.l_type = Int16(F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(start)
        lock.l_len = off_t(length)
        guard fcntl(fd, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
        return Int32(lock.l_pid)
    }
}
