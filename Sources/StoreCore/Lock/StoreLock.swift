#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive lock that every writer of a store holds: `flock(2)` on `<store>/.lock`.
///
/// The lock file is created once and never renamed or replaced: flock locks an open file, so a lock
/// file replaced under a holder would let a second writer lock the new file. Only its holder may
/// delete it (`releaseRemovingFile`), because every acquirer checks after locking that it holds
/// the file at the path. The kernel
/// releases the lock when the holder's descriptor is closed, including when the process dies, so
/// a killed writer never blocks the next one. Readers need no lock: every file is always whole.
///
/// After locking, the holder records who it is in the lock file (`LockHolder`), so that a writer
/// that cannot get the lock can say who has it. Acquiring polls with `LOCK_NB` until a timeout
/// instead of blocking, so a caller never hangs without end.
///
/// flock locks belong to an open file description, not to a process: a second `StoreLock` for the
/// same store in the same process waits for the first like any other process would.
///
/// ```swift
/// try StoreLock.withExclusiveLock(store: "/data/store", tool: "migrate-store", version: "0.3.0") { lock in
///     if let warning = lock.fileSystemWarning { print(warning) }
///     // ... write ...
/// }
/// ```
public final class StoreLock {
    /// The lock file's name inside the store. The dot makes readers and backups skip it.
    package static let fileName = StoreLayout.Bookkeeping.lock
    /// How long `acquire` waits for another holder by default: 10 seconds.
    public static let defaultTimeout: Duration = .seconds(10)

    /// The store this lock is for, as given.
    public let storePath: String
    /// What this process recorded in the lock file.
    package let holder: LockHolder
    /// A sentence to show the user if the store is on a file system where locking is unreliable
    /// (see `networkFileSystemWarning(store:)`); nil on a local disk. Looked up on first use.
    package private(set) lazy var fileSystemWarning: String? = Self.warning(forStore: storePath, system: system)

    /// The lock file, open and locked until `release()`.
    private var descriptor: FileDescriptor?
    private let system: SystemCalls

    /// True until `release()` is called.
    public var isHeld: Bool { descriptor != nil }

    /// Takes the store's lock, waiting up to `timeout` for another holder to release it.
    ///
    /// - Parameters:
    ///   - store: The store folder. It must exist.
    ///   - tool: The calling tool's name, recorded for other processes' error messages.
    ///   - version: The calling tool's version, recorded likewise.
    ///   - timeout: How long to wait. The default is `defaultTimeout` (10 s); zero tries once.
    ///   - onWait: Called once, on the calling thread, when another process is found holding the
    ///     lock, before this waits for it (with a zero timeout: before it throws `.locked`): with
    ///     the holder's record as a sentence (`"process 4242 (migrate-store 0.3.0) since …"`), for
    ///     a caller that tells its user why it waits. Not called when the lock is free. The
    ///     default does nothing.
    /// - Throws: `StoreError` `.locked` naming the holder if the timeout passes, or the code of the
    ///   failed system call (`.readOnlyFileSystem` for a store on a read-only disk, ...).
    public convenience init(
        store: String, tool: String, version: String, timeout: Duration = defaultTimeout,
        onWait: (_ holder: String) -> Void = { _ in }
    ) throws(StoreError) {
        try self.init(store: store, tool: tool, version: version, timeout: timeout, system: .real, onWait: onWait)
    }

    /// - Parameter action: what the caller can't do while another process holds the lock, for
    ///   the `.locked` message ("Can't back up '…': it is locked by …"). The default is `"write"`.
    package init(
        store: String, tool: String, version: String, timeout: Duration, system: SystemCalls, action: String = "write",
        onWait: (_ holder: String) -> Void = { _ in }
    ) throws(StoreError) {
        let context = ErrorContext("lock", store)
        let path = joinPath(store, Self.fileName)
        // On a throw below, `fd` is closed as it goes out of scope, which releases a lock taken
        // (man 2 flock).
        var fd = try FileDescriptor(opening: path, flags: O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode: 0o600, system: system, context: context)
        var attempts = 0
        var announced = false
        var lockedSize: Int64 = 0
        while true {
            guard try fd.status(context: context).type == .regular else {
                throw StoreError(.notARegularFile, "Can't lock '\(store)': '\(path)' is not a regular file. Remove it and try again.", path: path)
            }
            try Self.waitForLock(fd, store: store, timeout: timeout, action: action, context: context, system: system) { holder in
                // Once, even when the lock file is replaced under this wait and locked again below.
                if !announced { onWait(holder().summary) }
                announced = true
            }
            // While this process waited, `restore --force` may have moved the store aside (with
            // this lock file) and put a restored store in its place: the lock taken is then the
            // old store's. Lock the file that stands at the path now (same device and inode).
            let locked = try fd.status(context: context)
            lockedSize = locked.size
            if let current = try system.linkStatus(path, context: context), current.device == locked.device, current.inode == locked.inode { break }
            attempts += 1
            guard attempts < 10 else {
                throw StoreError(
                    .conflict, "Can't lock '\(store)': its lock file keeps being replaced (another tool is moving the store). Try again.", path: path)
            }
            fd.discard()
            fd = try FileDescriptor(opening: path, flags: O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode: 0o600, system: system, context: context)
        }
        let (record, bytes) = LockHolder.currentEncoded(tool: tool, version: version)
        // Write first, then cut off any longer old record: the file is never empty in between.
        // `lockedSize` was taken under the lock, and every writer of the record holds it: when the
        // file was no longer than the new record, the write alone leaves exactly the record, and
        // the `ftruncate` is skipped (ext4 runs it as a truncate even at the same size: a few
        // microseconds of each update).
        try fd.writeAll(bytes, at: 0, context: context)
        if lockedSize > Int64(bytes.count) {
            try fd.truncate(to: Int64(bytes.count), context: context)
        }
        self.holder = record
        self.descriptor = consume fd
        self.system = system
        self.storePath = store
    }

