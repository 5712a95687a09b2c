import Foundation

/// Integrity and rollback compatibility of a migrated store (spec §7 checks (a)–(d)), for `verify`.
public struct StoreVerifier: Sendable {
    public let store: Store
    /// A backup of the store from before the migration, for check (b); nil checks the store alone.
    public let backup: Store?

    public init(store: Store, against backup: Store? = nil) { self.store = store; self.backup = backup }

    /// What verification found.
    public struct Result: Sendable {
        /// Documents that could not be read, or are misplaced (integrity).
        public var unreadable: [StoreError] = []
        /// Integrity problems other than unreadable documents: dangling queue entries, id mismatches.
        public var integrity: [String] = []
        /// Failed rollback checks, each naming its file and check.
        public var failures: [RollbackCheck.Failure] = []
        /// How many documents each check covered.
        public var checked: [RollbackCheck.Check: Int] = [:]
        /// True when (b) compared with a real pre-migration backup.
        public var comparedWithBackup = false
        public var passed: Bool { unreadable.isEmpty && integrity.isEmpty && failures.isEmpty }
    }

    public func verify() throws(StoreError) -> Result {
        var result = Result()
        result.comparedWithBackup = backup != nil
        let ids = try store.workStreamIDs()
        result.unreadable += ids.problems
        var summaries: [SessionQueueSummary] = []
        for id in ids.items {
            let relative = Store.sessionFile(id)
            let bytes: [UInt8]
            do { bytes = try FileReader.read(store.file(relative), system: store.system) } catch { result.unreadable.append(error); continue }
            let original = try backupDocument(id, result: &result)
            let failures = RollbackCheck.checkSession(bytes: bytes, file: relative, original: original)
            result.failures += failures
            for check in [RollbackCheck.Check.v1Decodes, .valuesPreserved, .v2KeysSurviveV1Write] { result.checked[check, default: 0] += 1 }
            do {
                let document = try store.workStream(id)
                summaries.append(SessionQueueSummary(document))
                if document.schemaVersion < 2 {
                    result.integrity.append("\(relative): schema_version \(document.schemaVersion) in a v2 store (written by a v1 writer); run 'migrate-store migrate' to upgrade it and reconcile the queue")
                }
            } catch { result.unreadable.append(error) }
        }
        if let backup {
            for id in try backup.workStreamIDs().items where !ids.items.contains(id) {
                result.failures.append(RollbackCheck.Failure(check: .valuesPreserved, file: Store.sessionFile(id), reason: "the work stream is in the backup but not in the store"))
            }
        }
        let customizations = try store.customizations()
        result.unreadable += customizations.problems
        do { _ = try store.readIfPresent("settings.json") { (b) throws(SchemaError) in try SettingsV1(bytes: b, acceptingNewerVersions: true) } } catch { result.unreadable.append(error) }
        try checkQueue(summaries, ids: Set(ids.items), result: &result)
        return result
    }

    private func backupDocument(_ id: UUID, result: inout Result) throws(StoreError) -> SessionV1? {
        guard let backup else { return nil }
        do throws(StoreError) {
            let document = try backup.workStream(id)
            do throws(SchemaError) { return try SessionV1(json: document.json, acceptingNewerVersions: true) } catch {
                throw StoreError.document(error, path: backup.file(Store.sessionFile(id)))
            }
        } catch where error.code == .notFound {
            return nil
        } catch {
            result.unreadable.append(error)
            return nil
        }
    }

    private func checkQueue(_ summaries: [SessionQueueSummary], ids: Set<UUID>, result: inout Result) throws(StoreError) {
        let queue: QueueV2
        do {
            guard let document = try store.queueDocument() else {
                result.integrity.append("queue.json: missing in a v2 store; run 'migrate-store migrate' to rebuild it")
                return
            }
            queue = document
        } catch { result.unreadable.append(error); return }
        for entry in queue.fifo where !ids.contains(entry.workStreamID) {
            result.integrity.append("queue.json: the FIFO queue names '\(entry.workStreamID.lowercased)', which does not exist")
        }
        for entry in queue.priority where !ids.contains(entry.workStreamID) {
            result.integrity.append("queue.json: the priority queue names '\(entry.workStreamID.lowercased)', which does not exist")
        }
        result.checked[.mirrorMatchesQueue] = 1
        if let failure = RollbackCheck.checkMirror(sessions: summaries, queue: queue) { result.failures.append(failure) }
    }
}
