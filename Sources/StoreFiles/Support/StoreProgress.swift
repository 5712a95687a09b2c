/// How far a long operation on a store has come, for a caller that shows progress: an upgrade's
/// validation, migration and removal of the old files, a backup, a backup's verification, an
/// export, an import, a restore, the validation of a store, the verification of a migrated store.
///
/// `Backup.create`, `BackupVerification.verify`, `StoreExport.write`, `StoreImport.read`,
/// `Restore.run` and `StoreValidator.init` take a `progress` closure and call it on the calling thread, in order;
/// `StoreUpgrade.run` passes the same values on as `StoreUpgrade.Event.progress`. The closure only
/// watches: the operation writes and returns exactly the same with or without it.
///
/// ```swift
/// let report = try Backup.create(store: "/data/store", destination: "/data/store.backup-1",
///                                tool: "MyApp", version: "3.1") { progress in
///     if case .phase(let phase, let done, let total?) = progress { print(phase, done, total) }
/// }
/// ```
public enum StoreProgress: Sendable, Equatable {
    /// What is being done, and what is counted. Within one operation the phases come in the
    /// order listed (an upgrade through the breaking step has a part before it and one for it).
    public enum Phase: String, Sendable, Equatable {
        /// `StoreUpgrade.run` reads and validates every work stream before its first write;
        /// `StoreValidator` reads and checks every work stream (counts work streams).
        case validating
        /// `Backup.create` puts the store's files into the backup, under the store's lock (counts files).
        case backingUp
        /// `Backup.create` reads every file of the new backup back, hashes and decodes it;
        /// `BackupVerification.verify` (also the first step of `Restore.run`) checks each file of
        /// a backup against `backup.json` (counts files).
        case verifyingBackup
        /// `StoreUpgrade.run` migrates every work stream (counts work streams).
        case migrating
        /// `StoreUpgrade.run`, once the migration is committed, removes the old folders its
        /// folder exchanges replaced (counts files).
        case removingOldFiles
        /// `StoreExport.write` writes the store's files (counts files).
        case exporting
        /// `StoreImport.read` reads, checks and stages the export's files; `CoreDataImport.run`
        /// and `firstLaunch` stage the documents they make of the app's Core Data store and
        /// preferences (counts files).
        case importing
        /// `Restore.run` copies the verified backup's files next to the target (counts files).
        case restoring
        /// `Restore.run` and `StoreImport.read` read every staged file back before it is put in
        /// place (counts files).
        case verifyingCopy
        /// `migrate-store verify` checks every work stream of a migrated store (counts work streams).
        case verifyingStore
    }

    /// Another process holds a lock the operation needs (the store's `.lock`, or the lock that
    /// serialises restores into one folder): it waits, up to the lock's timeout, 10 s by default.
    /// `store` is the store or target folder; `holder` describes the process when it left a record
    /// (`"process 4242 (MyApp 3.1) since …"`). Said once per lock, as soon as the lock is found held.
    case waitingForLock(store: String, holder: String?)
    /// `done` of `total` items of `phase` (files or work streams, see ``Phase``) are done: first
    /// with `done` 0, last with `done == total`. `total` is nil only when it is not known in
    /// advance: the import of an export written before its header recorded the file count (the
    /// count is then only at the export's end).
    case phase(Phase, done: Int, total: Int?)
}

/// The internal side of a `progress` closure: counts the items of one phase.
package struct PhaseCounter {
    let phase: StoreProgress.Phase
    let total: Int?
    let report: (StoreProgress) -> Void
    package private(set) var done = 0

    /// Says `0 of total` at once.
    package init(_ phase: StoreProgress.Phase, total: Int?, report: @escaping (StoreProgress) -> Void) {
        self.phase = phase
        self.total = total
        self.report = report
        report(.phase(phase, done: 0, total: total))
    }

    /// `count` more items are done (one by default). The count never passes a known total: a
    /// folder whose files were counted before they were removed may hold more by then.
    package mutating func step(_ count: Int = 1) {
        done = min(done + count, total ?? .max)
        report(.phase(phase, done: done, total: total))
    }
}
