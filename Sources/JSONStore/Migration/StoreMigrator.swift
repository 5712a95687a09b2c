import Foundation

/// The one upgrade engine: runs the version chain (spec §9), every step and both directions of the
/// breaking one, and the §7 reconcile, on a store on disk, streaming: memory holds one document at
/// a time plus a small summary per work stream. `migrate`, `plan`, the reconcile on open and
/// `restore --migrate` all run it (`run`, in `StoreMigrator+Run.swift`).
///
/// One pass decodes, validates and migrates every work stream into a staged file; nothing becomes
/// visible unless every document of the store reads (bad input changes nothing). The queue is
/// resolved from the work streams' keys (§6 rules 5–6, §7), which also fixes the write order (see
/// `StoreMigrator+Staging.swift`). The dry run (`plan`) reads twice instead and writes nothing.
///
/// Write order of the rollback-safe steps, so that a crash at any instant leaves a store an older
/// reader reads correctly and the next run finishes byte-identically: `queue.json`; the work
/// streams, all at once by exchanging folders (`StoreMigrator+Exchange.swift`) or renamed in
/// `QueueBuilder.writeOrder` (a v1 reader derives the same queue after every prefix);
/// customisations; settings; `store.json` last, in its own durable write, so the store says the
/// new version only once everything is at it; then the old folders are removed. Across the
/// chain's folder rename the work streams are committed by stage-rename-retire instead
/// (`StoreMigrator+FolderRename.swift`, with its own order).
public struct StoreMigrator: Sendable {
    public let store: Store
    /// From how many changed customisations on they are committed by a folder exchange
    /// (`StoreMigrator+Customisations.swift`). The default is `customisationsExchangeMinimum`
    /// (32); tests lower it to exercise the exchange on small stores.
    var customisationsExchangeThreshold = Self.customisationsExchangeMinimum
    /// Set for the run that takes the store across the chain's folder rename
    /// (`StoreMigrator+FolderRename.swift`): staging then writes into that step's staging folder.
    var renaming: FolderRename?

    public init(store: Store) { self.store = store }

    /// The version `migrate` goes to without a target (spec §9): along the rollback-safe steps
    /// from the store's version; a store already there (or newer) stays at its version.
    public var defaultTarget: Int {
        let version = store.compatibility.storeSchemaVersion
        return max(version, MigrationChain.defaultTarget(from: version))
    }

