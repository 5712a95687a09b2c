import Foundation

/// A run of the version chain over a whole store (spec §6, §9, §10), and the re-upgrade after an
/// older writer touched it (§7).
package enum StoreMigration {
    /// Where a migration goes, and when and by what it runs; recorded in `store.json`.
    package struct Context: Sendable {
        package var startedAt: Date
        package var finishedAt: Date
        package var toolVersion: String
        /// The version the run ends at.
        package var target: Int
        package init(startedAt: Date, finishedAt: Date, toolVersion: String, target: Int = DocumentVersion.current) {
            self.startedAt = startedAt; self.finishedAt = finishedAt; self.toolVersion = toolVersion; self.target = target
        }
    }

    /// One work stream through the chain up to `target`, then the queue mirror.
    package static func migrateWorkStreamDocument(
        _ document: WorkStreamDocument, storeVersion: Int, target: Int,
        index: QueueIndex
    ) throws(SchemaError) -> (WorkStreamDocument, [Change]) {
        // Along the rollback-safe steps (and the mirror, which they keep), then any breaking step
        // with the resolved queue (§11: v4 keeps no mirror).
        let safeTarget = min(target, max(document.schemaVersion, MigrationChain.defaultTarget(from: min(document.schemaVersion, storeVersion))))
        var (session, changes) = try MigrationChain.migrateWorkStream(document, storeVersion: storeVersion, to: safeTarget)
        var fields = session.fields
        let mirror = WorkStreamMigration.applyMirror(index, to: &fields)
        if !mirror.isEmpty {
            session.fields = fields
            changes += mirror
        }
        if target > safeTarget {
            let (moved, more) = try MigrationChain.migrateWorkStream(session, storeVersion: safeTarget, to: target, queue: index)
            session = moved
            changes = MigrationChain.mergingVersionChanges(changes + more)
        }
        return (session, changes)
    }

    /// The new `store.json`, or nil when nothing changed and the manifest is already at the target.
    ///
    /// An upgrade gets one migration record per step (§9), each with `counts`. A re-upgrade after
    /// an older writer (the store is at the target, some documents were not) gets one record from
    /// `reupgradeFrom`, the oldest version among the documents rewritten.
    package static func manifest(
        _ manifest: ManifestDocument, counts: [String: Int], anyChange: Bool, reupgradeFrom: Int,
        context: Context
    ) -> (ManifestV2, [Change])? {
        let from = manifest.schemaVersion
        func record(_ from: Int, _ to: Int) -> MigrationRecord {
            MigrationRecord(
                from: from, to: to, startedAt: context.startedAt, finishedAt: context.finishedAt,
                toolVersion: context.toolVersion, counts: counts)
        }
        if from < context.target {
            let records = MigrationChain.steps(from: from, to: context.target).map { record($0.from, $0.to) }
            let minReader = MigrationChain.minReaderVersion(at: context.target)
            let upgraded: ManifestV2
            switch manifest {
            case .v1(let m):
                upgraded = ManifestV2(upgrading: m, records: records, schemaVersion: context.target, minReaderVersion: minReader)
            case .v2(var m):
                m.schemaVersion = context.target
                m.minReaderVersion = max(m.minReaderVersion, minReader)
                m.migrations += records
                upgraded = m
            }
            return (upgraded, [.manifestUpgraded(from: from, to: context.target), .migrationRecorded])
        }
        guard anyChange, case .v2(var m) = manifest else { return nil }
        m.migrations.append(record(min(reupgradeFrom, from), from))
        return (m, [.migrationRecorded])
    }

    /// Counts for the migration record.
    ///
    /// For an upgrade of a v1 store they describe what was upgraded (every document changes its
    /// `schema_version`): documents by kind and the queue sizes. These are the same whether the
    /// migration ran in one go or was interrupted and resumed, so a resumed migration ends
    /// byte-identical to an uninterrupted one (timestamps aside). The per-change detail is the
    /// report that `plan` and `migrate` print. For a re-upgrade after a rollback they count the
    /// changes this run made, from its report.
    package static func counts(
        manifestVersion: Int, target: Int, sessions: Int, userSessions: Int, settings: Bool,
        queue: QueueV2, report: MigrationReport
    ) -> [String: Int] {
        if manifestVersion < target {
            return upgradeCounts(sessions: sessions, userSessions: userSessions, settings: settings, queue: queue)
        }
        return report.rewritingTotals
    }

    /// What a migration record counts for a change of version: documents by kind, queue sizes.
    package static func upgradeCounts(sessions: Int, userSessions: Int, settings: Bool, queue: QueueV2) -> [String: Int] {
        return [
            "sessions": sessions, "user_sessions": userSessions, "settings": settings ? 1 : 0,
            "fifo_entries": queue.fifo.count, "priority_entries": queue.priority.count,
        ]
    }

    /// Migrates a store in memory to `context.target`. A store at the target whose documents are
    /// all at its version and whose queue is consistent comes back unchanged with an empty report
    /// (idempotence).
    ///
    /// The report lists documents in the order the store engine writes them: `queue.json`,
    /// sessions (in `QueueBuilder.writeOrder`), customisations, settings, `store.json` last.
    package static func migrate(_ store: StoreSnapshot, context: Context) throws(SchemaError) -> (StoreSnapshot, MigrationReport) {
        var out = store
        var report = MigrationReport()
        let storeVersion = store.manifest.schemaVersion, target = context.target
        let resolved = QueueResolution.resolve(
            manifestVersion: storeVersion, target: target,
            sessions: store.sessions.values.map(WorkStreamQueueSummary.init), existing: store.queue)
        if !resolved.changes.isEmpty {
            out.queue = resolved.queue
            report.append(DocumentChanges(file: StoreLayout.queue, changes: resolved.changes))
        }
        let index = QueueIndex(resolved.queue)
        var sessionChanges: [UUID: [Change]] = [:]
        var moves: [(id: UUID, old: QueueKeys, new: QueueKeys)] = []
        var reupgradeFrom = storeVersion
        for (id, doc) in store.sessions {
            let (migrated, changes) = try StoreSnapshot.decode(StoreLayout.workStreamPath(id)) { () throws(SchemaError) in
                try migrateWorkStreamDocument(doc, storeVersion: storeVersion, target: target, index: index)
            }
            guard !changes.isEmpty else { continue }
            reupgradeFrom = min(reupgradeFrom, doc.schemaVersion)
            out.sessions[id] = migrated
            sessionChanges[id] = changes
            moves.append((id, doc.fields.queueKeys, migrated.fields.queueKeys))
        }
        for id in QueueBuilder.writeOrder(moves) {
            report.append(DocumentChanges(file: StoreLayout.workStreamPath(id), changes: sessionChanges[id]!))
        }
        for id in store.userSessions.keys.sorted(by: { $0.lowercased < $1.lowercased }) {
            let path = StoreLayout.customisationPath(id)
            let (migrated, changes) = try StoreSnapshot.decode(path) { () throws(SchemaError) in
                try MigrationChain.migrateCustomisation(store.userSessions[id]!, to: target)
            }
            guard !changes.isEmpty else { continue }
            out.userSessions[id] = migrated
            report.append(DocumentChanges(file: path, changes: changes))
        }
        if let settings = store.settings {
            let (migrated, changes) = try StoreSnapshot.decode(StoreLayout.settings) { () throws(SchemaError) in
                try MigrationChain.migrateSettings(settings, to: target)
            }
            if !changes.isEmpty {
                out.settings = migrated
                report.append(DocumentChanges(file: StoreLayout.settings, changes: changes))
            }
        }
        let counts = counts(
            manifestVersion: storeVersion, target: target, sessions: store.sessions.count,
            userSessions: store.userSessions.count, settings: store.settings != nil,
            queue: resolved.queue, report: report)
        if let (manifest, changes) = manifest(
            store.manifest, counts: counts, anyChange: !report.isNoop,
            reupgradeFrom: reupgradeFrom, context: context)
        {
            out.manifest = .v2(manifest)
            report.append(DocumentChanges(file: StoreLayout.manifest, changes: changes))
        }
        return (out, report)
    }
}

extension StoreMigration {
    /// `store.json` after the breaking step (spec §12) or its inverse: the version, the
    /// `min_reader_version` the chain gives that version (4 after the step, back to the oldest
    /// reader after the inverse), and one migration record `from → to` with `counts`.
    package static func layoutChangeManifest(
        _ manifest: ManifestV2, to target: Int, counts: [String: Int],
        context: Context
    ) -> ManifestV2 {
        var m = manifest
        m.migrations.append(
            MigrationRecord(
                from: manifest.schemaVersion, to: target, startedAt: context.startedAt,
                finishedAt: context.finishedAt, toolVersion: context.toolVersion, counts: counts))
        m.schemaVersion = target
        m.minReaderVersion = MigrationChain.minReaderVersion(at: target)
        return m
    }
}
