#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StoreLock {
    /// Who holds the store's lock right now, without taking it and without writing anything.
    ///
    /// For a `status` command and for read-only use. Opens the lock file read-only and without
    /// `O_CREAT` (a store without a lock file is simply not locked), then probes with
    /// `flock(LOCK_SH|LOCK_NB)` on that new descriptor: flock locks belong to an open file
    /// description, so the probe sees a lock held by any other descriptor, even in this process.
    ///
    /// - Returns: nil when nobody holds the lock (or the store has no lock file), else the
    ///   holder's record, `isUnknown` if the record cannot be read.
    /// - Throws: `StoreError` if the lock file cannot be opened or probed.
    package static func currentHolder(store: String) throws(StoreError) -> LockHolder? {
        try currentHolder(store: store, system: .real)
    }

    static func currentHolder(store: String, system: SystemCalls) throws(StoreError) -> LockHolder? {
        try probeHeldLock(store: store, system: system)?.record
    }

    /// `currentHolder(store:)` checked against the system (`SeenLockHolder`): the record is named
    /// only when its process runs and, where the system can tell, holds the lock.
    package static func currentSeenHolder(store: String) throws(StoreError) -> SeenLockHolder? {
        try currentSeenHolder(store: store, system: .real)
    }

    static func currentSeenHolder(store: String, system: SystemCalls) throws(StoreError) -> SeenLockHolder? {
        guard let (record, file) = try probeHeldLock(store: store, system: system) else { return nil }
        return SeenLockHolder.check(record, lockFile: (file.device, file.inode))
    }

    /// The lock file's record and status when someone holds the lock, nil when nobody does (or
    /// there is no lock file): what `currentHolder` and `currentSeenHolder` are built on.
    private static func probeHeldLock(store: String, system: SystemCalls) throws(StoreError) -> (record: LockHolder, file: FileStatus)? {
        let context = ErrorContext("check the lock of", store)
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor(
                opening: joinPath(store, fileName), flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, system: system, context: context)
        } catch  where error.code == .notFound {
            return nil
        }
        // Closing also drops the probe's shared lock, if it got one.
        if try fd.tryLock(LOCK_SH, context: context) { return nil }
        let record = LockHolder(decoding: try fd.readAll(limit: 4096, context: context))
        return (record, try fd.status(context: context))
    }

    /// A sentence to show the user when `store` is on a network or FUSE file system, where
    /// flock between processes or computers is unreliable; nil on a local disk or when the
    /// type cannot be told. Writes nothing and prints nothing.
    package static func networkFileSystemWarning(store: String) -> String? {
        warning(forStore: store, system: .real)
    }

    static func warning(forStore store: String, system: SystemCalls) -> String? {
        do {
            let type = try system.fileSystemType(store, context: ErrorContext("inspect", store))
            return FileSystemWarning.message(store: store, fileSystemType: type)
        } catch {
            // Not being able to tell the file system type is no reason to refuse the store.
            return nil
        }
    }
}
