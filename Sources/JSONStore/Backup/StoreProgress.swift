/// How far a long operation on a store has come, for a caller that shows progress: a backup, a
/// backup's verification, an export, an import, a restore.
///
/// `Backup.create`, `BackupVerification.verify`, `StoreExport.write`, `StoreImport.read` and
/// `Restore.run` take a `progress` closure and call it on the calling thread, in order. The
/// closure only watches: the operation writes and returns exactly the same with or without it.
///
/// ```swift
/// let report = try Backup.create(store: "/data/store", destination: "/data/store.backup-1",
///                                tool: "MyApp", version: "3.1") { progress in
///     if case .files(let phase, let done, let total?) = progress { print(phase, done, total) }
/// }
/// ```
public enum StoreProgress: Sendable, Equatable {
    /// What is being done. An operation's phases come in the order listed.
    public enum Phase: String, Sendable, Equatable {
        /// `Backup.create` puts the store's files into the backup, under the store's lock.
        case backingUp
        /// `Backup.create` reads every file of the new backup back, hashes and decodes it;
        /// `BackupVerification.verify` (also the first step of `Restore.run`) checks each file of
        /// a backup against `backup.json`.
        case verifyingBackup
        /// `StoreExport.write` writes the store's files.
        case exporting
        /// `StoreImport.read` reads, checks and stages the export's files.
        case importing
        /// `Restore.run` copies the verified backup's files next to the target.
        case restoring
        /// `Restore.run` and `StoreImport.read` read every staged file back before it is put in place.
        case verifyingCopy
    }

    /// Another process holds a lock the operation needs (the store's `.lock`, or the lock that
    /// serialises restores into one folder): it waits, up to the lock's timeout, 10 s by default.
    /// `store` is the store or target folder; `holder` describes the process when it left a record
    /// (`"process 4242 (MyApp 3.1) since …"`). Said once per lock, as soon as the lock is found held.
    case waitingForLock(store: String, holder: String?)
    /// `done` of `total` files of `phase` are done: first with `done` 0, last with `done ==
    /// total`. `total` is nil when it is not known in advance (an import reads a stream whose
    /// file count comes at its end).
    case files(Phase, done: Int, total: Int?)
}

/// The internal side of a `progress` closure: counts the files of one phase.
struct PhaseCounter {
    let phase: StoreProgress.Phase
    let total: Int?
    let report: (StoreProgress) -> Void
    private(set) var done = 0

    /// Says `0 of total` at once.
    init(_ phase: StoreProgress.Phase, total: Int?, report: @escaping (StoreProgress) -> Void) {
        self.phase = phase
        self.total = total
        self.report = report
        report(.files(phase, done: 0, total: total))
    }

    /// One more file is done.
    mutating func step() {
        done += 1
        report(.files(phase, done: done, total: total))
    }
}
