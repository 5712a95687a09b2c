/// Removing, after a migration was reported, the old folders its folder exchanges replaced
/// (`.migration-sessions`, `.migration-user-sessions`; issue 19: at 10,000 work streams freeing
/// their files was a fifth of the time the user waited).
///
/// Why any moment is safe: the folders are dot-named, so no reader ever looks at them (spec §1),
/// and the exchanges that put them there were made durable (the store folder fsynced) before the
/// migration returned. They are removed under the store's lock, like every sweep: a writer that
/// takes the lock first sweeps them itself (`TempSweep`), and this call then finds nothing. A
/// removal cut short by a crash leaves part of a dot-named folder, which the next sweep removes.
///
/// ```swift
/// let outcome = try StoreUpgrade.run(at: path, backup: .none, tool: "MyApp", version: "3.1", leavingOldFolders: true)
/// // … report the outcome to the user, then:
/// try MigrationCleanup.removeLeftovers(at: path, tool: "MyApp", version: "3.1")
/// ```
public enum MigrationCleanup {
    /// The folders a finished migration may leave.
    static let folderNames = [TempSweep.exchangeFolderName, TempSweep.customisationsExchangeFolderName]

    /// True when `store` holds an old folder of a migration's exchange (one `lstat` each).
    public static func hasLeftovers(at store: String) -> Bool {
        folderNames.contains { (try? SystemCalls.real.linkStatus(joinPath(store, $0), context: ErrorContext("list", store))) != nil }
    }

    /// Takes the store's lock (waiting up to `timeout`), fsyncs the store folder (the exchanges
    /// must be on disk before the folders they replaced go), and removes the old folders on
    /// several threads.
    ///
    /// - Parameters:
    ///   - tool, version: Recorded in the lock file while this runs.
    ///   - timeout: How long to wait for the lock. The default is `StoreLock.defaultTimeout`.
    /// - Throws: `StoreError` `.locked` when the lock stays taken; the folders are then left for
    ///   the next sweep. A folder that can't be removed is left quietly, for the same reason.
    /// - Warning: Deletes the two dot-named folders above and everything in them.
    public static func removeLeftovers(at store: String, tool: String, version: String,
                                       timeout: Duration = StoreLock.defaultTimeout) throws(StoreError) {
        guard hasLeftovers(at: store) else { return }
        let lock = try StoreLock(store: store, tool: tool, version: version, timeout: timeout)
        defer { lock.release() }
        let context = ErrorContext("clean up", store)
        // fsync the store folder first: a rename is durable only once its directory entry is (man 2 fsync).
        let storeFD = try AtomicFile.openDirectory(store, system: .real, context: context)
        try storeFD.sync(context: context)
        let options = Store.Options(readOnly: false, tool: tool, version: version)
        let migrator = StoreMigrator(store: Store(path: store, options: options, compatibility: .current, warnings: [], system: .real))
        for name in folderNames where (try? SystemCalls.real.linkStatus(joinPath(store, name), context: context))??.type == .directory {
            migrator.removeFolder(joinPath(store, name))
        }
    }
}
