#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock that serialises restores and imports into one target and their recovery:
/// `flock(2)` on `<parent>/.<name>.restore-lock`.
///
/// It lives next to the target, not inside it, because a restore renames the target folder (and
/// the store's own `.lock` with it). It exists only while a restore is changing something: the
/// holder removes the file before releasing it. That is safe because of how it is taken
/// (the lock-file protocol of e.g. `lockf`-based tools): after flock succeeds, the taker checks
/// that the path still names the very file it locked (`lstat` and `fstat` agree on device and
/// inode); if the holder removed it meanwhile, the taker locked a dead file and starts over.
final class RestoreLock {
    /// The lock file, open and locked until `release()`.
    private var descriptor: FileDescriptor?
    private let path: String
    private let system: SystemCalls

    /// Takes the lock, polling every 20 ms for up to `timeout`.
    ///
    /// - Parameter onWait: Called once, before the first pause, when another restore or import
    ///   into the target holds the lock. The default does nothing.
    /// - Throws: `StoreError` `.locked` when another restore of the same target holds it.
    init(
        for target: SiblingPath, timeout: Duration = .seconds(10), system: SystemCalls = .real,
        onWait: () -> Void = {}
    ) throws(StoreError) {
        let path = target.sibling(".\(target.name).restore-lock")
        let context = ErrorContext("lock", path)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var announced = false
        while true {
            // Closed at the end of each attempt that does not keep it, also on a throw.
            let fd = try FileDescriptor(opening: path, flags: O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode: 0o600, system: system, context: context)
            let gotLock = try fd.tryLock(LOCK_EX, context: context)
            if gotLock {
                let locked = try fd.status(context: context)
                let named = try system.linkStatus(path, context: context)
                if named?.device == locked.device && named?.inode == locked.inode {
                    self.descriptor = consume fd
                    break
                }
            }
            guard ContinuousClock.now < deadline else {
                throw StoreError(
                    .locked,
                    "Can't restore into '\(target.path)': another restore or import into it is "
                        + "running (it holds '\(path)'). Wait for it to finish, or stop that process.", path: target.path)
            }
            fd.discard()
            // Said only for a lock another process holds, not for a lock file removed under us.
            if !gotLock && !announced {
                onWait()
                announced = true
            }
            usleep(20_000)
        }
        self.path = path
        self.system = system
    }

    deinit { release() }

    /// Removes the lock file, then releases the lock. Calling it again does nothing.
    func release() {
        guard let fd = descriptor.take() else { return }
        system.removeLeftover(path)
        fd.unlock()  // closing releases it too
        fd.discard()
    }
}
