import Foundation

extension NSLock {
    /// Runs `body` holding the lock. (`NSLock.withLock` exists only from macOS 14 and iOS 17; the
    /// package supports macOS 13 and iOS 16.)
    package func guarded<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
