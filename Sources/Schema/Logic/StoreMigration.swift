import Foundation

/// v1 → v2 migration of a whole store (spec §6), and the re-upgrade after a rollback (§7).
package enum StoreMigration {
    /// When and by what a migration runs; recorded in `store.json`.
    package struct Context: Sendable {
        package var startedAt: Date
        package var finishedAt: Date
        package var toolVersion: String
        package init(startedAt: Date, finishedAt: Date, toolVersion: String) {
            self.startedAt = startedAt; self.finishedAt = finishedAt; self.toolVersion = toolVersion
        }
    }

    /// One session through rules 1–4 and the queue mirror.
    package static func migrateSession(_ document: SessionDocument, index: QueueIndex) throws(SchemaError) -> (SessionV2, [Change]) {
        var (session, changes) = try SessionMigration.migrate(document)
        changes += SessionMigration.applyMirror(index, to: &session.fields)
        return (session, changes)
    }

    /// A customisation or settings document: only `schema_version` changes (1 → 2).
    package static func upgradedVersion(_ version: Int) -> (Int, [Change]) {
        version < DocumentVersion.current ? (DocumentVersion.current, [.schemaVersion(from: version, to: DocumentVersion.current)]) : (version, [])
    }

    /// The new `store.json`, or nil when nothing changed and the manifest is already v2.
    package static func manifest(_ manifest: ManifestDocument, counts: [String: Int], anyChange: Bool, context: Context) -> (ManifestV2, [Change])? {
        let record = MigrationRecord(from: 1, to: DocumentVersion.current, startedAt: context.startedAt,
                                     finishedAt: context.finishedAt, toolVersion: context.toolVersion, counts: counts)
        switch manifest {
        case .v1(let m):
            return (ManifestV2(upgrading: m, record: record), [.manifestUpgraded(from: 1, to: DocumentVersion.current), .migrationRecorded])
        case .v2(var m):
            guard anyChange else { return nil }
            m.migrations.append(record)
            return (m, [.migrationRecorded])
        }
    }

    /// Counts for the migration record.
    ///
    /// For an upgrade of a v1 store they describe what was upgraded (every document changes its
    /// `schema_version`): documents by kind and the queue sizes. These are the same whether the
    /// migration ran in one go or was interrupted and resumed, so a resumed migration ends
    /// byte-identical to an uninterrupted one (timestamps aside). The per-change detail is the
    /// report that `plan` and `migrate` print. For a re-upgrade after a rollback they count the
    /// changes this run made, from its report.
    package static func counts(manifestVersion: Int, sessions: Int, userSessions: Int, settings: Bool,
                              queue: QueueV2, report: MigrationReport) -> [String: Int] {
        if manifestVersion < DocumentVersion.current {
            return ["sessions": sessions, "user_sessions": userSessions, "settings": settings ? 1 : 0,
                    "fifo_entries": queue.fifo.count, "priority_entries": queue.priority.count]
        }
        return report.rewritingTotals
    }

    /// Migrates a store in memory. A v2 store without v1 documents and with a consistent queue
    /// comes back unchanged with an empty report (idempotence).
    ///
    /// The report lists documents in the order the store engine writes them: `queue.json`,
    /// sessions (in `QueueBuilder.writeOrder`), customisations, settings, `store.json` last.
    package static func migrate(_ store: StoreSnapshot, context: Context) throws(SchemaError) -> (StoreSnapshot, MigrationReport) {
        var out = store
        var report = MigrationReport()
        let resolved = QueueResolution.resolve(manifestVersion: store.manifest.schemaVersion,
                                               sessions: store.sessions.values.map(SessionQueueSummary.init), existing: store.queue)
        if !resolved.changes.isEmpty {
            out.queue = resolved.queue
            report.append(DocumentChanges(file: StoreLayout.queue, changes: resolved.changes))
        }
        let index = QueueIndex(resolved.queue)
        var sessionChanges: [UUID: [Change]] = [:]
        var moves: [(id: UUID, old: QueueKeys, new: QueueKeys)] = []
        for (id, doc) in store.sessions {
            let (migrated, changes) = try StoreSnapshot.decode(StoreLayout.workStreamPath(id)) { () throws(SchemaError) in
                try migrateSession(doc, index: index)
            }
            guard !changes.isEmpty else { continue }
            out.sessions[id] = .v2(migrated)
            sessionChanges[id] = changes
            moves.append((id, doc.fields.queueKeys, migrated.fields.queueKeys))
        }
        for id in QueueBuilder.writeOrder(moves) {
            report.append(DocumentChanges(file: StoreLayout.workStreamPath(id), changes: sessionChanges[id]!))
        }
        for id in store.userSessions.keys.sorted(by: { $0.lowercased < $1.lowercased }) {
            let (version, changes) = upgradedVersion(store.userSessions[id]!.schemaVersion)
            guard !changes.isEmpty else { continue }
            out.userSessions[id]!.schemaVersion = version
            report.append(DocumentChanges(file: StoreLayout.customizationPath(id), changes: changes))
        }
        if let settings = store.settings {
            let (version, changes) = upgradedVersion(settings.schemaVersion)
            if !changes.isEmpty {
                out.settings!.schemaVersion = version
                report.append(DocumentChanges(file: StoreLayout.settings, changes: changes))
            }
        }
        let counts = counts(manifestVersion: store.manifest.schemaVersion, sessions: store.sessions.count,
                            userSessions: store.userSessions.count, settings: store.settings != nil,
                            queue: resolved.queue, report: report)
        if let (manifest, changes) = manifest(store.manifest, counts: counts, anyChange: !report.isNoop, context: context) {
            out.manifest = .v2(manifest)
            report.append(DocumentChanges(file: StoreLayout.manifest, changes: changes))
        }
        return (out, report)
    }
}
