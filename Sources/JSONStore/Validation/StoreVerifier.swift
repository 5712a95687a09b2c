import Foundation

/// Integrity and rollback compatibility of a migrated store (spec §7 checks (a)–(d)), for `verify`.
package struct StoreVerifier: Sendable {
    package let store: Store
    /// A backup of the store from before the migration, for check (b); nil checks the store alone.
    package let backup: Store?

    package init(store: Store, against backup: Store? = nil) { self.store = store; self.backup = backup }

    /// What verification found.
    package struct Result: Sendable {
        /// Documents that could not be read, or are misplaced (integrity).
        package var unreadable: [StoreError] = []
        /// Integrity problems other than unreadable documents: dangling queue entries, id mismatches.
        package var integrity: [String] = []
        /// Failed rollback checks, each naming its file and check.
        package var failures: [RollbackCheck.Failure] = []
        /// How many documents each check covered.
        package var checked: [RollbackCheck.Check: Int] = [:]
        /// True when (b) compared with a real pre-migration backup.
        package var comparedWithBackup = false
        package var passed: Bool { unreadable.isEmpty && integrity.isEmpty && failures.isEmpty }
    }

    /// Runs every check. `progress` is called on the calling thread with (checked, total) work
    /// streams, once before the first and after each.
    package func verify(progress: (Int, Int) -> Void = { _, _ in }) throws(StoreError) -> Result {
        var result = Result()
        result.comparedWithBackup = backup != nil
        let ids = try store.workStreamIDs()
        result.unreadable += ids.problems
        var summaries: [SessionQueueSummary] = []
        var checkedStreams = 0
        progress(0, ids.items.count)
        // Each work stream is checked on its own, on every core; the findings are kept in id order.
        try ParallelBatches.run(ids.items, system: store.system, work: { (id) -> Swift.Result<SessionFindings, StoreError> in
            .success(checkSession(id))
        }, consume: { (_, outcome) throws(StoreError) in
            checkedStreams += 1
            progress(checkedStreams, ids.items.count)
            guard case .success(let findings) = outcome else { return }
            result.unreadable += findings.unreadable
            result.failures += findings.failures
            if findings.checked {
                for check in [RollbackCheck.Check.v1Decodes, .valuesPreserved, .v2KeysSurviveV1Write] { result.checked[check, default: 0] += 1 }
            }
            if let summary = findings.summary { summaries.append(summary) }
            if let integrity = findings.integrity { result.integrity.append(integrity) }
        })
        if let backup {
            for id in try backup.workStreamIDs().items where !ids.items.contains(id) {
                result.failures.append(RollbackCheck.Failure(check: .valuesPreserved, file: Store.sessionFile(id), reason: "the work stream is in the backup but not in the store"))
            }
        }
        let customizations = try store.customizations()
        result.unreadable += customizations.problems
        do { _ = try store.readIfPresent(StoreLayout.settings) { (b) throws(SchemaError) in try SettingsV1(bytes: b, acceptingNewerVersions: true) } } catch { result.unreadable.append(error) }
        try checkQueue(summaries, ids: Set(ids.items), result: &result)
        return result
    }

    /// What checking one work stream found.
    struct SessionFindings: Sendable {
        var unreadable: [StoreError] = []
        var failures: [RollbackCheck.Failure] = []
        /// True when checks (a)–(c) ran (the file could be read).
        var checked = false
        var summary: SessionQueueSummary?
        var integrity: String?
    }

    /// Checks (a)–(c) of one work stream, and its queue keys for (d). Thread-safe.
    private func checkSession(_ id: UUID) -> SessionFindings {
        var findings = SessionFindings()
        let relative = Store.sessionFile(id)
        let bytes: [UInt8]
        do { bytes = try FileReader.read(store.file(relative), system: store.system) } catch {
            findings.unreadable.append(error)
            return findings
        }
        let original = backupDocument(id, findings: &findings)
        findings.failures = RollbackCheck.checkSession(bytes: bytes, file: relative, original: original)
        findings.checked = true
        do {
            let document = try store.decodeWorkStream(id, bytes: bytes)
            findings.summary = SessionQueueSummary(document)
            if document.schemaVersion < 2 {
                findings.integrity = "\(relative): schema_version \(document.schemaVersion) in a v2 store (written by a v1 writer); run 'migrate-store migrate' to upgrade it and reconcile the queue"
            }
        } catch { findings.unreadable.append(error) }
        return findings
    }

    private func backupDocument(_ id: UUID, findings: inout SessionFindings) -> SessionV1? {
        guard let backup else { return nil }
        do throws(StoreError) {
            let document = try backup.workStream(id)
            do throws(SchemaError) { return try SessionV1(json: document.json, acceptingNewerVersions: true) } catch {
                throw StoreError.document(error, path: backup.file(Store.sessionFile(id)))
            }
        } catch where error.code == .notFound {
            return nil
        } catch {
            findings.unreadable.append(error)
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
        for missing in QueueIntegrity.missingEntries(queue, existing: ids) {
            let list = missing.list == .fifo ? "FIFO" : "priority"
            result.integrity.append("\(StoreLayout.queue): the \(list) queue names '\(missing.workStreamID.lowercased)', which does not exist")
        }
        result.checked[.mirrorMatchesQueue] = 1
        if let failure = RollbackCheck.checkMirror(sessions: summaries, queue: queue) { result.failures.append(failure) }
    }
}
