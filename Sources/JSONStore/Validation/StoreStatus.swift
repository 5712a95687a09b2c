import Foundation

/// What `migrate-store status` reports: versions, counts, migration state, lock holder, bad documents.
package struct StoreStatus: Sendable {
    /// Where a store stands with respect to the v1 → v2 migration.
    package enum MigrationState: Sendable, Equatable {
        /// A v2 store with every document at v2.
        case notNeeded
        /// A v1 store no migration has touched.
        case needed
        /// A v1 store in which a migration already wrote some documents: run `migrate` to finish.
        case interrupted(upgradedDocuments: Int)
        /// A v2 store in which a v1 writer wrote documents since the upgrade (spec §7).
        case touchedByV1Writer(documents: Int)
        /// Newer than this tool.
        case newerStore
    }

    package var compatibility: StoreCompatibility
    package var manifest: ManifestDocument
    package var sessionsByVersion: [Int: Int] = [:]
    package var customizationsByVersion: [Int: Int] = [:]
    package var settingsVersion: Int?
    package var queue: QueueV2?
    package var state: MigrationState = .notNeeded
    package var lockHolder: LockHolder?
    package var unreadable: [StoreError] = []

    /// Reads everything without writing (open the store read-only).
    package static func gather(_ store: Store) throws(StoreError) -> StoreStatus {
        var status = StoreStatus(compatibility: store.compatibility, manifest: try store.manifest())
        let summaries = try store.listWorkStreams()
        status.unreadable += summaries.problems
        for s in summaries.items { status.sessionsByVersion[s.schemaVersion, default: 0] += 1 }
        let customizations = try store.customizations()
        status.unreadable += customizations.problems
        for c in customizations.items { status.customizationsByVersion[c.schemaVersion, default: 0] += 1 }
        do { status.settingsVersion = try store.readIfPresent(StoreLayout.settings) { (b) throws(SchemaError) in try SettingsV1(bytes: b, acceptingNewerVersions: true) }?.schemaVersion } catch { status.unreadable.append(error) }
        do { status.queue = try store.queueDocument() } catch { status.unreadable.append(error) }
        status.lockHolder = try StoreLock.currentHolder(store: store.path)
        status.state = status.migrationState()
        return status
    }

    func migrationState() -> MigrationState {
        let atV2 = sessionsByVersion.filter { $0.key >= 2 }.values.reduce(0, +) + customizationsByVersion.filter { $0.key >= 2 }.values.reduce(0, +)
            + ((settingsVersion ?? 0) >= 2 ? 1 : 0) + (queue != nil ? 1 : 0)
        let atV1 = sessionsByVersion[1, default: 0] + customizationsByVersion[1, default: 0] + (settingsVersion == 1 ? 1 : 0)
        return Self.migrationState(compatibility, upgradedDocuments: atV2, v1Documents: atV1)
    }

    /// The rule of spec §6–§7 that `status` reports and `validate` checks: a v1 store with
    /// upgraded documents (or `queue.json`) is an interrupted migration; a v2 store with
    /// documents a v1 writer wrote needs the reconcile.
    static func migrationState(_ compatibility: StoreCompatibility, upgradedDocuments atV2: Int, v1Documents atV1: Int) -> MigrationState {
        switch compatibility {
        case .needsMigration: return atV2 > 0 ? .interrupted(upgradedDocuments: atV2) : .needed
        case .current: return atV1 > 0 ? .touchedByV1Writer(documents: atV1) : .notNeeded
        case .superseded, .refused: return .newerStore
        }
    }
}
