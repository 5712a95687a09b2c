import Foundation

/// What `migrate-store status` reports: versions, counts, migration state, lock holder, bad documents.
package struct StoreStatus: Sendable {
    /// Where a store stands with respect to the version chain (spec §9).
    package enum MigrationState: Sendable, Equatable {
        /// A store at this code's version with every document at that version.
        case notNeeded
        /// An older store no migration has touched.
        case needed
        /// An older store in which a migration already wrote some documents: run `migrate` to finish.
        case interrupted(upgradedDocuments: Int)
        /// A store at this code's version in which an older writer wrote documents since the upgrade (spec §7, §10).
        case touchedByOlderWriter(documents: Int)
        /// Newer than this tool.
        case newerStore
    }

    package var compatibility: StoreCompatibility
    package var manifest: ManifestDocument
    package var sessionsByVersion: [Int: Int] = [:]
    package var customisationsByVersion: [Int: Int] = [:]
    package var settingsVersion: Int?
    package var queue: QueueV2?
    package var state: MigrationState = .notNeeded
    /// Who can be seen holding the lock (its record checked against the system), nil when it is free.
    package var lockHolder: SeenLockHolder?
    package var unreadable: [StoreError] = []
    /// The work-stream folder an interrupted v3 ↔ v4 layout change left (`Store.interruptedLayoutFolder`).
    package var interruptedLayoutFolder: String?

    /// Reads everything without writing (open the store read-only).
    package static func gather(_ store: Store) throws(StoreError) -> StoreStatus {
        var status = StoreStatus(compatibility: store.compatibility, manifest: try store.manifest())
        let summaries = try store.listWorkStreams()
        status.unreadable += summaries.problems
        for s in summaries.items { status.sessionsByVersion[s.schemaVersion, default: 0] += 1 }
        let customisations = try store.customisations()
        status.unreadable += customisations.problems
        for c in customisations.items { status.customisationsByVersion[c.schemaVersion, default: 0] += 1 }
        do {
            status.settingsVersion = try store.readIfPresent(StoreLayout.settings) { (b) throws(SchemaError) in
                try Settings(bytes: b, acceptingNewerVersions: true)
            }?.schemaVersion
        } catch { status.unreadable.append(error) }
        do { status.queue = try store.queueDocument() } catch { status.unreadable.append(error) }
        status.lockHolder = try StoreLock.currentSeenHolder(store: store.path)
        status.interruptedLayoutFolder = try store.interruptedLayoutFolder()
        status.state = status.migrationState()
        return status
    }

    func migrationState() -> MigrationState {
        let version = compatibility.storeSchemaVersion
        var versions = sessionsByVersion.merging(customisationsByVersion, uniquingKeysWith: +)
        if let settingsVersion { versions[settingsVersion, default: 0] += 1 }
        // queue.json in a v1 store was written by a migration; in a later store it counts by its version.
        if let queue { versions[version < 2 ? max(2, queue.schemaVersion) : queue.schemaVersion, default: 0] += 1 }
        let above = versions.filter { $0.key > version }.values.reduce(0, +)
        let below = versions.filter { $0.key < version }.values.reduce(0, +)
        return Self.migrationState(compatibility, upgradedDocuments: above, olderDocuments: below)
    }

    /// The rule of spec §6–§7, §9 that `status` reports and `validate` checks: an older store with
    /// upgraded documents (or, for v1, `queue.json`) is an interrupted migration; a store at this
    /// code's version with documents an older writer wrote needs the reconcile.
    static func migrationState(_ compatibility: StoreCompatibility, upgradedDocuments above: Int, olderDocuments below: Int) -> MigrationState {
        switch compatibility {
        case .needsMigration: return above > 0 ? .interrupted(upgradedDocuments: above) : .needed
        case .current, .breakingCurrent: return below > 0 ? .touchedByOlderWriter(documents: below) : .notNeeded
        case .superseded, .refused: return .newerStore
        }
    }
}
