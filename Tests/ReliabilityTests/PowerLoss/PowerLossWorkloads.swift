import Foundation
import Schema

@testable import JSONStore

/// The stores and workloads of the power-loss tests, and what each promises after a crash.
enum PowerLossWorkloads {
    static let store = "/store"
    static let backup = "/store.backup-1"
    static let options = Store.Options(readOnly: false, tool: "reliability-tests", version: "1", lockTimeout: .zero)
    static let t0 = Date(timeIntervalSince1970: 1_763_632_800)  // 2025-11-20T10:00:00Z

    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }

    /// A store object for code that already opened the store (no open-time lock, sweep or reconcile).
    static func opened(_ system: SystemCalls) -> Store {
        Store(path: store, options: options, compatibility: .current, warnings: [], system: system)
    }

    static func message(_ n: Int, in stream: UUID, bytes count: Int) -> Message {
        Message(
            id: id(1000 + n), sessionID: stream, role: "assistant",
            text: String(repeating: "line \(n) of a long answer\n", count: count / 26 + 1),
            timestamp: t0.addingTimeInterval(Double(n)))
    }

    /// A v2 store with `count` work streams made through the Store API; the first holds a ~6 KB
    /// message (its file spans two 4 KiB blocks); the first three are in the FIFO queue.
    static func v2Store(streams count: Int) throws -> ModelState {
        let model = ModelFileSystem()
        let system = SystemCalls(calls: model)
        let created = try Store.create(at: store, options: options, now: t0, system: system)
        for n in 1...count {
            try created.createWorkStream(id: id(n), workingDirectory: "/work/project-\(n)", at: t0)
        }
        try created.appendMessages(id(1), [message(1, in: id(1), bytes: 6000)])
        for n in 1...min(3, count) { try created.enqueue(id(n), at: t0.addingTimeInterval(Double(n))) }
        model.syncEverything()
        return model.current
    }

    /// `v1Store()` migrated to schema v2 (`--to 2`), synced: the start of a v2 → v3 migration.
    static func v2StoreMigratedFromV1() throws -> ModelState {
        let model = ModelFileSystem(try v1Store())
        let system = SystemCalls(calls: model)
        _ = try StoreMigrator(store: try Store.open(at: store, options: options, system: system)).migrate(to: 2, toolVersion: "1")
        model.syncEverything()
        return model.current
    }

    /// `v1Store()` migrated to schema v3 (`--to 3`), synced: the start of the v3 → v4 step every
    /// user of the v3 app takes (spec §11).
    static func v3StoreMigratedFromV1() throws -> ModelState {
        let model = ModelFileSystem(try v1Store())
        let system = SystemCalls(calls: model)
        _ = try StoreMigrator(store: try Store.open(at: store, options: options, system: system)).migrate(to: 3, toolVersion: "1")
        model.syncEverything()
        return model.current
    }

    /// Four work streams, two customisations and the settings of `Samples/v1-store`: FIFO
    /// positions 1, 3, 3 and a not-queued position 2 (renumbered), a 4.9 KB document (torn at 4 KiB).
    static func v1Store() throws -> ModelState {
        let model = ModelFileSystem()
        let sample = Samples.v1Store
        for relative in [
            "store.json", "settings.json",
            "sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json", "sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json",
            "sessions/ec3629cb-f446-449f-b8a0-f43e156345d8.json", "sessions/ad63adfa-7ad7-45dc-882c-80791120b6cc.json",
            "user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json", "user-sessions/e3ec053b-0661-4e09-b86f-1dad7839b6fd.json",
        ] {
            model.install(store + "/" + relative, Array(try Data(contentsOf: URL(fileURLWithPath: sample + "/" + relative))))
        }
        return model.current
    }

    // MARK: Checks

    /// The store opens for writing after the crash (sweep, reconcile) and every document reads.
    static func storeOpensAndReads(_ crash: PowerLossHarness.Crash) -> [String] {
        let model = ModelFileSystem(crash.state)
        do {
            let reopened = try Store.open(at: store, options: options, system: SystemCalls(calls: model))
            var problems = try reopened.listWorkStreams().problems + (try reopened.customisations().problems)
            _ = try reopened.settings()
            if reopened.isWritable, try reopened.queueDocument() == nil {
                problems.append(StoreError(.notFound, "queue.json is missing in a v2 store"))
            }
            if !reopened.warnings.isEmpty { return ["open warns: \(reopened.warnings)"] }
            if let leftover = model.current.files(includeDotNames: true).keys.first(where: { $0.contains("/.tmp-") }) {
                return ["the temp file '\(leftover)' survived the sweep of open"]
            }
            return problems.map { "after open: \($0.message)" }
        } catch {
            return ["the store does not open: \(error)"]
        }
    }

    /// The store opens read-only after the crash and every document reads (cheaper than `storeOpensAndReads`).
    static func storeReads(_ crash: PowerLossHarness.Crash) -> [String] {
        do {
            let reader = try Store.open(at: store, options: Store.Options(readOnly: true), system: SystemCalls(calls: ModelFileSystem(crash.state)))
            return (try reader.listWorkStreams().problems + (try reader.customisations().problems)).map { "read-only: \($0.message)" }
        } catch {
            return ["the store does not open read-only: \(error)"]
        }
    }

    /// The backup folder is absent, or complete and verified (never partial).
    static func backupIsWholeOrAbsent(_ crash: PowerLossHarness.Crash) -> [String] {
        let model = ModelFileSystem(crash.state)
        guard (try? model.system_lstat(backup)) != nil else { return [] }
        do {
            let report = try BackupVerification.verify(backup: backup, system: SystemCalls(calls: model)).report
            return report.status == .ok ? [] : ["the backup exists but does not verify: \(report.problems)"]
        } catch {
            return ["the backup exists but can't be verified: \(error)"]
        }
    }

    /// After a writable open (which finishes or rolls back an interrupted restore), the store holds
    /// every document of the old store or every document of the backup (the backup if the restore
    /// was acknowledged), each whole; the backup is unchanged; a folder kept aside holds the old store.
    static func restoreRecovers(_ crash: PowerLossHarness.Crash) -> [String] {
        let model = ModelFileSystem(crash.state)
        do {
            _ = try Store.open(at: store, options: options, system: SystemCalls(calls: model))
        } catch {
            return ["the store does not open after the crash: \(error)"]
        }
        let files = model.current.files()
        func under(_ folder: String, _ tree: [String: [UInt8]]) -> [String: [UInt8]] {
            Dictionary(uniqueKeysWithValues: tree.filter { $0.key.hasPrefix(folder + "/") }.map { (String($0.key.dropFirst(folder.count)), $0.value) })
        }
        let old = under(store, crash.versions[0]), restored = under(store, crash.versions.last!)
        let now = under(store, files)
        var failures: [String] = []
        if now != restored && (now != old || crash.acknowledged == 1) {
            failures.append(
                crash.acknowledged == 1
                    ? "the acknowledged restore is not in the store" : "the store is neither the old one nor the restored one: \(now.keys.sorted())")
        }
        if under(backup, files) != under(backup, crash.versions[0]) { failures.append("the backup changed") }
        for folder in Set(files.keys.compactMap { $0.split(separator: "/").first.map(String.init) }) where folder.hasPrefix("store.replaced-") {
            if under("/" + folder, files) != old { failures.append("the folder kept aside, '/\(folder)', is not the old store") }
        }
        return failures
    }

    /// After the recovery a writable open runs first, `target` is absent (not acknowledged only) or
    /// holds exactly the source store's documents, and opens; the source store and the export are unchanged.
    static func importIsWholeOrAbsent(_ crash: PowerLossHarness.Crash, target: String) -> [String] {
        let model = ModelFileSystem(crash.state)
        let system = SystemCalls(calls: model)
        do {
            _ = try StoreSwap.recover(try SiblingPath(target), tool: "reliability-tests", version: "1", system: system)
        } catch {
            return ["recovery fails: \(error)"]
        }
        let files = model.current.files()
        func under(_ folder: String, _ tree: [String: [UInt8]]) -> [String: [UInt8]] {
            Dictionary(uniqueKeysWithValues: tree.filter { $0.key.hasPrefix(folder + "/") }.map { (String($0.key.dropFirst(folder.count)), $0.value) })
        }
        var failures: [String] = []
        let now = under(target, files), source = under(store, crash.versions[0])
        if now.isEmpty {
            if crash.acknowledged == 1 { failures.append("the acknowledged import is missing") }
        } else if now != source {
            failures.append("the imported store is partial or different: \(now.keys.sorted())")
        } else if (try? Store.open(at: target, options: options, system: system)) == nil {
            failures.append("the imported store does not open")
        }
        if under(store, files) != source { failures.append("the source store changed") }
        return failures
    }

    /// After open (which reconciles), the mirror a v1 reader sees equals `queue.json`, and the FIFO
    /// positions are 1...n without duplicates.
    static func queueIsConsistentAfterOpen(_ crash: PowerLossHarness.Crash) -> [String] {
        let model = ModelFileSystem(crash.state)
        do {
            let reopened = try Store.open(at: store, options: options, system: SystemCalls(calls: model))
            let summaries = try reopened.listWorkStreams().items
            guard let queue = try reopened.queueDocument() else { return ["queue.json missing after open"] }
            var failures: [String] = []
            if let failure = RollbackCheck.checkMirror(sessions: summaries.map(\.queueSummary), queue: queue) {
                failures.append("after open the mirror disagrees with queue.json: \(failure)")
            }
            let positions = summaries.filter(\.queueKeys.isInQueue).map { Int($0.queueKeys.queuePosition) }.sorted()
            if positions != Array(1..<(positions.count + 1)) {
                failures.append("FIFO positions after open are \(positions), not 1...\(positions.count)")
            }
            return failures
        } catch {
            return ["the store does not open: \(error)"]
        }
    }

    /// Before any v2 code reconciles it, a v1 reader (rollback) derives from the session keys the
    /// FIFO and priority queues of the last acknowledged operation or of the one in flight.
    static func v1QueueIsOldOrNew(_ crash: PowerLossHarness.Crash) -> [String] {
        var summaries: [WorkStreamQueueSummary] = []
        for (path, bytes) in crash.state.files() where path.contains("/sessions/") {
            guard let view = try? RollbackCheck.v1View(of: bytes) else { return ["a v1 reader can't read '\(path)'"] }
            summaries.append(WorkStreamQueueSummary(id: view.fields.id, schemaVersion: 1, keys: view.fields.queueKeys))
        }
        let derived = QueueBuilder.build(from: summaries)
        let candidates = [crash.acknowledged, crash.acknowledged + 1].filter { $0 < crash.versions.count }
            .compactMap { crash.versions[$0][store + "/queue.json"].flatMap { try? QueueV2(bytes: $0) } }
        var failures: [String] = []
        if !candidates.map({ $0.fifo.map(\.workStreamID) }).contains(derived.fifo.map(\.workStreamID)) {
            failures.append("a v1 reader derives the FIFO queue \(derived.fifo.map { $0.workStreamID.lowercased.suffix(2) }), neither the old nor the new")
        }
        if !candidates.map({ $0.priority.map(\.workStreamID) }).contains(derived.priority.map(\.workStreamID)) {
            failures.append("a v1 reader derives a priority queue that is neither the old nor the new")
        }
        return failures
    }

    /// Spec §6 "resumable": a v1 reader reads the crash state correctly, and the next migration
    /// finishes it, ending byte-identical to the uninterrupted run (migration timestamps aside).
    static func migrationResumes(_ crash: PowerLossHarness.Crash) -> [String] {
        var failures = v1ReaderReads(crash)
        let model = ModelFileSystem(crash.state)
        do {
            let system = SystemCalls(calls: model)
            let reopened = try Store.open(at: store, options: options, system: system)
            let report = try StoreMigrator(store: reopened).migrate(toolVersion: "1")
            if crash.acknowledged == crash.versions.count - 1 && !report.isNoop {
                failures.append("migrating the migrated store changed \(report.filesChanged) files")
            }
        } catch {
            return failures + ["the next migration fails: \(error)"]
        }
        let finished = model.current.files()
        let reference = crash.versions.last!
        for path in Set(finished.keys).union(reference.keys).sorted() {
            if path.hasSuffix("/store.json") {
                if finished[path].map(withoutTimestamps) != reference[path].map(withoutTimestamps) {
                    failures.append("after resuming, store.json differs from the uninterrupted run's")
                }
            } else if finished[path] != reference[path] {
                failures.append("after resuming, '\(path)' differs from the uninterrupted run's")
            }
        }
        return failures
    }

    /// Every customisation of the store before the workload is there after the crash, whole, with
    /// the bytes it had before or those of the last run (a reader never finds one missing or torn).
    static func customisationsAreOldOrNew(_ crash: PowerLossHarness.Crash) -> [String] {
        let files = crash.state.files()
        var failures: [String] = []
        for (path, before) in crash.versions[0] where path.hasPrefix(store + "/user-sessions/") {
            guard let now = files[path] else {
                failures.append("the customisation '\(path)' is missing")
                continue
            }
            if now != before && now != crash.versions.last![path] { failures.append("the customisation '\(path)' is neither old nor new") }
        }
        return failures
    }

    /// What each older reader sees (v1 and v2, spec §9): every session decodes, its values are those
    /// of the v1 document except the reported normalisations, a read-modify-write keeps every newer
    /// key, and the queue a v1 reader derives equals the v1 store's.
    static func v1ReaderReads(_ crash: PowerLossHarness.Crash) -> [String] {
        v1ReaderReads(crash.state.files(), original: crash.versions[0])
    }

    /// `files` and `original`: path → bytes, with work streams under a `/sessions/` folder. Each
    /// document is checked as a v1 and as a v2 reader, against the keys of its own version (a
    /// store in the middle of a migration holds documents of several versions).
    static func v1ReaderReads(_ files: [String: [UInt8]], original: [String: [UInt8]]) -> [String] {
        var failures: [String] = []
        var summaries: [WorkStreamQueueSummary] = []
        var originalSummaries: [WorkStreamQueueSummary] = []
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) where path.contains("/sessions/") {
            guard let before = original[path], let originalDocument = try? WorkStreamDocument(bytes: before) else { continue }
            originalSummaries.append(WorkStreamQueueSummary(originalDocument))
            do {
                let view = try RollbackCheck.v1View(of: bytes)
                summaries.append(WorkStreamQueueSummary(id: view.fields.id, schemaVersion: 1, keys: view.fields.queueKeys))
            } catch {
                failures.append("a v1 reader can't read '\(path)': \(error)")
                continue
            }
            if bytes != before {
                failures += ReaderCheckCache.shared.failures(path: path, bytes: bytes, original: before) {
                    let version = (try? DocumentVersion.peek(DocumentVersion.parse(bytes))) ?? 1
                    var found: [String] = []
                    for reader in 1...min(3, max(version, 2)) {
                        found += RollbackCheck.checkWorkStream(
                            bytes: bytes, file: path, original: originalDocument, reader: reader,
                            storeVersion: max(reader, version)
                        ).map { "v\(reader) reader: \($0)" }
                    }
                    return found
                }
            }
        }
        let derived = QueueBuilder.build(from: summaries), expected = QueueBuilder.build(from: originalSummaries)
        if derived.fifo.map(\.workStreamID) != expected.fifo.map(\.workStreamID) {
            failures.append(
                "the FIFO queue a v1 reader derives is \(derived.fifo.map { $0.workStreamID.lowercased.prefix(8) }), "
                    + "not \(expected.fifo.map { $0.workStreamID.lowercased.prefix(8) })")
        }
        if derived.priority.map(\.workStreamID) != expected.priority.map(\.workStreamID) {
            failures.append("the priority queue a v1 reader derives differs from the v1 store's")
        }
        for path in files.keys where !path.contains("/sessions/") && path.hasSuffix(".json") {
            if (try? DocumentVersion.parse(files[path]!)) == nil { failures.append("'\(path)' is not JSON") }
        }
        // The customisations and settings.json an upgrade rewrote, as every older reader (spec §11).
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) where bytes != original[path] {
            let kind: StoreLayout.DocumentKind
            if path.contains("/user-sessions/") { kind = .customisation } else if path.hasSuffix("/settings.json") { kind = .settings } else { continue }
            let version = (try? DocumentVersion.peek(DocumentVersion.parse(bytes))) ?? 1
            for reader in 1...3 where reader < version {
                failures += RollbackCheck.checkSmallDocument(
                    bytes: bytes, file: path, kind: kind, original: original[path], reader: reader, storeVersion: version
                ).map { "v\(reader) reader: \($0)" }
            }
        }
        return failures
    }

    /// `store.json` with the migration records' `started_at` and `finished_at` blanked.
    static func withoutTimestamps(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let pattern = try! NSRegularExpression(pattern: "\"(started_at|finished_at)\": \"[^\"]*\"")
        return pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "\"$1\": \"…\"")
    }
}

/// The reader checks of one document's bytes against its original, computed once: the crash
/// states of a run share most of their files (each is old or new), and checking a document as
/// two reader versions decodes, migrates and encodes it several times.
final class ReaderCheckCache: @unchecked Sendable {  // every access to `results` holds `lock`
    static let shared = ReaderCheckCache()
    private struct Key: Hashable {
        let path: String
        let bytes: [UInt8]
        let original: [UInt8]
    }
    private let lock = NSLock()
    private var results: [Key: [String]] = [:]

    func failures(path: String, bytes: [UInt8], original: [UInt8], compute: () -> [String]) -> [String] {
        let key = Key(path: path, bytes: bytes, original: original)
        if let known = lock.withLock({ results[key] }) { return known }
        let found = compute()
        lock.withLock {
            if results.count > 20_000 { results.removeAll() }
            results[key] = found
        }
        return found
    }
}
