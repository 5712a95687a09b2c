import Foundation
import Schema
import StoreJSON
import Testing

@testable import JSONStore

private typealias W = PowerLossWorkloads

/// The breaking step v4 → v5 and its inverse, run by the one engine (`StoreMigrator`), cut by a power loss after every call
/// (`PowerLossHarness`). At every crash state the store is a v4 store a v4 reader reads exactly
/// as before, or a v5 store a v5 reader reads exactly as the uninterrupted run wrote it (never
/// neither); and running the step again ends with the uninterrupted run's documents.
@Suite struct LayoutChangePowerLossTests {
    static let readOnly = Store.Options(readOnly: true, tool: "reliability-tests", version: "1", lockTimeout: .zero)

    /// The one engine's migration across the folder rename, as `migrate` runs it (lock, sweep,
    /// check, stage, commit, removal of the old folder).
    static func rename(_ direction: StoreMigrator.FolderRename, system: SystemCalls) throws {
        _ = try StoreMigrator(store: try Store.open(at: W.store, options: readOnly, system: system)).migrate(to: direction.to, toolVersion: "1")
    }

    /// The v1 sample migrated to v4 (plain `migrate`), durable: the start of the breaking step.
    static func v4Store() throws -> ModelState {
        let model = ModelFileSystem(try W.v1Store())
        let system = SystemCalls(calls: model)
        _ = try StoreMigrator(store: try Store.open(at: W.store, options: W.options, system: system)).migrate(toolVersion: "1")
        model.syncEverything()
        return model.current
    }

    /// `v4Store()` after the breaking step, durable: the start of the inverse.
    static func v5Store() throws -> ModelState {
        let model = ModelFileSystem(try v4Store())
        try rename(.forward, system: SystemCalls(calls: model))
        model.syncEverything()
        return model.current
    }

    static func step(_ direction: StoreMigrator.FolderRename) -> [(SystemCalls) throws -> Void] {
        [{ system in try rename(direction, system: system) }]
    }

    /// What a reader of the version `store.json` says sees: that version's folder, complete, each
    /// document byte for byte the one of the complete store of that version (`before` or `after`
    /// of the run, whichever is at that version), readable by that version's frozen types.
    static func readerOfTheStoresVersionReads(_ files: [String: [UInt8]], before: [String: [UInt8]], after: [String: [UInt8]]) -> [String] {
        guard let manifestBytes = files[W.store + "/store.json"],
            let header = try? ManifestHeader(json: try DocumentVersion.parse(manifestBytes))
        else {
            return ["store.json is missing or unreadable: neither a v4 nor a v5 reader opens the store"]
        }
        let version = header.schemaVersion
        guard version == 4 || version == 5 else { return ["store.json says \(version)"] }
        let complete = [before, after].first {
            ($0[W.store + "/store.json"].flatMap { try? ManifestHeader(json: try DocumentVersion.parse($0)) })?.schemaVersion == version
        }!
        let folder = W.store + "/" + StoreLayout.workStreamsFolder(schemaVersion: version) + "/"
        var failures: [String] = []
        let seen = files.filter { $0.key.hasPrefix(folder) }, expected = complete.filter { $0.key.hasPrefix(folder) }
        if Set(seen.keys) != Set(expected.keys) {
            failures.append("a v\(version) reader sees \(seen.count) work streams in \(folder), the complete store has \(expected.count)")
        }
        for (path, bytes) in seen.sorted(by: { $0.key < $1.key }) {
            if bytes != expected[path] { failures.append("a v\(version) reader sees '\(path)' differ from the complete v\(version) store's") }
            let decodes = (try? WorkStreamDocument(bytes: bytes, frozenVersion: version)) != nil
            if !decodes { failures.append("a v\(version) reader can't decode '\(path)'") }
        }
        // Small documents: a v4 reader refuses a version-5 one in a v4 store.
        for (path, bytes) in files where path.hasPrefix(W.store + "/user-sessions/") || path.hasSuffix("/settings.json") || path.hasSuffix("/queue.json") {
            guard let documentVersion = try? DocumentVersion.peek(try DocumentVersion.parse(bytes)) else {
                failures.append("'\(path)' is unreadable")
                continue
            }
            if documentVersion > version { failures.append("'\(path)' has schema_version \(documentVersion) in a v\(version) store") }
        }
        return failures
    }

