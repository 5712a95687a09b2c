import Foundation

/// What `Restore.run` did, or with `dryRun`, would do.
public struct RestoreReport: Sendable {
    /// The backup folder and the target folder, as given.
    public var backup: String
    public var target: String
    /// True when nothing was written.
    public var dryRun: Bool
    /// An interrupted earlier restore that was finished first (never in a dry run).
    public var recovered: RestoreRecovery?
    /// True in a dry run when an interrupted restore is waiting to be finished by the real run.
    public var recoveryPending: Bool
    /// The verified backup's `backup.json`.
    public var manifest: BackupManifest
    /// What stood at the target before.
    public var targetBefore: TargetState
    /// Where the old target was moved (in a dry run: would be moved), if it was not absent or empty.
    public var aside: String?
    /// The migration of the restored store, when `migrate` was asked and the backup is older.
    public var migration: MigrationReport?
    /// Dry run only: the error the real run would stop with (a non-empty target without `force`,
    /// or a backup of another store without `otherStore`).
    public var refusal: StoreError?
    /// Whether the backup was shown to be of the store it replaces (see `RestoreIdentityCheck`).
    public var identity: RestoreIdentityCheck
}

/// Restoring a store from a backup made by `Backup.create`.
public enum Restore {
    /// How to restore. Every option defaults to `false`.
    public struct Options: Sendable {
        /// Replace a target that holds files. The old target is kept next to it as
        /// `<name>.replaced-<yyyyMMdd'T'HHmmss'Z'>`, never deleted. The default is `false`.
        public var force: Bool
        /// Migrate the restored store to the newest schema when the backup is older. The default is `false`.
        public var migrate: Bool
        /// Verify and report, writing nothing. The default is `false`.
        public var dryRun: Bool
        /// Replace a store with the backup of another one. Without it, a restore over a store
        /// whose `store.json` (`created_at`, `format`) differs from the identity recorded in
        /// `backup.json` is refused before anything is written. The default is `false`.
        public var otherStore: Bool

        public init(force: Bool = false, migrate: Bool = false, dryRun: Bool = false, otherStore: Bool = false) {
            self.force = force
            self.migrate = migrate
            self.dryRun = dryRun
            self.otherStore = otherStore
        }
    }