    deinit { release() }

    /// Releases the lock. Calling it again does nothing.
    ///
    /// `LOCK_UN` first, so the lock is released even if a forked child still shares the
    /// descriptor; then `close`. The holder record is left as is: it is only read while the lock
    /// is held, and the next holder overwrites it.
    public func release() {
        guard let fd = descriptor.take() else { return }
        fd.unlock()  // closing below releases it too; nothing was written, nothing can be lost
        fd.discard()
    }

    /// Removes the lock file, then releases the lock: for a caller that created the lock file
    /// and whose work changed nothing (bad input found while migrating), so that the store is
    /// left byte for byte as it was. Calling it after `release()` does nothing.
    ///
    /// Safe against every other writer of this code: a process waiting for the lock, once it
    /// locks, checks that the file at the path is the one it locked (same device and inode) and
    /// otherwise opens the path again (`init`), so a removed lock file is never held by one
    /// process while another holds a new one. Only the file this lock holds is removed.
    package func releaseRemovingFile() {
        let path = joinPath(storePath, Self.fileName)
        let context = ErrorContext("unlock", storePath)
        if let locked = try? descriptor?.status(context: context), let current = try? system.linkStatus(path, context: context),
            current.device == locked.device, current.inode == locked.inode
        {
            system.removeLeftover(path)
        }
        release()
    }

    /// Runs `body` while holding the store's lock, and releases it when `body` returns or throws.
    ///
    /// - Throws: `StoreError` `.locked` (see `init`), or whatever `body` throws.
    public static func withExclusiveLock<R>(
        store: String, tool: String, version: String, timeout: Duration = defaultTimeout,
        _ body: (StoreLock) throws -> R
    ) throws -> R {
        let lock = try StoreLock(store: store, tool: tool, version: version, timeout: timeout)
        defer { lock.release() }
        return try body(lock)
    }

    /// Polls `flock(LOCK_EX|LOCK_NB)` until it succeeds or `timeout` passes; `onWait` is given,
    /// after the first attempt that fails and before the first pause, a way to tell the holder
    /// (`seenHolder`, called only by a caller that says it waits).
    private static func waitForLock(
        _ fd: borrowing FileDescriptor, store: String, timeout: Duration, action: String, context: ErrorContext,
        system: SystemCalls, onWait: (() -> SeenLockHolder) -> Void
    ) throws(StoreError) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var first = true
        while true {
            if try fd.tryLock(LOCK_EX, context: context) { return }
            if first { onWait { seenHolder(store: store, system: system) } }
            first = false
            let remaining = clock.now.duration(to: deadline)
            if remaining <= .zero {
                let record = LockHolder(decoding: try fd.readAll(limit: 4096, context: context))
                let file = try fd.status(context: context)
                throw lockedError(store: store, holder: SeenLockHolder.check(record, lockFile: (file.device, file.inode)), action: action)
            }
            // Poll every 20 ms at most: short enough to follow a released lock quickly.
            let (seconds, attoseconds) = min(remaining, .milliseconds(20)).components
            usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
        }
    }

    /// Who can be seen holding the lock (`SeenLockHolder`): its record, read through a descriptor
    /// of its own (reading through the waiting one would move its offset, and the `.locked` error
    /// reads the record from offset 0), checked against the system. The holder writes its record
    /// right after it locks: a record that is not there or does not parse yet reads as unknown
    /// ("another process …"), which is still true, and is no reason to stop waiting.
    static func seenHolder(store: String, system: SystemCalls) -> SeenLockHolder {
        let path = joinPath(store, fileName)
        let context = ErrorContext("read the lock record of", store)
        do {
            let reader = try FileDescriptor(opening: path, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC, system: system, context: context)
            let record = LockHolder(decoding: try reader.readAll(limit: 4096, context: context))
            let file = try reader.status(context: context)
            return SeenLockHolder.check(record, lockFile: (file.device, file.inode))
        } catch {
            // The record is only there to name the holder in a message: an unreadable one names nobody.
            return SeenLockHolder(holder: nil, recordIsOutOfDate: false)
        }
    }

    /// "Can't write '/data/store': it is locked by process 4242 (migrate-store 0.3.0) since ...";
    /// "… it is locked by a process this tool can't name. The lock file's record of its holder is
    /// out of date: that process no longer holds it. Wait for it to finish, or find it with 'lsof …'."
    static func lockedError(store: String, holder: SeenLockHolder, action: String = "write") -> StoreError {
        if holder.releasedSince {
            // Nobody holds it any more: say so, and name the record only as what it is (a program
            // that writes no record, flock(1), may have held it instead).
            let last = holder.holder.map { " (the lock file names \($0.summary) as its last holder)" } ?? ""
            return StoreError(
                .locked,
                "Can't \(action) '\(store)': it was locked when this tried, and is free now\(last). "
                    + "Run the command again.", path: store)
        }
        let advice =
            holder.isNamed
            ? "Wait for it to finish, or stop that process."
            : "Wait for it to finish, or find it with 'lsof \(joinPath(store, fileName))'."
        let note = holder.outOfDateNote.map { " " + $0 } ?? ""
        return StoreError(.locked, "Can't \(action) '\(store)': it is locked by \(holder.summary).\(note) \(advice)", path: store)
    }
}
