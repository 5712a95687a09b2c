import Foundation

/// The whole upgrade procedure of a store, as one call: what `migrate-store migrate` runs, and
/// what an app runs to get the same safety.
///
/// The steps, in order (spec §6–§8):
/// 1. Open read-only and classify the store: newer than this code → nothing to do; refused by the
///    reader rule → an error.
/// 2. A v2 store changes only after a v1 writer touched it (§7): plan read-only first, so that an
///    up-to-date store gets no backup and no write at all (leftover temp files of an interrupted
///    run are swept by an open for writing).
/// 3. Validate every document of a v1 store before the first write: bad input changes nothing,
///    not even the lock file.
/// 4. Take the store's lock and hold it for the rest: the backup, verified, and the migration
///    (which writes `store.json`, with its migration record, last) see the same store, with no
///    writer in between.
///
/// ```swift
/// let outcome = try StoreUpgrade.run(at: "/data/store", backup: .defaultFolder,
///                                    tool: "MyApp", version: "3.1") { event in print(event) }
/// if case .upgraded(let report, let from, let backup) = outcome { ... }
/// ```
///
/// - Warning: with `backup: .none` nothing keeps the pre-migration bytes: use it only when the
///   caller has its own copy.
public enum StoreUpgrade {
    /// Where the backup taken before the first write goes.
    public enum BackupPolicy: Sendable, Equatable {
        /// No backup (`--no-backup`).
        case none
        /// `<store>.backup-<yyyyMMdd'T'HHmmss'Z'>` next to the store (`Backup.defaultDestination`).
        case defaultFolder
        /// This folder, which must not exist.
        case folder(String)
    }

    /// What happens, as it happens, for a caller that shows progress.
    public enum Event: Sendable {
        /// A sentence the caller should show (the store's `warnings`, for example a network file system).
        case warning(String)
        /// Another process holds the store's lock (`holder` describes it when its record reads);
        /// the upgrade waits for it, up to the lock timeout.
        case waitingForLock(holder: String?)
        /// `BackupPolicy.none`: no backup is taken.
        case backupSkipped
        /// `done` of `total` work streams of a v1 store are read and validated (before any write).
        case validating(done: Int, total: Int)
        /// The backup into this folder starts.
        case backupStarted(destination: String)
        /// The backup is complete and verified.
        case backupFinished(BackupReport)
        /// The migration starts.
        case migrationStarted
        /// `done` of `total` work streams are migrated.
        case migrating(done: Int, total: Int)
        /// The migration is committed (`store.json` written).
        case migrationFinished
    }

    /// How the call ended.
    public enum Outcome: Sendable {
        /// The store is newer than this code (`schemaVersion`): nothing to migrate, nothing written.
        case newerStore(schemaVersion: Int)
        /// The store is at the target already: `report` is the (empty) plan; nothing was written
        /// apart from sweeping an interrupted run's temp files.
        case alreadyCurrent(MigrationReport, from: Int)
        /// The store was migrated from `from`; `backup` is the verified backup's folder, nil with
        /// `BackupPolicy.none`. The report keeps totals only (memory does not grow with the store).
        case upgraded(MigrationReport, from: Int, backup: String?)
        /// While this call waited for the lock, another process migrated the store: nothing was
        /// left to do, no backup was taken and no file was changed. `from` is the version this
        /// call found before it waited; `report` is the (empty) plan after.
        case doneByAnotherProcess(MigrationReport, from: Int)
    }