    /// Restores the backup at `backup` into the folder `target`.
    ///
    /// The steps: finish an interrupted earlier restore into `target` (`recoverInterrupted`);
    /// verify the backup completely (`BackupVerification`), refusing a corrupt or incompatible one
    /// before writing anything; refuse a non-empty target without `force`; refuse a target store
    /// that is not the one the backup was taken from, without `otherStore` (`checkIdentity`; a
    /// backup that predates the recorded identity is restored unchecked); copy every file into a
    /// staging folder next to the target, checking each against `backup.json` again; migrate
    /// there if asked; fsync and verify the staging folder; then swap it into place with
    /// `StoreSwap`, which is crash-safe (see its table).
    ///
    /// ```swift
    /// let report = try Restore.run(backup: "/backups/store-1", target: "/data/store",
    ///                              tool: "migrate-store", version: "0.1.0", options: .init(force: true))
    /// print(report.aside ?? "nothing replaced")
    /// ```
    ///
    /// - Throws: `StoreError`: with an `ArchiveRejection` as `underlying` when the backup is corrupt
    ///   (`.corruptDocument`) or incompatible (`.unsupportedVersion`); `.alreadyExists` for a
    ///   non-empty target without `force`; `.conflict` for a backup of another store without
    ///   `otherStore`; `.locked`; `.conflict` from recovery; or the code of a
    ///   failed call. After an error the target is the old store, unless the message says the
    ///   restore completed or must be finished by running it again.
    /// - Parameters:
    ///   - backup: The backup folder.
    ///   - target: The folder to restore into: new or empty, unless `options.force`.
    ///   - tool: Recorded in the locks the restore takes.
    ///   - version: Recorded in the locks the restore takes, and in the migration record of
    ///     `options.migrate`.
    ///   - options: Force, migrate, dry run, another store's backup. The default is `Options()`.
    ///   - progress: Called on the calling thread: `.phase(.verifyingBackup, …)` as the
    ///     backup is verified, then (not in a dry run) `.phase(.restoring, …)` as its files are
    ///     copied and `.phase(.verifyingCopy, …)` as the copies are read back, each counting to the
    ///     number of files; `.waitingForLock` when another restore into the target or a writer of
    ///     the store it replaces holds a lock. The default does nothing.
    /// - Warning: With `force`, the target is replaced. Its content is kept in the aside folder.
    public static func run(
        backup: String, target: String, tool: String, version: String,
        options: Options = Options(), progress: (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> RestoreReport {
        try withoutActuallyEscaping(progress) { (progress) throws(StoreError) in
            try run(backup: backup, target: target, tool: tool, version: version, options: options, system: .real, progress: progress)
        }
    }

    /// Finishes or rolls back a restore or import into `target` that was killed between its
    /// renames; does nothing (and writes nothing) when there is no journal. A store's open path
    /// should call this before it looks at the store: after such a crash the folder may be missing.
    ///
    /// - Returns: What was done, or nil when there was nothing to do.
    /// - Warning: Renames folders next to `target` as the restore journal says; never deletes one.
    public static func recoverInterrupted(target: String, tool: String, version: String) throws(StoreError) -> RestoreRecovery? {
        try StoreSwap.recover(try SiblingPath(target), tool: tool, version: version, system: .real)
    }

    static func run(
        backup: String, target path: String, tool: String, version: String, options: Options,
        system: SystemCalls, progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> RestoreReport {
        let target = try SiblingPath(path)
        try requireParent(target, system: system)
        guard !target.isInside(backup) else {
            throw StoreError(
                .invalidFileName,
                "Can't restore into '\(path)': it is inside the backup '\(backup)', which holds only "
                    + "the backed-up files. Choose a folder outside the backup.", path: path)
        }
        let journal = target.sibling(RestoreJournal.fileName(for: target))
        let journalExists = try system.linkStatus(journal, context: ErrorContext("check", journal)) != nil
        let pending = options.dryRun && journalExists
        let recovered =
            options.dryRun
            ? nil
            : try StoreSwap.recover(
                target, tool: tool, version: version, system: system,
                progress: progress)
        let (verification, _) = try BackupVerification.verify(backup: backup, system: system, progress: progress)
        guard verification.status == .ok, let manifest = verification.manifest else {
            throw ArchiveRejection(status: verification.status, problems: verification.problems)
                .storeError("restore from", archive: backup, what: "the backup")
        }
        let state = try TargetState.inspect(target, system: system)
        var refusal = options.force ? nil : state.refusal(target, verb: "restore", forceHint: forceHint(target))
        let (identity, mismatch) = try checkIdentity(
            manifest, backup: backup, target: target, state: state,
            allowOther: options.otherStore, system: system)
        refusal = refusal ?? mismatch
        var report = RestoreReport(
            backup: backup, target: target.path, dryRun: options.dryRun, recovered: recovered,
            recoveryPending: pending, manifest: manifest, targetBefore: state, aside: nil,
            migration: nil, refusal: refusal, identity: identity)
        if options.dryRun {
            report.aside = state.needsAside ? target.sibling(try AsideName.make(for: target, at: Date(), system: system)) : nil
            if options.migrate { report.migration = try plannedMigration(backup, manifest, toolVersion: version, system: system) }
            return report
        }
        if let refusal {
            // The interrupted restore was finished all the same: say so, or the refusal hides it.
            throw recovered.map { refusal.prefixed($0.summary) } ?? refusal
        }
        let staged = try StagedStore(besides: target, schemaVersion: manifest.storeSchemaVersion, system: system)
        do {
            try copy(manifest, from: backup, into: staged, system: system, progress: progress)
            if options.migrate { report.migration = try staged.migrate(toolVersion: version, progress: progress) }
            try staged.seal(progress: progress)
        } catch {
            staged.directory.discard()
            throw error
        }
        report.aside = try StagedSwap.commit(
            staged, force: options.force, tool: tool, version: version,
            forceHint: forceHint(target), system: system, progress: progress)
        return report
    }

    static func forceHint(_ target: SiblingPath) -> String {
        "Use --force to replace it; the current content is then kept next to it as '\(target.name).replaced-<time>'."
    }

    static func requireParent(_ target: SiblingPath, verb: String = "restore", system: SystemCalls) throws(StoreError) {
        let status = try system.linkStatus(target.parent, context: ErrorContext("\(verb) into", target.path))
        guard status?.type == .directory || status?.type == .symbolicLink else {
            throw StoreError(
                .notFound,
                "Can't \(verb) into '\(target.path)': the folder '\(target.parent)' does not exist. "
                    + "Create it first.", path: target.parent)
        }
    }

    /// Copies every file of a verified backup into `staged`, checking each again against
    /// `backup.json` (the backup could change between the verification and the copy).
    private static func copy(
        _ manifest: BackupManifest, from backup: String, into staged: StagedStore,
        system: SystemCalls, progress: @escaping (StoreProgress) -> Void
    ) throws(StoreError) {
        var counter = PhaseCounter(.restoring, total: manifest.files.count, report: progress)
        for entry in manifest.files {
            guard let path = StoreFilePath(entry.path) else { preconditionFailure("Restore: a verified backup lists '\(entry.path)'") }
            let bytes = try FileReader.read(path.absolute(in: backup), system: system)
            if let problem = ArchiveContents.integrityProblem(
                entry.path, bytes, size: entry.size, sha256: entry.sha256,
                recordedIn: BackupManifest.fileName)
            {
                throw ArchiveRejection(status: .corrupt, problems: [problem])
                    .storeError("restore from", archive: backup, what: "the backup (changed while it was being restored)")
            }
            try staged.add(path, bytes, mode: entry.mode.map { mode_t($0) })
            counter.step()
        }
        try staged.setFolderModes(manifest.folderModes.mapValues { mode_t($0) })
    }

    /// What `--migrate` would change, for a dry run: the store engine's plan (`StoreMigrator.plan`,
    /// which writes nothing and reads one document at a time) over the backup folder, which holds
    /// the store's files at their paths in the store, besides its own `backup.json` and
    /// `SHA256SUMS` (opened read-only, as `verify --against` opens a backup).
    private static func plannedMigration(
        _ backup: String, _ manifest: BackupManifest, toolVersion: String,
        system: SystemCalls
    ) throws(StoreError) -> MigrationReport? {
        guard manifest.storeSchemaVersion < MigrationChain.defaultTarget(from: manifest.storeSchemaVersion) else { return nil }
        let store = try Store.open(at: backup, options: .readOnly, system: system)
        do {
            return try StoreMigrator(store: store).plan(toolVersion: toolVersion)
        } catch {
            guard let problem = error.documentProblem(in: backup) else { throw error }
            throw StoreError(.invalidDocument, "Can't plan the migration of the restored store: \(problem)", path: backup, underlying: problem)
        }
    }
}
