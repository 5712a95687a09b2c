import Foundation

/// The whole upgrade procedure of a store, as one call: what `migrate-store migrate` runs, and
/// what an app runs to get the same safety.
///
/// The steps, in order (spec §6–§10):
/// 1. Open read-only and classify the store: newer than this code → nothing to do; refused by the
///    reader rule → an error. Pick the target: the one asked for, or the newest version every
///    reader the store admits can still read (§9).
/// 2. A store at the target changes only after an older writer touched it (§7): plan read-only
///    first, so that an up-to-date store gets no backup and no write at all (leftover temp files
///    of an interrupted run are swept by an open for writing).
/// 3. Validate every document of a store below the target before the first write: bad input
///    changes nothing, not even the lock file. With a backup, in a read-only pass before the lock
///    (no backup is taken of bad input); without one, while migrating (one parse per document):
///    staging writes only temp files, and on bad input they and the lock file, when this call
///    created it, are removed (`migrateValidating`).
/// 4. Take the store's lock and hold it for the rest: the backup, verified, and the migration
///    (which writes `store.json`, with its migration record, last) see the same store, with no
///    writer in between.
///
/// ```swift
/// let outcome = try StoreUpgrade.run(at: "/data/store", backup: .defaultFolder,
///                                    tool: "MyApp", version: "3.1") { event in print(event) }
/// if case .upgraded(let report, let from, let to, let backup) = outcome { ... }
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
        /// The backup into this folder starts.
        case backupStarted(destination: String)
        /// The backup is complete and verified.
        case backupFinished(BackupReport)
        /// The migration starts.
        case migrationStarted
        /// The migration is committed (`store.json` written).
        case migrationFinished
        /// How far a phase of the upgrade is, each counted from 0 to its total:
        /// `.validating` (work streams read and validated before any write, when a backup is
        /// taken; without one they are validated while migrating); `.backingUp` then
        /// `.verifyingBackup` (files, between `backupStarted` and `backupFinished`); `.migrating`
        /// (work streams, between `migrationStarted` and `migrationFinished`); `.removingOldFiles`
        /// (files of the old folders that the migration's folder exchanges replaced, after
        /// `migrationFinished`, before `run` returns).
        case progress(StoreProgress)
    }

    /// How the call ended.
    public enum Outcome: Sendable {
        /// The store is newer than this code (`schemaVersion`): nothing to migrate, nothing written.
        case newerStore(schemaVersion: Int)
        /// The store is at the target already: `report` is the (empty) plan; nothing was written
        /// apart from sweeping an interrupted run's temp files.
        case alreadyCurrent(MigrationReport, from: Int)
        /// The store was migrated from `from` to `to` (one step or several, spec §9), or, at the
        /// same version, reconciled after an older writer (§7); `backup` is the verified backup's
        /// folder, nil with `BackupPolicy.none`. The report keeps totals only (memory does not
        /// grow with the store).
        case upgraded(MigrationReport, from: Int, to: Int, backup: String?)
        /// While this call waited for the lock, another process migrated the store: nothing was
        /// left to do, no backup was taken and no file was changed. `from` is the version this
        /// call found before it waited, `to` the version the store is at now; `report` is the
        /// (empty) plan after.
        case doneByAnotherProcess(MigrationReport, from: Int, to: Int)
    }

    /// Upgrades the store at `path` to `target`, through every step of the chain in one run (spec §9).
    ///
    /// - Parameters:
    ///   - path: The store folder.
    ///   - requested: The schema version to reach (`to:`), from the store's own version up to
    ///     `MigrationChain.newest`. The default (nil) is the newest version every reader the
    ///     store admits can still read (`MigrationChain.defaultTarget`).
    ///   - backup: Where to back up before the first write. The default is `.defaultFolder`.
    ///   - allowBreaking: Take a breaking step (or its inverse) on the way to the target. The
    ///     default is `false`: such a target is refused with `.invalidArgument`, nothing changed.
    ///   - tool: Recorded in the lock file, the backup and the migration record.
    ///   - version: Recorded in the lock file, the backup and the migration record.
    ///   - progress: Called on the calling thread with each ``Event``.
    ///   - shouldContinue: Asked at the safe points between phases (see ``Checkpoint``); returning
    ///     false stops the upgrade there with `.cancelled`. Never asked once the migration has
    ///     started: it runs to its commit. The default always continues.
    /// - Throws: `StoreError`: `.invalidArgument` for a `target` below the store's version or above
    ///   the newest this code knows; unreadable documents (listed in `underlying`, nothing written), a
    ///   store another process holds (`.locked`), an existing backup folder, a failed write;
    ///   `.cancelled` when `shouldContinue` said no (the message says what was done: nothing, or a
    ///   verified backup and no change to the store).
    public static func run(
        at path: String, to requested: Int? = nil, backup: BackupPolicy = .defaultFolder, allowBreaking: Bool = false,
        tool: String, version: String, progress: (Event) -> Void = { _ in },
        shouldContinue: () -> Bool = { true }
    ) throws(StoreError) -> Outcome {
        if let requested, requested > MigrationChain.newest || requested < MigrationChain.oldest {
            let fix =
                "Pass a version from \(MigrationChain.oldest) to \(MigrationChain.newest), or leave the target out, or use the version of the tool that writes schema version \(requested)."
            throw StoreError(
                .invalidArgument,
                "Can't migrate '\(path)' to schema version \(requested): this code knows schema "
                    + "versions \(MigrationChain.oldest) to \(MigrationChain.newest). \(fix) Nothing was changed.", path: path, recovery: .advice(fix))
        }
        // A store the reader rule refuses (newer, or a pair this chain never writes, such as the
        // pre-release v4 layout) is refused before anything looks at its folders.
        if let refusal = try Store.classify(path).refusal {
            throw StoreError(.unsupportedVersion, "Can't migrate '\(path)': \(refusal).", path: joinPath(path, StoreLayout.manifest))
        }
        // The breaking step and its inverse (spec §9, §12): refused unless asked for by name and
        // backed up (`StoreUpgrade+Breaking.swift`).
        let from = try rawSchemaVersion(path)
        let target = requested ?? max(from, MigrationChain.defaultTarget(from: from))
        if takesBreakingStep(from: from, to: target),
            let refusal = breakingRefusal(path, from: from, to: target, allowBreaking: allowBreaking, backup: backup)
        {
            throw refusal
        }
        if target < from, StoreMigrator.FolderRename.between(from, target) == nil { throw goingBack(path, from: from, to: target) }
        // Check: what an interrupted folder rename left (`removeLeftovers`).
        var report = try removeRenameLeftovers(path, at: from, tool: tool, version: version, progress: progress)
        let readOnly = Store.Options(readOnly: true, tool: tool, version: version)
        let reader = try Store.open(at: path, options: readOnly)
        switch reader.compatibility {
        case .superseded(let newer, _):
            return .newerStore(schemaVersion: newer)
        case .refused:
            throw StoreError(
                .unsupportedVersion, "Can't migrate '\(path)': \(reader.compatibility.refusal ?? "this tool can't read it").",
                path: joinPath(path, StoreLayout.manifest))
        case .current, .needsMigration, .breakingCurrent:
            break
        }
        let migrator = StoreMigrator(store: reader)
        // A change of version (as opposed to a reconcile at the same version after an older
        // writer, §7, or the finish of an interrupted folder rename).
        let changesVersion = from != target
        if !changesVersion, case let plan = try migrator.plan(to: target, toolVersion: version), plan.isNoop {
            if try migrator.hasLeftoverTemporaryFiles() {
                // An earlier run was interrupted after its last rename: its temp files and old
                // folders are swept under the lock, and the caller is told what went.
                let lock = try StoreLock(store: path, tool: tool, version: version) { progress(.waitingForLock(holder: $0)) }
                defer { lock.release() }
                let removed = try TempSweep.sweep(store: path, holding: lock)
                if !removed.isEmpty {
                    progress(
                        .warning(
                            "Removed \(removed.count) file(s) and folder(s) that an interrupted run left in '\(path)' "
                                + "(temp files and old folders, dot-named: no reader opens them)."))
                }
            }
            if !report.isNoop { return .upgraded(report, from: from, to: target, backup: nil) }
            return .alreadyCurrent(plan, from: from)
        }
        // A store past the rename at its version whose last rename was interrupted after its
        // store.json: only `schema_version` of small documents is left to set, nothing to undo.
        let backup = !changesVersion && reader.hasRenamedLayout ? .none : backup
        try checkpoint(.beforeValidation, path, shouldContinue)
        // Without a backup, the migration's staging validates every document (one parse each).
        // Across the folder rename, the read-only pass also takes each work stream through the step.
        let validatesWhileMigrating = changesVersion && backup == .none
        if changesVersion && !validatesWhileMigrating {
            try reporting(progress) { (progress) throws(StoreError) in
                if StoreMigrator.FolderRename.between(from, target) != nil {
                    _ = try migrator.plan(to: target, toolVersion: version, progress: progress)
                } else {
                    try migrator.validate(progress: progress)
                }
            }
        }
        try checkpoint(.beforeLock, path, shouldContinue)
        let lockFileExisted = validatesWhileMigrating ? try lockFileExists(path) : true
        var announced = try announceWait(path, tool: tool, version: version, progress: progress)
        // A store older than this code is opened for writing first: that finishes an interrupted
        // restore and sweeps temp files, and writes nothing else (this code does not write an
        // older store). A store at this code's version is not: its open for writing would run the
        // §7 reconcile, a write before the backup (and one the report would not count); the
        // migration below runs that reconcile itself, after the backup, and reports it.
        let opensForWriting = reader.compatibility.needsMigration
        let store = try opensForWriting ? Store.open(at: path, options: Store.Options(readOnly: false, tool: tool, version: version)) : reader
        // A writer that took the lock after the probe above is announced here, as `backup` announces it.
        let lock = try StoreLock(store: path, tool: tool, version: version) { holder in
            if !announced { progress(.waitingForLock(holder: holder)) }
            announced = true
        }
        defer { lock.release() }
        for warning in opensForWriting ? store.warnings : lock.fileSystemWarning.map({ [$0] }) ?? [] { progress(.warning(warning)) }
        // A store that is at the target now was migrated by another process while this call
        // waited for the lock: plan again, under the lock, before any backup.
        if changesVersion, case let now = try Store.open(at: path, options: readOnly), case let reached = try now.manifest().schemaVersion,
            from < target ? reached >= target : reached == target,
            case let plan = try StoreMigrator(store: now).plan(to: reached, toolVersion: version), plan.isNoop
        {
            return .doneByAnotherProcess(plan, from: from, to: reached)
        }
        try checkpoint(.beforeBackup, path, shouldContinue)
        let destination = try takeBackup(backup, store: path, tool: tool, version: version, holding: lock, progress: progress)
        try checkpoint(.beforeMigration(backup: destination), path, shouldContinue)
        progress(.migrationStarted)
        report.merge(
            try reporting(progress) { (progress) throws(StoreError) in
                try migrateValidating(
                    StoreMigrator(store: store), to: target, version: version, holding: lock, removingLockFile: !lockFileExisted,
                    leavingOldFolders: true, progress: progress)
            })
        progress(.migrationFinished)
        removeOldFolders(StoreMigrator(store: store), path, progress: progress)
        return .upgraded(report, from: from, to: target, backup: destination)
    }

    /// The refusal of a target below the store's version that no inverse reaches.
    private static func goingBack(_ path: String, from: Int, to target: Int) -> StoreError {
        let rename = StoreMigrator.FolderRename.forward
        if from >= rename.to {
            let inverse = "Migrate to version \(rename.from) (the exact inverse of the breaking step), "
            let fix = StoreError.Recovery.runCommand(
                .rollback(store: path, backup: nil), advice: inverse + "or roll the store back to the backup taken before the upgrade.",
                before: inverse + "or restore the backup taken before the upgrade: ", after: ".")
            let problem =
                "Can't migrate '\(path)' from schema version \(from) to \(target): only the breaking step "
                + "has an inverse, and it goes to version \(rename.from)."
            return StoreError(.invalidArgument, text: .init(problem + " ", fix, " Nothing was changed."), path: path, recovery: fix)
        }
        let fix = StoreError.Recovery.runCommand(
            .rollback(store: path, backup: nil), advice: "To go back to an older version, roll the store back to the backup taken before the upgrade.",
            before: "To go back to an older version, restore the backup taken before the upgrade: ", after: ".")
        let problem =
            "Can't migrate '\(path)' to schema version \(target): the store is at version \(from) "
            + "already, and a migration never goes back."
        return StoreError(.invalidArgument, text: .init(problem + " ", fix, " Nothing was changed."), path: path, recovery: fix)
    }

    /// Removes the old folders the committed migration's exchanges replaced, still under its
    /// lock, so that nothing of the upgrade runs after `run` returns. The migration is committed
    /// by then: a failure is reported as a warning that says what is left, not thrown.
    static func removeOldFolders(_ migrator: StoreMigrator, _ path: String, progress: (Event) -> Void) {
        do throws(StoreError) {
            try reporting(progress) { (progress) throws(StoreError) in try migrator.removeOldFolders(progress: progress) }
        } catch {
            progress(
                .warning(
                    "The migration is complete, but the old files it replaced could not all be removed: \(error.message) "
                        + "They are in dot-named folders of '\(path)' that no reader opens; the next command that writes to the store removes them."))
        }
    }

    /// The safe points at which `run` asks `shouldContinue`, in order. Before each, the store is
    /// unchanged (apart from the temp files an open for writing sweeps and the lock file's holder
    /// record); before the migration, a verified backup exists (unless the policy is `.none`).
    public enum Checkpoint: Sendable, Equatable {
        /// After the read-only classification and plan, before validating every document.
        case beforeValidation
        /// After validation (with a backup; without one, validation is part of the migration),
        /// before the lock is taken (and before an older store is opened for writing).
        case beforeLock
        /// Under the lock, before the backup.
        case beforeBackup
        /// Under the lock, after the verified backup into `backup` (nil: `BackupPolicy.none`), before
        /// the migration's first write. Past this point the upgrade runs to its commit.
        case beforeMigration(backup: String?)
    }

    /// Throws `.cancelled` at `point` when `shouldContinue` says no, saying what was done.
    static func checkpoint(_ point: Checkpoint, _ path: String, _ shouldContinue: () -> Bool) throws(StoreError) {
        guard !shouldContinue() else { return }
        let done: String
        switch point {
        case .beforeValidation, .beforeLock, .beforeBackup:
            done = "Nothing was changed: no backup was taken and the store is as it was."
        case .beforeMigration(nil):
            done = "No backup was asked for, and the store was not changed."
        case .beforeMigration(let backup?):
            done =
                "The backup in '\(backup)' is complete and verified, and is kept; the store was not changed. "
                + "Run the upgrade again to migrate (it takes a new backup), or remove that folder."
        }
        throw StoreError(.cancelled, "The upgrade of '\(path)' was cancelled before it changed the store. \(done)", path: path)
    }

    /// Says `.waitingForLock` when another process holds the lock now (a probe that does not
    /// wait; the wait itself is in the open for writing or the lock after it). StoreLock's
    /// `onWait` reads the holder's record, as for every other command that waits for the lock.
    ///
    /// - Returns: True when the wait was announced.
    private static func announceWait(_ path: String, tool: String, version: String, progress: (Event) -> Void) throws(StoreError) -> Bool {
        var announced = false
        do {
            try StoreLock(store: path, tool: tool, version: version, timeout: .zero) { holder in
                progress(.waitingForLock(holder: holder))
                announced = true
            }.release()
        } catch  where error.code == .locked {
            // Announced by `onWait`, which a zero timeout calls before it gives up.
        }
        return announced
    }

    /// Runs `body` with a `StoreProgress` closure that passes each value on to `progress` as
    /// `.progress`. The engines keep their closure for the duration of the call only.
    static func reporting<R>(
        _ progress: (Event) -> Void,
        _ body: (@escaping (StoreProgress) -> Void) throws(StoreError) -> R
    ) throws(StoreError) -> R {
        try withoutActuallyEscaping(progress) { (progress) throws(StoreError) in
            try body { progress(.progress($0)) }
        }
    }

    /// The backup of step 4, under `lock`; nil for `BackupPolicy.none`.
    static func takeBackup(
        _ policy: BackupPolicy, store: String, tool: String, version: String, holding lock: StoreLock,
        progress: (Event) -> Void
    ) throws(StoreError) -> String? {
        let destination: String
        switch policy {
        case .none:
            progress(.backupSkipped)
            return nil
        case .defaultFolder: destination = try Backup.defaultDestination(store: store)
        case .folder(let folder): destination = folder
        }
        progress(.backupStarted(destination: destination))
        let report = try Backup.create(store: store, destination: destination, tool: tool, version: version, holding: lock) {
            progress(.progress($0))
        }
        progress(.backupFinished(report))
        return destination
    }
}
