import Foundation

extension StoreMigrator {
    /// Pass A: everything the plan needs, validated.
    struct Survey {
        var manifest: ManifestDocument
        /// Each work stream's summary: the dry run's (`survey`); a migration's staged list holds them instead.
        var summaries: [WorkStreamQueueSummary] = []
        var customisations: [Customisation] = []
        var settings: Settings?
        var queue: QueueV2?
    }

    /// Pass A of the dry run: every work stream decoded and validated (on every core), its queue keys kept.
    /// `progress` is told `.phase(.validating, …)` on the calling thread, once the work streams
    /// are listed and after each.
    func survey(progress: @escaping (StoreProgress) -> Void = { _ in }) throws(StoreError) -> Survey {
        var problems: [StoreError] = []
        var summaries: [WorkStreamQueueSummary] = []
        let ids = try store.workStreamIDs()
        problems += ids.problems
        summaries.reserveCapacity(ids.items.count)
        var counter = PhaseCounter(.validating, total: ids.items.count, report: progress)
        try ParallelBatches.run(
            ids.items, system: store.system,
            work: { (id) -> Result<WorkStreamQueueSummary, StoreError> in
                do throws(StoreError) { return .success(WorkStreamQueueSummary(try store.workStream(id))) } catch { return .failure(error) }
            },
            consume: { (_, result) throws(StoreError) in
                counter.step()
                switch result {
                case .success(let summary): summaries.append(summary)
                case .failure(let error): problems.append(error)
                }
            })
        var survey = try surveyOtherDocuments(&problems)
        if !problems.isEmpty { throw StoreError.unreadable(problems, store: store.path, action: "migrate") }
        survey.summaries = summaries
        return survey
    }

    /// The manifest, customisations, settings and queue; unreadable ones are added to `problems`.
    func surveyOtherDocuments(_ problems: inout [StoreError]) throws(StoreError) -> Survey {
        var survey = Survey(manifest: try store.manifest())
        let customisations = try store.customisations()
        problems += customisations.problems
        survey.customisations = customisations.items
        do {
            let newer = store.acceptsNewerDocuments
            survey.settings = try store.readIfPresent(StoreLayout.settings) { (b) throws(SchemaError) in try Settings(bytes: b, acceptingNewerVersions: newer)
            }
        } catch { problems.append(error) }
        do { survey.queue = try store.queueDocument() } catch { problems.append(error) }
        return survey
    }