    /// Upgrades the store at `path` to `target` (today: 2, the only version this code writes).
    ///
    /// - Parameters:
    ///   - target: The schema version to reach. The default is `DocumentVersion.current`.
    ///   - backup: Where to back up before the first write. The default is `.defaultFolder`.
    ///   - tool, version: Recorded in the lock file, the backup and the migration record.
    ///   - progress: Called on the calling thread with each ``Event``.
    /// - Throws: `StoreError`: `.invalidArgument` for a `target` other than 2; unreadable documents (listed in `underlying`, nothing written), a
    ///   store another process holds (`.locked`), an existing backup folder, a failed write.
    public static func run(at path: String, to target: Int = DocumentVersion.current, backup: BackupPolicy = .defaultFolder,
                           tool: String, version: String, progress: (Event) -> Void = { _ in }) throws(StoreError) -> Outcome {
        guard target == DocumentVersion.current else {
            let fix = "Pass \(DocumentVersion.current) (the default), or use the version of the tool that writes schema version \(target)."
            throw StoreError(.invalidArgument, "Can't migrate '\(path)' to schema version \(target): this code migrates to schema "
                                + "version \(DocumentVersion.current) only. \(fix) Nothing was changed.", path: path, recovery: fix)
        }
        let readOnly = Store.Options(readOnly: true, tool: tool, version: version)
        let reader = try Store.open(at: path, options: readOnly)
        switch reader.compatibility {
        case .superseded(let newer, _):
            return .newerStore(schemaVersion: newer)
        case .refused:
            throw StoreError(.unsupportedVersion, "Can't migrate '\(path)': \(reader.compatibility.refusal ?? "this tool can't read it").",
                             path: joinPath(path, StoreLayout.manifest))
        case .current, .needsMigration:
            break
        }
        let migrator = StoreMigrator(store: reader)
        let from = try reader.manifest().schemaVersion
        if from >= 2, case let plan = try migrator.plan(toolVersion: version), plan.isNoop {
            if try migrator.hasLeftoverTemporaryFiles() {
                // An earlier run was interrupted after its last rename: opening for writing sweeps its temp files.
                _ = try Store.open(at: path, options: Store.Options(readOnly: false, tool: tool, version: version))
            }
            return .alreadyCurrent(plan, from: from)
        }
        if from < 2 { try migrator.validate { done, total in progress(.validating(done: done, total: total)) } }
        try announceWait(path, tool: tool, version: version, progress: progress)
        // A v1 store is opened for writing first: that finishes an interrupted restore and sweeps
        // temp files, and writes nothing else. A v2 store is not: its open for writing would run
        // the §7 reconcile, a write before the backup (and one the report would not count); the
        // migration below runs that reconcile itself, after the backup, and reports it.
        let store = try from < 2 ? Store.open(at: path, options: Store.Options(readOnly: false, tool: tool, version: version)) : reader
        let lock = try StoreLock(store: path, tool: tool, version: version)
        defer { lock.release() }
        for warning in from < 2 ? store.warnings : lock.fileSystemWarning.map({ [$0] }) ?? [] { progress(.warning(warning)) }
        // A v1 store that says v2 now was migrated by another process while this call waited for
        // the lock: plan again, under the lock, before any backup.
        if from < 2, case let now = try Store.open(at: path, options: readOnly), try now.manifest().schemaVersion >= 2,
           case let plan = try StoreMigrator(store: now).plan(toolVersion: version), plan.isNoop {
            return .doneByAnotherProcess(plan, from: from)
        }
        let destination = try takeBackup(backup, store: path, tool: tool, version: version, holding: lock, progress: progress)
        progress(.migrationStarted)
        // `migrate` takes an optional (so formally escaping) closure; it calls it only before it returns.
        var total = 0
        let report = try withoutActuallyEscaping(progress) { (progress) throws(StoreError) in
            try StoreMigrator(store: store).migrate(toolVersion: version, holding: lock, keepingDocuments: false) { done, count in
                total = count
                progress(.migrating(done: done, total: count))
            }
        }
        // The migrator reports before each work stream; say that the last one is done too.
        if total > 0 { progress(.migrating(done: total, total: total)) }
        progress(.migrationFinished)
        return .upgraded(report, from: from, backup: destination)
    }

    /// Says `.waitingForLock` when another process holds the lock now (a probe that does not wait).
    private static func announceWait(_ path: String, tool: String, version: String, progress: (Event) -> Void) throws(StoreError) {
        do {
            try StoreLock(store: path, tool: tool, version: version, timeout: .zero).release()
        } catch where error.code == .locked {
            // Only to describe the holder: a record that does not read leaves "another process".
            let holder = (try? StoreLock.currentHolder(store: path)) ?? nil
            progress(.waitingForLock(holder: holder?.summary))
        }
    }

    /// The backup of step 4, under `lock`; nil for `BackupPolicy.none`.
    private static func takeBackup(_ policy: BackupPolicy, store: String, tool: String, version: String, holding lock: StoreLock,
                                   progress: (Event) -> Void) throws(StoreError) -> String? {
        let destination: String
        switch policy {
        case .none:
            progress(.backupSkipped)
            return nil
        case .defaultFolder: destination = try Backup.defaultDestination(store: store)
        case .folder(let folder): destination = folder
        }
        progress(.backupStarted(destination: destination))
        let report = try Backup.create(store: store, destination: destination, tool: tool, version: version, holding: lock)
        progress(.backupFinished(report))
        return destination
    }
}