    /// What a migration to `target` (by default ``defaultTarget``) would do, per document, in
    /// write order. Writes nothing at all.
    /// - Parameters:
    ///   - target: The version to plan for; nil plans for ``defaultTarget``.
    ///   - now: The time the plan's migration records would carry.
    ///   - toolVersion: The version the plan's migration records would name.
    ///   - progress: Told `.phase(.validating, …)` once the work streams are listed and after
    ///     each, as the first pass reads them.
    /// - Throws: an error listing every unreadable document (`underlying` is `StoreProblems`).
    public func plan(
        to target: Int? = nil, now: Date = Date(), toolVersion: String = Store.libraryVersion,
        progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> MigrationReport {
        try run(
            write: false,
            context: StoreMigration.Context(startedAt: now, finishedAt: now, toolVersion: toolVersion, target: target ?? defaultTarget),
            progress: progress)
    }

    /// Decodes and validates every document of the store, writing nothing (not even a lock file).
    /// `StoreUpgrade.run` runs it before it takes the lock, so bad input changes nothing at all.
    /// - Parameter progress: Told `.phase(.validating, …)` once the work streams are listed and after each.
    /// - Throws: an error listing every unreadable document (`underlying` is `StoreProblems`).
    func validate(progress: @escaping (StoreProgress) -> Void = { _ in }) throws(StoreError) {
        _ = try survey(progress: progress)
    }

    /// True when a crash left temp files, or a migration's exchange folder, in the store (removed
    /// by the next open for writing).
    package func hasLeftoverTemporaryFiles() throws(StoreError) -> Bool {
        for name in [Self.exchangeFolderName, Self.customisationsExchangeFolderName] {
            if try store.system.linkStatus(joinPath(store.path, name), context: ErrorContext("list", store.path)) != nil { return true }
        }
        for directory in [store.path, store.workStreamsDirectory, store.customisationsDirectory] {
            let entries: [DirectoryEntry]
            do {
                entries = try store.system.listDirectory(directory, context: ErrorContext("list", directory))
            } catch  where error.errno == ENOENT && directory != store.path {
                continue  // an absent document folder holds no temp files
            }
            if entries.contains(where: { TempSweep.isTemporaryName($0.name) }) { return true }
        }
        return false
    }

    /// Migrates under the store's lock. A v2 store that needs nothing comes back with an empty
    /// report and no byte changed. Apps call `StoreUpgrade.run`, which validates and backs up first.
    ///
    /// - Parameters:
    ///   - holding: the store's lock when the caller already holds it (to take a backup and
    ///     migrate without a writer in between); nil takes it for the duration of the call.
    ///   - keepingDocuments: keep every document's changes in the report (the default); false
    ///     keeps totals only, so memory does not grow with the store.
    ///   - leavingOldFolders: leave the old `sessions/` and `user-sessions/` that the folder
    ///     exchanges replaced (dot-named, never read) for the caller to remove with
    ///     `removeOldFolders(progress:)` under the same lock (`StoreUpgrade` does, reporting it);
    ///     the next sweep under the lock removes them otherwise. The default (false) removes them
    ///     before returning.
    ///   - progress: Told `.phase(.migrating, …)` once the work streams are listed and after each.
    package func migrate(
        to target: Int? = nil, toolVersion: String, holding lock: StoreLock? = nil, keepingDocuments: Bool = true,
        leavingOldFolders: Bool = false, progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> MigrationReport {
        let held: StoreLock
        if let lock {
            precondition(lock.isHeld && lock.storePath == store.path, "StoreMigrator.migrate: the lock given is not this store's, held")
            held = lock
        } else {
            held = try StoreLock(
                store: store.path, tool: store.options.tool, version: store.options.version,
                timeout: store.options.lockTimeout, system: store.system)
        }
        defer { if lock == nil { held.release() } }
        _ = try TempSweep.sweep(store: store.path, holding: held, system: store.system)
        let goal = target ?? defaultTarget
        func context(_ target: Int) -> StoreMigration.Context {
            StoreMigration.Context(startedAt: Date(), finishedAt: Date(), toolVersion: toolVersion, target: target)
        }
        let rename = FolderRename.forward, version = store.compatibility.storeSchemaVersion
        guard version <= rename.from, goal >= rename.to else {
            return try run(
                write: true, context: context(goal), keepingDocuments: keepingDocuments, removingOldFolders: !leavingOldFolders,
                checkingLeftovers: true, progress: progress)
        }
        // Across the folder rename from below it: the rollback-safe steps first (and the §7
        // reconcile after an older writer: the rename reads documents at exactly its `from`
        // version), then the rename, on the store as it is then, under the same lock.
        var report = MigrationReport(keepsDocuments: keepingDocuments)
        let needsRollbackSafePart = try version < rename.from ? true : !plan(to: rename.from, toolVersion: toolVersion).isNoop
        if needsRollbackSafePart {
            report = try run(
                write: true, context: context(rename.from), keepingDocuments: keepingDocuments, removingOldFolders: !leavingOldFolders,
                progress: progress)
        }
        var options = store.options
        options.readOnly = true
        var next = StoreMigrator(store: try Store.open(at: store.path, options: options, system: store.system))
        next.customisationsExchangeThreshold = customisationsExchangeThreshold
        report.merge(
            try next.run(
                write: true, context: context(goal), keepingDocuments: keepingDocuments, removingOldFolders: !leavingOldFolders,
                checkingLeftovers: true, progress: progress))
        return report
    }

    /// Migrates to ``defaultTarget`` a store folder that is nobody's store yet: the staging folder
    /// of a restore (`StagedStore`), which its owner holds locked (`StagingDirectory`) and swaps in
    /// only once it is sealed. No `StoreLock` is taken, as no other process opens that folder as a
    /// store, and its lock file would go into the restored store; nothing is swept, as the folder
    /// holds only what its owner wrote. The old folders the exchanges replaced are removed before
    /// it returns, and a failure to remove them is thrown, so that nothing of the migration is
    /// left in the folder.
    func migrateUnpublished(toolVersion: String, progress: @escaping (StoreProgress) -> Void) throws(StoreError) -> MigrationReport {
        let report = try run(
            write: true,
            context: StoreMigration.Context(
                startedAt: Date(), finishedAt: Date(), toolVersion: toolVersion,
                target: defaultTarget),
            removingOldFolders: false, progress: progress)
        try removeOldFolders(progress: progress)
        return report
    }

    /// True when the §7 reconcile would change something: a work stream written by a v1 writer,
    /// a queue entry for a missing work stream, or a mirror that disagrees with `queue.json`.
    /// Reads only the top level of each work stream (`WorkStreamSummary`), so opening a large
    /// store stays fast; an unreadable document counts as needing the full run (which reports it).
    func needsReconcile() throws(StoreError) -> Bool {
        let listing = try store.listWorkStreams()
        guard listing.problems.isEmpty, let queue = try store.queueDocument() else { return true }
        let summaries = listing.items.map(\.queueSummary)
        let version = reconcileVersion
        let resolved = QueueResolution.resolve(manifestVersion: version, target: version, sessions: summaries, existing: queue)
        guard resolved.changes.isEmpty else { return true }
        let index = QueueIndex(resolved.queue)
        return summaries.contains { $0.schemaVersion < version || index.mirror(for: $0.id, current: $0.keys) != $0.keys }
    }

    /// The version the reconcile brings documents to: the store's, or this code's for a newer
    /// store that admits it (this code writes its own version only).
    var reconcileVersion: Int { min(store.compatibility.storeSchemaVersion, DocumentVersion.current) }

    /// The §7 reconcile of a store at this code's version (or a newer one that admits it), for a
    /// caller that already holds the lock (opening for writing).
    func reconcileHoldingLock() throws(StoreError) -> MigrationReport {
        guard try needsReconcile() else { return MigrationReport() }
        return try run(
            write: true,
            context: StoreMigration.Context(
                startedAt: Date(), finishedAt: Date(), toolVersion: store.options.version,
                target: reconcileVersion))
    }
}
