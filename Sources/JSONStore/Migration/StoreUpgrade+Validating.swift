#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StoreUpgrade {
    /// The migration of step 4, which also validates when no backup is taken (one parse
    /// per document instead of a read-only pass first). Staging decodes every document and writes
    /// only temp files (dot-named, never read); if any document is unreadable, the migrator removes
    /// them and throws before its first visible write, and the store's write record is untouched
    /// (`StoreMigrator.run`). What is left is the lock file: removed here when this call created it
    /// (`removingLockFile`), so that bad input leaves the store byte for byte as it was.
    static func migrateValidating(
        _ migrator: StoreMigrator, to target: Int, version: String, holding lock: StoreLock,
        removingLockFile: Bool, leavingOldFolders: Bool,
        progress: @escaping (StoreProgress) -> Void
    ) throws(StoreError) -> MigrationReport {
        do {
            return try migrator.migrate(
                to: target, toolVersion: version, holding: lock, keepingDocuments: false,
                leavingOldFolders: leavingOldFolders, progress: progress)
        } catch  where removingLockFile && error.underlying is StoreProblems {
            lock.releaseRemovingFile()
            throw error
        }
    }

    /// True when `<store>/.lock` exists (whatever it is): a lock file this call did not create is
    /// never removed.
    static func lockFileExists(_ store: String) throws(StoreError) -> Bool {
        let path = joinPath(store, StoreLock.fileName)
        return try SystemCalls.real.linkStatus(path, context: ErrorContext("lock", store)) != nil
    }
}
