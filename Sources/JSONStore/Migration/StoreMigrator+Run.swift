import Foundation

extension StoreMigrator {
    /// Pass A: everything the plan needs, validated.
    struct Survey {
        var manifest: ManifestDocument
        var summaries: [SessionQueueSummary] = []
        var customizations: [UserSessionV1] = []
        var settings: SettingsV1?
        var queue: QueueV2?
    }

    func survey() throws(StoreError) -> Survey {
        var problems: [StoreError] = []
        let manifest = try store.manifest()
        var survey = Survey(manifest: manifest)
        let ids = try store.workStreamIDs()
        problems += ids.problems
        for id in ids.items {
            do {
                let document = try store.workStream(id)
                survey.summaries.append(SessionQueueSummary(document))
            } catch { problems.append(error) }
        }
        let customizations = try store.customizations()
        problems += customizations.problems
        survey.customizations = customizations.items
        do {
            let newer = store.acceptsNewerDocuments
            survey.settings = try store.readIfPresent("settings.json") { (b) throws(SchemaError) in try SettingsV1(bytes: b, acceptingNewerVersions: newer) }
        } catch { problems.append(error) }
        do { survey.queue = try store.queueDocument() } catch { problems.append(error) }
        if !problems.isEmpty { throw StoreError.unreadable(problems, store: store.path, action: "migrate") }
        return survey
    }

    func run(write: Bool, context: StoreMigration.Context, progress: ((Int, Int) -> Void)?) throws(StoreError) -> MigrationReport {
        if case .refused = store.compatibility {
            throw StoreError(.unsupportedVersion, "Can't migrate '\(store.path)': \(store.compatibility.refusal!).", path: store.path)
        }
        let survey = try survey()
        var report = MigrationReport()
        let resolved = QueueResolution.resolve(manifestVersion: survey.manifest.schemaVersion, sessions: survey.summaries, existing: survey.queue)
        if !resolved.changes.isEmpty {
            report.documents.append(DocumentChanges(file: "queue.json", changes: resolved.changes))
            if write { try store.write("queue.json", resolved.queue.encoded) }
        }
        try migrateSessions(survey, index: QueueIndex(resolved.queue), write: write, report: &report, progress: progress)
        try upgradeSmallDocuments(survey, write: write, report: &report)
        var finishing = context
        finishing.finishedAt = Date()
        let counts = StoreMigration.counts(manifestVersion: survey.manifest.schemaVersion, sessions: survey.summaries.count,
                                           userSessions: survey.customizations.count, settings: survey.settings != nil,
                                           queue: resolved.queue, report: report.documents)
        if let (manifest, changes) = StoreMigration.manifest(survey.manifest, counts: counts, anyChange: !report.isNoop, context: write ? finishing : context) {
            report.documents.append(DocumentChanges(file: "store.json", changes: changes))
            if write { try store.write("store.json", manifest.encoded) }
        }
        return report
    }

    /// Pass B, in write order.
    func migrateSessions(_ survey: Survey, index: QueueIndex, write: Bool, report: inout MigrationReport,
                         progress: ((Int, Int) -> Void)?) throws(StoreError) {
        var moves: [(id: UUID, old: QueueKeys, new: QueueKeys)] = []
        var ordered = Set<UUID>()
        for s in survey.summaries {
            let new = index.mirror(for: s.id, current: s.keys)
            moves.append((s.id, s.keys, new))
            if s.keys.isInQueue && new.isInQueue && s.keys.queuePosition != new.queuePosition { ordered.insert(s.id) }
        }
        var batch: [FileChange] = []
        var batchedBytes = 0
        let total = moves.count
        for (done, id) in QueueBuilder.writeOrder(moves).enumerated() {
            progress?(done, total)
            let relative = Store.sessionFile(id)
            let document = try store.workStream(id)
            let migrated: SessionV2, changes: [Change]
            do throws(SchemaError) { (migrated, changes) = try StoreMigration.migrateSession(document, index: index) } catch {
                throw StoreError.document(error, path: store.file(relative))
            }
            guard !changes.isEmpty else { continue }
            report.documents.append(DocumentChanges(file: relative, changes: changes))
            guard write, changes.contains(where: \.changesBytes) else { continue }
            let change = FileChange(directory: store.sessionsDirectory, name: Store.documentName(id), bytes: migrated.encoded)
            if ordered.contains(id) {
                try BatchCommit.commit(batch, system: store.system)   // keep the order: earlier files first
                batch = []; batchedBytes = 0
                try BatchCommit.commit([change], system: store.system)
            } else {
                batch.append(change)
                batchedBytes += change.bytes.count
                if batch.count >= batchFiles || batchedBytes >= batchBytes {
                    try BatchCommit.commit(batch, system: store.system)
                    batch = []; batchedBytes = 0
                }
            }
        }
        try BatchCommit.commit(batch, system: store.system)
        progress?(total, total)
    }

    /// Customisations and settings: `schema_version` 1 → 2.
    func upgradeSmallDocuments(_ survey: Survey, write: Bool, report: inout MigrationReport) throws(StoreError) {
        var batch: [FileChange] = []
        for var doc in survey.customizations.sorted(by: { $0.id.lowercased < $1.id.lowercased }) {
            let (version, changes) = StoreMigration.upgradedVersion(doc.schemaVersion)
            guard !changes.isEmpty else { continue }
            doc.schemaVersion = version
            report.documents.append(DocumentChanges(file: Store.userSessionFile(doc.id), changes: changes))
            batch.append(FileChange(directory: store.userSessionsDirectory, name: Store.documentName(doc.id), bytes: doc.encoded))
        }
        if var settings = survey.settings {
            let (version, changes) = StoreMigration.upgradedVersion(settings.schemaVersion)
            if !changes.isEmpty {
                settings.schemaVersion = version
                report.documents.append(DocumentChanges(file: "settings.json", changes: changes))
                batch.append(FileChange(directory: store.path, name: "settings.json", bytes: settings.encoded))
            }
        }
        if write { try BatchCommit.commit(batch, system: store.system) }
    }
}
