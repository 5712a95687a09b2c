import Foundation

/// A backup's documents taken through the version chain (spec §9) to a version, one document at a
/// time: what the store holds if it is exactly the backup, migrated. `verify --against` compares
/// the store with it (`BackupComparison`), and the round trip of a breaking step reads the backup's
/// work streams from it (`BreakingStepVerifier`).
///
/// The chain is taken as `migrate` takes a store: the rollback-safe steps in one run (the queue
/// resolved by `QueueResolution.resolve` from every work stream's summary, then each work stream
/// through `StoreMigration.migrateWorkStreamDocument` with that queue); before a breaking step, a
/// re-upgrade at the store's own version, then the step on every work stream with the store's
/// queue (`StepContext.queue`) and only `schema_version` changed in the other documents; or back
/// through the inverses of breaking steps (`MigrationChain.folderRenamingStep.inverse`).
///
/// What it holds in memory: the backup's `store.json` and `queue.json` taken to the target, one
/// `QueueIndex` per stage of the chain, the ids of the backup's work streams and customisations,
/// and nothing else. A work stream, a customisation or `settings.json` is read from the backup
/// when asked for (``workStream(_:)``, ``customisation(_:)``, ``settings()``), taken through the
/// chain and handed back; the caller drops it. Opening (``init(_:to:)``) needs the work streams'
/// summaries at the input of each rollback-safe stage: the first from the `Source` (pass 1), a
/// later one (the re-upgrade before a breaking step, after the rollback-safe steps) from one more
/// pass over the backup, one document at a time per worker, dropped once the queue is resolved.
package struct BackupChain: Sendable {
    /// The backup as it is, every document read once and checked (pass 1), kept as summaries.
    ///
    /// In memory: `store.json`, `queue.json`, each work stream's `WorkStreamQueueSummary` (id,
    /// `schema_version`, queue keys) and each customisation's id; no document's content.
    package struct Source: Sendable {
        /// The backup, opened as a store.
        package let backup: Store
        package let manifest: ManifestDocument
        /// Each work stream's summary, in the order of the file names (the ids' lowercase order).
        package let workStreams: [WorkStreamQueueSummary]
        /// The customisations' ids, in the order of the file names.
        package let customisationIDs: [UUID]
        package let queue: QueueV2?
        /// The backup's version (its `store.json`'s `schema_version`).
        package var version: Int { manifest.schemaVersion }
    }

    /// A document of the backup the chain can't take to the target; the `underlying` of the
    /// `StoreError` that ``workStream(_:)``, ``customisation(_:)``, ``settings()`` and
    /// ``init(_:to:)`` throw then, so that a caller can say it in its own words.
    package struct ChainFailure: Error, Sendable {
        /// The backup's version and the target.
        package var from: Int
        package var to: Int
        /// What the step said, naming the document (`sessions/<id>.json`).
        package var error: SchemaError
    }

    /// One stage of the chain, with the queue its work-stream transform is given.
    enum Stage: Sendable {
        /// The rollback-safe steps `from` → `to` in one run, or a re-upgrade at `from` (`to == from`).
        case safe(from: Int, to: Int, index: QueueIndex)
        /// A breaking step from `from`, forward, with the store's queue.
        case forward(MigrationStep, from: Int, index: QueueIndex)
        /// A breaking step's inverse from `from` (the step's `to`), with the store's queue.
        case inverse(InverseStep, from: Int, index: QueueIndex)

        var to: Int {
            switch self {
            case .safe(_, let to, _): to
            case .forward(let step, _, _): step.to
            case .inverse(let inverse, _, _): inverse.to
            }
        }
    }

    /// What a stage is, before its queue is known.
    private enum Kind {
        case safe(to: Int)
        case forward(MigrationStep)
        case inverse(MigrationStep)
    }

    /// The backup as it is, with its summaries.
    package let source: Source
    /// The version the documents are taken to.
    package let target: Int
    /// `store.json` taken to `target`: its version and `created_at` as the chain leaves them (the
    /// migration records it would add are not kept: the comparison reads `created_at` only).
    package let manifest: ManifestDocument
    /// `queue.json` taken to `target` (resolved as a migration resolves it), or nil.
    package let queue: QueueV2?
    let stages: [Stage]

    /// The backup opened as a store.
    package var backup: Store { source.backup }
    /// The backup's version.
    package var version: Int { source.version }
    /// The ids of the backup's work streams, in the order of the file names.
    package var workStreamIDs: [UUID] { source.workStreams.map(\.id) }
    /// The ids of the backup's customisations, in the order of the file names.
    package var customisationIDs: [UUID] { source.customisationIDs }

    // MARK: - Pass 1

    /// Reads every document of `backup` (a store or a backup folder, opened as a store) once, one
    /// at a time per worker, and keeps only what ``Source`` holds.
    ///
    /// - Throws: `StoreError` `.invalidDocument` naming the backup's documents that can't be read
    ///   (a damaged backup can't say what the store should hold), or the code of a failed read.
    package static func read(_ backup: Store) throws(StoreError) -> Source {
        let manifest = try backup.manifest()
        let ids = try backup.workStreamIDs()
        var problems = ids.problems
        var summaries: [WorkStreamQueueSummary] = []
        summaries.reserveCapacity(ids.items.count)
        try ParallelBatches.run(
            ids.items, system: backup.system,
            work: { (id) -> Result<WorkStreamQueueSummary, StoreError> in
                do throws(StoreError) { return .success(WorkStreamQueueSummary(try backup.workStream(id))) } catch { return .failure(error) }
            },
            consume: { (_, outcome) throws(StoreError) in
                switch outcome {
                case .success(let summary): summaries.append(summary)
                case .failure(let error): problems.append(error)
                }
            })
        // The customisations are read and dropped: only their ids are kept.
        let listing = try DocumentIDListing.listDocumentFolder(backup.customisationsDirectory, system: backup.system)
        problems += listing.invalid.map(\.error)
        var customisationIDs: [UUID] = []
        try ParallelBatches.run(
            listing.ids, system: backup.system,
            work: { (id) -> Result<Bool, StoreError> in
                do throws(StoreError) { return .success(try backup.customisation(id) != nil) } catch { return .failure(error) }
            },
            consume: { (id, outcome) throws(StoreError) in
                switch outcome {
                case .success(let present): if present { customisationIDs.append(id) }
                case .failure(let error): problems.append(error)
                }
            })
        do throws(StoreError) { _ = try readSettings(backup) } catch { problems.append(error) }
        var queue: QueueV2?
        do throws(StoreError) { queue = try backup.queueDocument() } catch { problems.append(error) }
        guard let first = problems.first else {
            return Source(backup: backup, manifest: manifest, workStreams: summaries, customisationIDs: customisationIDs, queue: queue)
        }
        let check = StoreError.Recovery.runCommand(
            .verifyBackup(backup.path), advice: "Verify the backup to see every problem, or give another backup.",
            before: "Run ", after: " to see every problem, or give another backup.")
        let unreadable =
            "Can't compare with the backup '\(backup.path)': \(TextFormat.plural(problems.count, "of its documents", "of its documents")) can't be read"
        var text = StoreError.Text(unreadable + " (")
        text.append(first.text)
        text.append("), so it can't say what the store should hold. ")
        text.append(check)
        throw StoreError(.invalidDocument, text: text, path: backup.path, underlying: first)
    }

    /// `settings.json` of `backup` as the file has it, or nil.
    private static func readSettings(_ backup: Store) throws(StoreError) -> Settings? {
        let newer = backup.acceptsNewerDocuments
        return try backup.readIfPresent(StoreLayout.settings) { (b) throws(SchemaError) in try Settings(bytes: b, acceptingNewerVersions: newer) }
    }

    // MARK: - The chain

    /// `source` taken to `target`, or nil when no chain leads there (back through a rollback-safe
    /// step, which has no inverse). Resolves the queue of each stage; for a rollback-safe stage
    /// after the first, that is one more pass over the backup's work streams (see the type's
    /// comment).
    ///
    /// - Throws: a `StoreError` whose `underlying` is a ``ChainFailure`` when a step fails on a
    ///   document read for the queue, or when the store's `store.json` can't take a layout change;
    ///   the error of a failed read.
    package init?(_ source: Source, to target: Int) throws(StoreError) {
        guard let kinds = Self.plan(from: source.version, to: target) else { return nil }
        self.source = source
        self.target = target
        var manifest = source.manifest
        var queue = source.queue
        var stages: [Stage] = []
        for kind in kinds {
            let from = manifest.schemaVersion
            switch kind {
            case .safe(let to):
                let resolved: ResolvedQueue
                if stages.isEmpty {
                    resolved = QueueResolution.resolve(manifestVersion: from, target: to, sessions: source.workStreams, existing: queue)
                } else {
                    let summaries = try Self.summaries(source, through: stages, target: target)
                    resolved = QueueResolution.resolve(manifestVersion: from, target: to, sessions: summaries, existing: queue)
                }
                if !resolved.changes.isEmpty { queue = resolved.queue }
                stages.append(.safe(from: from, to: to, index: QueueIndex(resolved.queue)))
                if let (upgraded, _) = StoreMigration.manifest(manifest, counts: [:], anyChange: false, reupgradeFrom: from, context: Self.context(to)) {
                    manifest = .v2(upgraded)
                }
            case .forward(let step), .inverse(let step):
                guard case .v2(let layoutManifest) = manifest else {
                    let error = SchemaError(code: .invalidValue, file: StoreLayout.manifest, detail: "a v\(from) store.json has no layout change")
                    throw Self.failure(error, backup: source.backup, from: source.version, to: target)
                }
                let index = QueueIndex(queue ?? QueueV2(schemaVersion: from))
                if case .forward = kind {
                    stages.append(.forward(step, from: from, index: index))
                } else {
                    guard let inverse = step.inverse else { preconditionFailure("BackupChain: plan gives only breaking steps back") }
                    stages.append(.inverse(inverse, from: from, index: index))
                }
                let to = stages[stages.count - 1].to
                queue?.schemaVersion = to
                manifest = .v2(StoreMigration.layoutChangeManifest(layoutManifest, to: to, counts: [:], context: Self.context(to)))
            }
        }
        self.stages = stages
        self.manifest = manifest
        self.queue = queue
    }

    /// The stages from `version` to `target`, as `migrate` takes a store (or back through the
    /// inverses); nil when no chain leads there.
    private static func plan(from version: Int, to target: Int) -> [Kind]? {
        if version > target {
            let steps = MigrationChain.steps(from: target, to: version)
            guard !steps.isEmpty, steps.allSatisfy({ $0.inverse != nil }) else { return nil }
            return steps.reversed().map { .inverse($0) }
        }
        var kinds: [Kind] = []
        var current = version
        while current < target {
            let safe = min(target, MigrationChain.defaultTarget(from: current))
            if safe > current {
                kinds.append(.safe(to: safe))
                current = safe
                continue
            }
            guard let step = MigrationChain.steps(from: current, to: current + 1).first else { return nil }
            kinds.append(.safe(to: current))
            kinds.append(.forward(step))
            current = step.to
        }
        return kinds
    }

    /// Each work stream's summary after `stages`: one pass over the backup, one document at a
    /// time per worker.
    private static func summaries(_ source: Source, through stages: [Stage], target: Int) throws(StoreError) -> [WorkStreamQueueSummary] {
        var summaries: [WorkStreamQueueSummary] = []
        summaries.reserveCapacity(source.workStreams.count)
        let backup = source.backup
        try ParallelBatches.run(
            source.workStreams.map(\.id), system: backup.system,
            work: { (id) -> Result<WorkStreamQueueSummary, StoreError> in
                do throws(StoreError) {
                    let document = try backup.workStream(id)
                    do throws(SchemaError) { return .success(WorkStreamQueueSummary(try take(document, id: id, through: stages))) } catch {
                        return .failure(failure(error, backup: backup, from: source.version, to: target))
                    }
                } catch { return .failure(error) }
            },
            consume: { (_, outcome) throws(StoreError) in summaries.append(try outcome.get()) })
        return summaries
    }

    /// A migration context: its times and tool only go into migration records, which are not kept.
    private static func context(_ target: Int) -> StoreMigration.Context {
        StoreMigration.Context(
            startedAt: Date(timeIntervalSince1970: 0), finishedAt: Date(timeIntervalSince1970: 0),
            toolVersion: "", target: target)
    }

    /// A work stream through `stages`; an error names its file as the in-memory chain did.
    static func take(_ document: WorkStreamDocument, id: UUID, through stages: [Stage]) throws(SchemaError) -> WorkStreamDocument {
        var current = document
        for stage in stages {
            switch stage {
            case .safe(let from, let to, let index):
                do {
                    let (migrated, changes) = try StoreMigration.migrateWorkStreamDocument(current, storeVersion: from, target: to, index: index)
                    if !changes.isEmpty { current = migrated }
                } catch { throw error.inFile(StoreLayout.workStreamPath(id)) }
            case .forward(let step, let from, let index):
                do { current = try step.migrate(current, context: StepContext(writtenByOlderWriter: false, queue: index)).0 } catch {
                    throw error.inFile(StoreLayout.workStreamPath(id, schemaVersion: from))
                }
            case .inverse(let inverse, let from, let index):
                do { current = try inverse.migrate(current, context: StepContext(writtenByOlderWriter: false, queue: index)).0 } catch {
                    throw error.inFile(StoreLayout.workStreamPath(id, schemaVersion: from))
                }
            }
        }
        return current
    }

    private static func failure(_ error: SchemaError, backup: Store, from: Int, to: Int) -> StoreError {
        StoreError(
            .invalidDocument,
            "Can't take the backup '\(backup.path)' from v\(from) to v\(to) through the chain: \(error).",
            path: error.file.map { backup.file($0) } ?? backup.path, underlying: ChainFailure(from: from, to: to, error: error))
    }

    private func failure(_ error: SchemaError) -> StoreError {
        Self.failure(error, backup: backup, from: version, to: target)
    }

    // MARK: - One document at a time

    /// The backup's work stream `id` taken to `target`, read now; nil when the backup has none.
    ///
    /// - Throws: the error of a failed read (naming the file); a ``ChainFailure`` (as the
    ///   `underlying` of a `StoreError`) when a step fails on it.
    package func workStream(_ id: UUID) throws(StoreError) -> WorkStreamDocument? {
        let document: WorkStreamDocument
        do { document = try backup.workStream(id) } catch  where error.code == .notFound { return nil }
        do { return try Self.take(document, id: id, through: stages) } catch { throw failure(error) }
    }

    /// The backup's customisation `id` taken to `target`, read now; nil when the backup has none.
    ///
    /// - Throws: as ``workStream(_:)``.
    package func customisation(_ id: UUID) throws(StoreError) -> Customisation? {
        guard var document = try backup.customisation(id) else { return nil }
        do {
            for stage in stages {
                switch stage {
                case .safe(_, let to, _): document = try MigrationChain.migrateCustomisation(document, to: to).0
                case .forward, .inverse: document.schemaVersion = stage.to
                }
            }
        } catch { throw failure(error.inFile(StoreLayout.customisationPath(id))) }
        return document
    }

    /// The backup's `settings.json` taken to `target`, read now; nil when the backup has none.
    ///
    /// - Throws: as ``workStream(_:)``.
    package func settings() throws(StoreError) -> Settings? {
        guard var document = try Self.readSettings(backup) else { return nil }
        do {
            for stage in stages {
                switch stage {
                case .safe(_, let to, _): document = try MigrationChain.migrateSettings(document, to: to).0
                case .forward, .inverse: document.schemaVersion = stage.to
                }
            }
        } catch { throw failure(error.inFile(StoreLayout.settings)) }
        return document
    }
}