    static func layoutChangeResumes(_ direction: StoreMigrator.FolderRename) -> (PowerLossHarness.Crash) -> [String] {
        { crash in
            var failures = readerOfTheStoresVersionReads(crash.state.files(), before: crash.versions[0], after: crash.versions.last!)
            let model = ModelFileSystem(crash.state)
            do {
                try rename(direction, system: SystemCalls(calls: model))
            } catch {
                return failures + ["the next run fails: \(error)"]
            }
            let finished = model.current.files(), reference = crash.versions.last!
            for path in Set(finished.keys).union(reference.keys).sorted() {
                let same =
                    path.hasSuffix("/store.json")
                    ? finished[path].map(W.withoutTimestamps) == reference[path].map(W.withoutTimestamps) : finished[path] == reference[path]
                if !same { failures.append("after the next run, '\(path)' differs from the uninterrupted run's") }
            }
            return failures
        }
    }

    @Test(arguments: [true, false])
    func breakingStepCutByPowerLossLeavesAV4OrAV5StoreAndResumes(syncFS: Bool) throws {
        var harness = PowerLossHarness()
        harness.seam = { model in
            model.supportsSyncFS = syncFS; return model
        }
        let outcome = harness.run(initial: try Self.v4Store(), operations: Self.step(.forward), extraCheck: Self.layoutChangeResumes(.forward))
        PowerLossTests.report("breaking step v4 → v5 (syncfs \(syncFS))", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.prefix(10).joined(separator: "\n"))")
        #expect(outcome.crashPoints > 10)
        #expect(outcome.versions.last?.keys.contains(W.store + "/work-streams/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json") == true)
    }

    @Test func inverseCutByPowerLossLeavesAV5OrAV4StoreAndResumes() throws {
        let harness = PowerLossHarness()
        let outcome = harness.run(initial: try Self.v5Store(), operations: Self.step(.inverse), extraCheck: Self.layoutChangeResumes(.inverse))
        PowerLossTests.report("inverse v5 → v4", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.prefix(10).joined(separator: "\n"))")
        #expect(outcome.crashPoints > 10)
        #expect(outcome.versions.last?.keys.contains(W.store + "/sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json") == true)
    }

    /// The mutant of the issue: the old folder removed before the new `store.json` is durable
    /// (here: the store folder's fsync after the rename into place, and the manifest's, do
    /// nothing). A power loss can then bring back a v4 `store.json` with no `sessions/`.
    @Test(arguments: [StoreMigrator.FolderRename.forward, .inverse])
    func harnessCatchesTheOldFolderRemovedBeforeTheNewManifestIsDurable(_ direction: StoreMigrator.FolderRename) throws {
        var harness = PowerLossHarness()
        harness.seam = { OldFolderGoneFirst($0) }
        harness.limitPerCrashPoint = environmentInteger("RELIABILITY_CRASH_LIMIT", default: 48, full: 1024)
        let initial = direction == .forward ? try Self.v4Store() : try Self.v5Store()
        let outcome = harness.run(initial: initial, operations: Self.step(direction), extraCheck: Self.layoutChangeResumes(direction))
        // Caught by what a reader sees of the layout, not only by a small document's lost write.
        let layout = outcome.failures.filter { $0.contains("reader") }
        print(
            "mutant [old folder removed before the new manifest is durable] on [\(direction)]: \(outcome.statesChecked) crash states, "
                + "\(outcome.failures.count) failures, \(layout.count) of the layout; first: \(layout.first ?? "none")")
        #expect(!layout.isEmpty, "the mutant escaped the layout checks")
    }
}

/// Mutant: folder fsyncs of the store folder itself do nothing, so neither the rename of the new
/// folder into place nor the new `store.json` is durable when the old folder is removed.
final class OldFolderGoneFirst: ForwardingCalls, @unchecked Sendable {
    private let lock = NSLock()
    private var storeFolderDescriptors: Set<Int32> = []

    override func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        let fd = try base.system_open(path, flags, mode)
        if path == PowerLossWorkloads.store { lock.withLock { _ = storeFolderDescriptors.insert(fd) } }
        return fd
    }
    override func system_close(_ fd: Int32) throws(Errno) {
        lock.withLock { _ = storeFolderDescriptors.remove(fd) }
        try base.system_close(fd)
    }
    override func system_fsync(_ fd: Int32) throws(Errno) {
        if lock.withLock({ storeFolderDescriptors.contains(fd) }) { return }
        try base.system_fsync(fd)
    }
}