    /// The one run of the chain over the store, in phases: check (what an interrupted folder
    /// rename left), stage (every work stream decoded, validated, migrated, staged; nothing visible
    /// yet), commit (the queue and the work streams, the small documents, `store.json`, in the order
    /// that keeps every instant readable), and remove the old folders. Without `write`, the same
    /// phases read and report what they would do (`plan`).
    ///
    /// How the work streams are committed follows the steps' layout effect: a store that crosses
    /// the chain's folder rename (`FolderRename`) has them staged into the other folder, renamed
    /// into place and the old folder retired (`StoreMigrator+FolderRename.swift`); otherwise they
    /// are exchanged with their folder or renamed file by file in the queue's write order
    /// (`StoreMigrator+Staging.swift`, `+Exchange.swift`). A store past the rename at its version
    /// has no work stream to take (spec §12: no mirror): only what an interrupted rename left.
    ///
    /// `checkingLeftovers` (a migration, not the reconcile on open) runs the check phase on a store
    /// at the rename's `from` version too: an inverse interrupted after its `store.json` left the
    /// other folder there.
    func run(
        write: Bool, context: StoreMigration.Context, keepingDocuments: Bool = true, removingOldFolders: Bool = true,
        checkingLeftovers: Bool = false, progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> MigrationReport {
        if let refusal = store.compatibility.refusal {
            throw StoreError(.unsupportedVersion, "Can't migrate '\(store.path)': \(refusal).", path: store.path)
        }
        var migrator = self
        migrator.renaming = FolderRename.between(store.compatibility.storeSchemaVersion, context.target)
        return try migrator.runPhases(
            write: write, context: context, keepingDocuments: keepingDocuments, removingOldFolders: removingOldFolders,
            checkingLeftovers: checkingLeftovers, progress: progress)
    }

    private func runPhases(
        write: Bool, context: StoreMigration.Context, keepingDocuments: Bool, removingOldFolders: Bool, checkingLeftovers: Bool,
        progress: @escaping (StoreProgress) -> Void
    ) throws(StoreError) -> MigrationReport {
        var report = MigrationReport(keepsDocuments: keepingDocuments)
        let target = context.target
        let storeVersion = store.compatibility.storeSchemaVersion
        let finishingRename = renaming == nil && store.hasRenamedLayout
        // Check: what an interrupted folder rename left is never trusted (removed under the lock).
        if renaming != nil || finishingRename || checkingLeftovers && storeVersion >= FolderRename.forward.from {
            try reportLeftovers(storeVersion: storeVersion, write: write, report: &report)
        }
        // A removed leftover is no change of the store's documents: no migration record for it alone.
        let filesChangedByTheCheck = report.filesChanged
        // Stage. The barrier's descriptor is opened before staging writes its first file (`commitStaged`).
        let barrier: FileDescriptor? =
            write ? try AtomicFile.openDirectory(store.path, system: store.system, context: ErrorContext("write", store.path)) : nil
        let survey: Survey
        var staged = StagedList()
        if finishingRename {
            var problems: [StoreError] = []
            survey = try surveyOtherDocuments(&problems)
            if !problems.isEmpty { throw StoreError.unreadable(problems, store: store.path, action: "migrate") }
        } else if let renaming {
            let queue = QueueIndex(try store.queueDocument() ?? QueueV2(schemaVersion: renaming.from))
            (survey, staged) = try stage(target: target, write: write, queue: queue, report: &report, progress: progress)
        } else if write {
            (survey, staged) = try stage(target: target, report: &report, progress: progress)
        } else {
            survey = try self.survey(progress: progress)
        }
        // A migration vouches for nothing in the record of this library's writes: it is removed
        // before the first visible write, so that the next open checks the store in full (and
        // records it then); the exchange of `sessions/` would make it disagree anyway (another
        // folder inode). Not before staging, which validates every document: bad input leaves the
        // record as it was, like every other byte. Staging writes only temp files, which change
        // the lstat of `sessions/` the record holds, so a crash in between makes it disagree too.
        if write {
            do { try WriteRecord.remove(store: store.path, system: store.system) } catch {
                removeTemporaries(staged)
                throw error
            }
        }
        if let renaming {
            let manifest = try renamedManifest(renaming, staged: staged, survey: survey, context: context, write: write, report: &report)
            guard write else {
                try upgradeSmallDocuments(survey, target: renaming.to, settingVersion: true, write: false, report: &report)
                report.append(manifest.change)
                return report
            }
            try commitRename(renaming, staged: staged, survey: survey, manifest: manifest.document, barrier: barrier!, report: &report)
            report.append(manifest.change)
            if removingOldFolders { removeExchangedFolders(sessions: false) }
            return report
        }
        if finishingRename {
            try upgradeSmallDocuments(survey, target: storeVersion, settingVersion: true, write: write, report: &report)
            return report
        }
        let resolved =
            write
            ? QueueResolution.resolve(manifestVersion: storeVersion, target: target, sessions: staged.summaries, existing: survey.queue)
            : QueueResolution.resolve(manifestVersion: storeVersion, target: target, sessions: survey.summaries, existing: survey.queue)
        let sessionCount = write ? staged.count : survey.summaries.count
        let reupgradeFrom =
            write
            ? staged.indices.reduce(storeVersion) { min($0, staged.schemaVersion($1)) }
            : survey.summaries.reduce(storeVersion) { $0 < $1.schemaVersion ? $0 : $1.schemaVersion }
        if !resolved.changes.isEmpty {
            report.append(DocumentChanges(file: StoreLayout.queue, changes: resolved.changes))
            if write {
                do { try store.write(StoreLayout.queue, resolved.queue.encoded) } catch {
                    removeTemporaries(staged)
                    throw error
                }
            }
        }
        var exchanged = false
        if write {
            exchanged = try commitStaged(
                consume staged, storeVersion: storeVersion, target: target, index: QueueIndex(resolved.queue), barrier: barrier!,
                report: &report)
        } else {
            try planSessions(survey, target: target, index: QueueIndex(resolved.queue), report: &report)
        }
        // The old work streams go last, also after an error (the exchange is durable by then):
        // freeing thousands of files first made the writes after it slower (on ext4 without a
        // journal, a new file skips the inodes freed in the last minutes, one by one).
        // With `removingOldFolders` false they are left (dot-named, never read) for the caller to
        // remove under the same lock (`removeOldFolders(progress:)`), or for the next sweep.
        // Also after an error, whatever `removingOldFolders` says: nothing reports them then.
        var committed = false
        defer { if write && (removingOldFolders || !committed) { removeExchangedFolders(sessions: exchanged) } }
        try upgradeSmallDocuments(survey, target: target, write: write, report: &report)
        var finishing = context
        finishing.finishedAt = Date()
        let counts = StoreMigration.counts(
            manifestVersion: storeVersion, target: target, sessions: sessionCount,
            userSessions: survey.customisations.count, settings: survey.settings != nil,
            queue: resolved.queue, report: report)
        if let (manifest, changes) = StoreMigration.manifest(
            survey.manifest, counts: counts, anyChange: report.filesChanged > filesChangedByTheCheck,
            reupgradeFrom: reupgradeFrom, context: write ? finishing : context)
        {
            report.append(DocumentChanges(file: StoreLayout.manifest, changes: changes))
            if write { try store.write(StoreLayout.manifest, manifest.encoded) }
        }
        committed = true
        return report
    }

    /// The staged work streams' changes reported (at their new paths, in id order), and
    /// `store.json` after the folder rename with its migration record.
    private func renamedManifest(
        _ rename: FolderRename, staged: StagedList, survey: Survey, context: StoreMigration.Context, write: Bool,
        report: inout MigrationReport
    ) throws(StoreError) -> (document: ManifestV2, change: DocumentChanges) {
        for i in staged.indices where !staged.isCounted(i) {
            let changes = staged.changes(i)
            if !changes.isEmpty { report.append(DocumentChanges(file: StoreLayout.workStreamPath(staged.id(i), schemaVersion: rename.to), changes: changes)) }
        }
        guard case .v2(let manifest) = survey.manifest else {
            removeTemporaries(staged)
            throw StoreError(.invalidDocument, "Can't migrate '\(store.path)': its store.json is not a v2 manifest.", path: store.file(StoreLayout.manifest))
        }
        var finished = context
        finished.finishedAt = Date()
        let counts = StoreMigration.upgradeCounts(
            sessions: staged.count, userSessions: survey.customisations.count, settings: survey.settings != nil,
            queue: survey.queue ?? QueueV2(schemaVersion: rename.from))
        let document = StoreMigration.layoutChangeManifest(manifest, to: rename.to, counts: counts, context: write ? finished : context)
        return (document, DocumentChanges(file: StoreLayout.manifest, changes: [.manifestUpgraded(from: rename.from, to: rename.to), .migrationRecorded]))
    }

    /// The commit of a run across the folder rename (`StoreMigrator+FolderRename.swift`, steps
    /// 1–5): the staged folder durable and renamed into place; `store.json` and the small
    /// documents, the small ones written while `store.json` says the newer version (forward:
    /// after it, inverse: before it); the old folder retired, its files left for the removal of
    /// the old folders.
    private func commitRename(
        _ rename: FolderRename, staged: StagedList, survey: Survey, manifest: ManifestV2, barrier: borrowing FileDescriptor,
        report: inout MigrationReport
    ) throws(StoreError) {
        do throws(StoreError) { try commitRenamedFolder(staged, rename, barrier: barrier) } catch {
            removeTemporaries(staged)
            throw error
        }
        let raisesVersion = rename.to > rename.from
        if raisesVersion { try store.write(StoreLayout.manifest, manifest.encoded) }
        try upgradeSmallDocuments(survey, target: rename.to, settingVersion: true, write: true, report: &report)
        if !raisesVersion { try store.write(StoreLayout.manifest, manifest.encoded) }
        try retireOldFolder(rename.sourceFolder)
    }

    /// The dry run's pass B: each work stream decoded again and migrated in write order, nothing written.
    func planSessions(_ survey: Survey, target: Int, index: QueueIndex, report: inout MigrationReport) throws(StoreError) {
        let moves = survey.summaries.map { (id: $0.id, old: $0.keys, new: index.mirror(for: $0.id, current: $0.keys)) }
        for id in QueueBuilder.writeOrder(moves) {
            let document = try store.workStream(id)
            let changes: [Change]
            do throws(SchemaError) {
                changes = try StoreMigration.migrateWorkStreamDocument(document, storeVersion: survey.manifest.schemaVersion, target: target, index: index).1
            } catch {
                throw StoreError.document(error, path: store.file(StoreLayout.workStreamPath(id)))
            }
            if !changes.isEmpty { report.append(DocumentChanges(file: StoreLayout.workStreamPath(id), changes: changes)) }
        }
    }

    /// Customisations and settings: `schema_version` up to `target`. The customisations are
    /// committed by exchanging folders from `customisationsExchangeMinimum` on
    /// (`StoreMigrator+Customisations.swift`), otherwise in batches of at most `smallDocumentBatch` files.
    ///
    /// With `settingVersion` (the folder rename and its finish, a breaking step, which has no
    /// small-document transform), every small document whose `schema_version` is not `target`,
    /// `queue.json` included, is set to `target`, up or down.
    func upgradeSmallDocuments(
        _ survey: Survey, target: Int, settingVersion: Bool = false, write: Bool, report: inout MigrationReport
    ) throws(StoreError) {
        // The changed documents, not their bytes: each is encoded only when it is written
        // (`commitCustomisations`), so memory holds no store-sized list of encoded documents.
        var customisations: [Customisation] = []
        let documents = survey.customisations
        for position in documents.indices.sorted(by: { documents[$0].id.lowercased < documents[$1].id.lowercased }) {
            let path = StoreLayout.customisationPath(documents[position].id)
            let (doc, changes) =
                settingVersion
                ? Self.settingVersion(documents[position], to: target)
                : try migrated(path) { () throws(SchemaError) in try MigrationChain.migrateCustomisation(documents[position], to: target) }
            guard !changes.isEmpty else { continue }
            report.append(DocumentChanges(file: path, changes: changes))
            guard write else { continue }
            customisations.append(doc)
        }
        var batch = try commitCustomisations(customisations)
        if let settings = survey.settings {
            let (migrated, changes) =
                settingVersion
                ? Self.settingVersion(settings, to: target)
                : try migrated(StoreLayout.settings) { () throws(SchemaError) in try MigrationChain.migrateSettings(settings, to: target) }
            if !changes.isEmpty {
                report.append(DocumentChanges(file: StoreLayout.settings, changes: changes))
                if write { batch.append(FileChange(directory: store.path, name: StoreLayout.settings, bytes: migrated.encoded)) }
            }
        }
        // Otherwise `queue.json` is the queue step's (`QueueResolution`), written before the work streams.
        if settingVersion, let queue = survey.queue {
            let (migrated, changes) = Self.settingVersion(queue, to: target)
            if !changes.isEmpty {
                report.append(DocumentChanges(file: StoreLayout.queue, changes: changes))
                if write { batch.append(FileChange(directory: store.path, name: StoreLayout.queue, bytes: migrated.encoded)) }
            }
        }
        if write { try BatchCommit.commit(batch, system: store.system) }
    }

    /// A small document at `target`, only its `schema_version` changed (up or down).
    private static func settingVersion<D: VersionedSmallDocument>(_ document: D, to target: Int) -> (D, [Change]) {
        guard document.schemaVersion != target else { return (document, []) }
        var changed = document
        changed.schemaVersion = target
        return (changed, [.schemaVersion(from: document.schemaVersion, to: target)])
    }

    /// A small document through the chain; its error names the file.
    private func migrated<T>(_ relative: String, _ body: () throws(SchemaError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw StoreError.document(error, path: store.file(relative)) }
    }

    static let smallDocumentBatch = 256
}

/// A small document whose `schema_version` a breaking step sets (`StoreMigrator.upgradeSmallDocuments`).
protocol VersionedSmallDocument {
    var schemaVersion: Int { get set }
}

extension Customisation: VersionedSmallDocument {}
extension Settings: VersionedSmallDocument {}
extension QueueV2: VersionedSmallDocument {}
