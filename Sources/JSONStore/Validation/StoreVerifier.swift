import Foundation

/// Integrity and rollback compatibility of a migrated store (spec §7 checks (a)–(d), for every
/// older reader version the store admits, §9), for `verify`.
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
        /// A problem that migrating the store fixes names it as a way out (`description` in plain
        /// words, `text(commandLine:)` with a tool's command line).
        package var integrity: [StoreError.Text] = []
        /// The older reader versions checked, oldest first (a v3 store: 1 and 2).
        package var readers: [Int] = []
        /// Older readers the chain says the store must admit but whose `min_reader_version`
        /// refuses (spec §4 reader rule): each fails the verification, and is not checked further.
        package var refusedReaders: [(reader: Int, minReaderVersion: Int)] = []
        /// Work streams in the store's folder (0: the store has none, and the output says so).
        package var workStreams = 0
        /// Failed rollback checks, each naming its file, check and reader version.
        package var failures: [RollbackCheck.Failure] = []
        /// How many documents each check covered, per reader version.
        package var checked: [RollbackCheck.ReaderCheck: Int] = [:]
        /// True when (b) compared with a real pre-migration backup.
        package var comparedWithBackup = false
        /// Checks (a)–(c) of the customisations and `settings.json`, as each reader.
        package var smallDocumentFailures: [RollbackCheck.Failure] = []
        /// How many customisations and `settings.json` files those checks read.
        package var smallDocumentsChecked = 0
        package var passed: Bool {
            unreadable.isEmpty && integrity.isEmpty && failures.isEmpty && smallDocumentFailures.isEmpty && refusedReaders.isEmpty
        }
    }

    /// Runs every check. `progress` is told `.phase(.verifyingStore, …)` on the calling thread,
    /// once the work streams are listed and after each.
    package func verify(progress: (StoreProgress) -> Void = { _ in }) throws(StoreError) -> Result {
        try withoutActuallyEscaping(progress) { (progress) throws(StoreError) in try verify(reporting: progress) }
    }

    private func verify(reporting progress: @escaping (StoreProgress) -> Void) throws(StoreError) -> Result {
        var result = Result()
        result.comparedWithBackup = backup != nil
        let storeVersion = store.compatibility.storeSchemaVersion
        let minReader: Int?
        switch try store.manifest() {
        case .v1: minReader = nil
        case .v2(let manifest): minReader = manifest.minReaderVersion
        }
        let header = ManifestHeader(schemaVersion: storeVersion, minReaderVersion: minReader)
        for reader in RollbackCheck.olderReaders(at: storeVersion) {
            if header.compatibility(reader: reader).refusal == nil {
                result.readers.append(reader)
            } else {
                result.refusedReaders.append((reader, minReader ?? storeVersion))
            }
        }
        let readers = result.readers
        let ids = try store.workStreamIDs()
        result.workStreams = ids.items.count
        result.unreadable += ids.problems
        var summaries: [WorkStreamQueueSummary] = []
        var counter = PhaseCounter(.verifyingStore, total: ids.items.count, report: progress)
        // Each work stream is checked on its own, on every core; the findings are kept in id order.
        try ParallelBatches.run(
            ids.items, system: store.system,
            work: { (id) -> Swift.Result<WorkStreamFindings, StoreError> in
                .success(checkWorkStream(id, readers: readers, storeVersion: storeVersion))
            },
            consume: { (_, outcome) throws(StoreError) in
                counter.step()
                guard case .success(let findings) = outcome else { return }
                result.unreadable += findings.unreadable
                result.failures += findings.failures
                if findings.checked {
                    for reader in result.readers {
                        for check in [RollbackCheck.Check.v1Decodes, .valuesPreserved, .v2KeysSurviveV1Write] {
                            result.checked[RollbackCheck.ReaderCheck(reader: reader, check: check), default: 0] += 1
                        }
                    }
                }
                if let summary = findings.summary { summaries.append(summary) }
                if let integrity = findings.integrity { result.integrity.append(integrity) }
            })
        if let backup {
            for id in try backup.workStreamIDs().items where !ids.items.contains(id) {
                for reader in result.readers {
                    result.failures.append(
                        RollbackCheck.Failure(
                            check: .valuesPreserved, file: StoreLayout.workStreamPath(id),
                            reason: "the work stream is in the backup but not in the store", reader: reader))
                }
            }
        }
        let customisations = try store.customisations()
        result.unreadable += customisations.problems
        do { _ = try store.readIfPresent(StoreLayout.settings) { (b) throws(SchemaError) in try Settings(bytes: b, acceptingNewerVersions: true) } } catch {
            result.unreadable.append(error)
        }
        // The customisations and settings.json as each older reader (spec §11: the keys v4 adds
        // to them must reach an older reader as unknown keys it keeps).
        var smallDocuments = customisations.items.map { (StoreLayout.customisationPath($0.id), StoreLayout.DocumentKind.customisation) }
        if try store.system.linkStatus(store.file(StoreLayout.settings), context: ErrorContext("read", store.file(StoreLayout.settings))) != nil {
            smallDocuments.append((StoreLayout.settings, .settings))
        }
        for (relative, kind) in smallDocuments {
            let bytes: [UInt8]
            do { bytes = try FileReader.read(store.file(relative), system: store.system) } catch {
                result.unreadable.append(error)
                continue
            }
            var original: [UInt8]?
            if let backup {
                do { original = try FileReader.read(backup.file(relative), system: backup.system) } catch  where error.code == .notFound {
                    original = nil
                } catch {
                    result.unreadable.append(error)
                }
            }
            result.smallDocumentsChecked += 1
            for reader in result.readers {
                result.smallDocumentFailures += RollbackCheck.checkSmallDocument(
                    bytes: bytes, file: relative, kind: kind, original: original, reader: reader, storeVersion: storeVersion)
            }
        }
        try checkQueue(summaries, ids: Set(ids.items), storeVersion: storeVersion, result: &result)
        return result
    }

    /// What checking one work stream found.
    struct WorkStreamFindings: Sendable {
        var unreadable: [StoreError] = []
        var failures: [RollbackCheck.Failure] = []
        /// True when checks (a)–(c) ran (the file could be read).
        var checked = false
        var summary: WorkStreamQueueSummary?
        var integrity: StoreError.Text?
    }

    /// Checks (a)–(c) of one work stream as each of `readers`, and its queue keys for (d). Thread-safe.
    private func checkWorkStream(_ id: UUID, readers: [Int], storeVersion: Int) -> WorkStreamFindings {
        var findings = WorkStreamFindings()
        let relative = StoreLayout.workStreamPath(id)
        let bytes: [UInt8]
        do { bytes = try FileReader.read(store.file(relative), system: store.system) } catch {
            findings.unreadable.append(error)
            return findings
        }
        let original = backupDocument(id, findings: &findings)
        for reader in readers {
            findings.failures += RollbackCheck.checkWorkStream(
                bytes: bytes, file: relative, original: original, reader: reader,
                storeVersion: storeVersion)
        }
        findings.checked = true
        do {
            let document = try store.decodeWorkStream(id, bytes: bytes)
            findings.summary = WorkStreamQueueSummary(document)
            if document.schemaVersion < storeVersion {
                findings.integrity = StoreError.Text(
                    "\(relative): schema_version \(document.schemaVersion) in a v\(storeVersion) store (written by a v\(document.schemaVersion) writer); ",
                    .runCommand(.migrate(store: nil), advice: "migrate the store", before: "run ", after: ""),
                    " to upgrade it and reconcile the queue")
            }
        } catch { findings.unreadable.append(error) }
        return findings
    }

    private func backupDocument(_ id: UUID, findings: inout WorkStreamFindings) -> WorkStreamDocument? {
        guard let backup else { return nil }
        do throws(StoreError) {
            return try backup.workStream(id)
        } catch  where error.code == .notFound {
            return nil
        } catch {
            findings.unreadable.append(error)
            return nil
        }
    }

    private func checkQueue(_ summaries: [WorkStreamQueueSummary], ids: Set<UUID>, storeVersion: Int, result: inout Result) throws(StoreError) {
        let queue: QueueV2
        do {
            guard let document = try store.queueDocument() else {
                result.integrity.append(
                    StoreError.Text(
                        "queue.json: missing in a v2 store; ",
                        .runCommand(.migrate(store: nil), advice: "migrate the store", before: "run ", after: ""), " to rebuild it"))
                return
            }
            queue = document
        } catch { result.unreadable.append(error); return }
        for missing in QueueIntegrity.missingEntries(queue, existing: ids) {
            let list = missing.list == .fifo ? "FIFO" : "priority"
            result.integrity.append(StoreError.Text("\(StoreLayout.queue): the \(list) queue names '\(missing.workStreamID.lowercased)', which does not exist"))
        }
        for reader in result.readers {
            result.checked[RollbackCheck.ReaderCheck(reader: reader, check: .mirrorMatchesQueue)] = 1
            if reader < 2 {
                // A v1 reader derives the queue from the mirror keys.
                if let failure = RollbackCheck.checkMirror(sessions: summaries, queue: queue) { result.failures.append(failure) }
            } else {
                let bytes: [UInt8]
                do { bytes = try FileReader.read(store.file(StoreLayout.queue), system: store.system) } catch { result.unreadable.append(error); continue }
                if let failure = RollbackCheck.checkQueue(bytes: bytes, reader: reader, current: queue) { result.failures.append(failure) }
            }
        }
    }
}
