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

    func run(
        write: Bool, context: StoreMigration.Context, keepingDocuments: Bool = true, removingOldFolders: Bool = true,
        progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> MigrationReport {
        if let refusal = store.compatibility.refusal {
            throw StoreError(.unsupportedVersion, "Can't migrate '\(store.path)': \(refusal).", path: store.path)
        }
        // A migration vouches for nothing in the record of this library's writes: it is removed
        // before the first visible write, so that the next open checks the store in full (and
        // records it then); the exchange of `sessions/` would make it disagree anyway (another
        // folder inode). Not before staging, which validates every document: bad input leaves the
        // record as it was, like every other byte. Staging writes only temp files, which change
        // the lstat of `sessions/` the record holds, so a crash in between makes it disagree too.
        let survey: Survey
        var staged = StagedList()
        var report = MigrationReport(keepsDocuments: keepingDocuments)
        let target = context.target
        // The barrier's descriptor, opened before staging writes its first file (`commitStaged`).
        let barrier: FileDescriptor? =
            write ? try AtomicFile.openDirectory(store.path, system: store.system, context: ErrorContext("write", store.path)) : nil
        if write { (survey, staged) = try stage(target: target, report: &report, progress: progress) } else { survey = try self.survey(progress: progress) }
        if write {
            do { try WriteRecord.remove(store: store.path, system: store.system) } catch {
                removeTemporaries(staged)
                throw error
            }
        }
        let storeVersion = survey.manifest.schemaVersion
        // The work streams' summaries: the staged list's when writing (no copy), the survey's in a dry run.
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
            survey.manifest, counts: counts, anyChange: !report.isNoop,
            reupgradeFrom: reupgradeFrom, context: write ? finishing : context)
        {
            report.append(DocumentChanges(file: StoreLayout.manifest, changes: changes))
            if write { try store.write(StoreLayout.manifest, manifest.encoded) }
        }
        committed = true
        return report
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
    func upgradeSmallDocuments(_ survey: Survey, target: Int, write: Bool, report: inout MigrationReport) throws(StoreError) {
        // The changed documents, not their bytes: each is encoded only when it is written
        // (`commitCustomisations`), so memory holds no store-sized list of encoded documents.
        var customisations: [Customisation] = []
        let documents = survey.customisations
        for position in documents.indices.sorted(by: { documents[$0].id.lowercased < documents[$1].id.lowercased }) {
            let path = StoreLayout.customisationPath(documents[position].id)
            let (doc, changes) = try migrated(path) { () throws(SchemaError) in try MigrationChain.migrateCustomisation(documents[position], to: target) }
            guard !changes.isEmpty else { continue }
            report.append(DocumentChanges(file: path, changes: changes))
            guard write else { continue }
            customisations.append(doc)
        }
        var batch = try commitCustomisations(customisations)
        if let settings = survey.settings {
            let (migrated, changes) = try migrated(StoreLayout.settings) { () throws(SchemaError) in try MigrationChain.migrateSettings(settings, to: target) }
            if !changes.isEmpty {
                report.append(DocumentChanges(file: StoreLayout.settings, changes: changes))
                if write { batch.append(FileChange(directory: store.path, name: StoreLayout.settings, bytes: migrated.encoded)) }
            }
        }
        if write { try BatchCommit.commit(batch, system: store.system) }
    }

    /// A small document through the chain; its error names the file.
    private func migrated<T>(_ relative: String, _ body: () throws(SchemaError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw StoreError.document(error, path: store.file(relative)) }
    }

    static let smallDocumentBatch = 256
}
