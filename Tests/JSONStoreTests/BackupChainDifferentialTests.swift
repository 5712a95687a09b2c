import Foundation
import StoreGenerator
import TestSupport
import Testing

@testable import JSONStore

/// `verify --against` streams (`BackupChain`, `BackupComparison.compare(_:expected:)`,
/// `BreakingStepVerifier`): held here to the in-memory computation it replaced
/// (`BackupChainOracle`, `BreakingStepVerifierOracle`: every document of the backup in one
/// `StoreSnapshot`, taken through the chain by `StoreMigration`), which must give the same
/// findings in the same order, the same counts, the same refusals and the same errors.
///
/// On every pair of the samples (`Samples/v1-store` … `v5-store`, each as the store and as the
/// backup), on each sample with one document altered or removed, on a generated store (edge cases
/// of the queue: duplicate and stale positions) migrated to v4 and v5 by the library against its
/// v1 and v4 states, and on backups with unreadable documents.
@Suite struct BackupChainDifferentialTests {
    /// What one way of computing `verify --against` gives, rendered for comparison.
    enum Outcome: Equatable, CustomStringConvertible {
        /// No chain leads from the backup's version to the store's.
        case refused
        /// An error, by its message (a `SchemaError`'s description for a step that failed).
        case failed(String)
        /// The comparison, then the round trip of the breaking step when the store is past it
        /// or the backup is (each line one count or one finding).
        case compared([String])

        var description: String {
            switch self {
            case .refused: "refused"
            case .failed(let message): "failed: \(message)"
            case .compared(let lines): lines.joined(separator: "\n")
            }
        }
    }

    static func lines(_ result: BackupComparison.Result) -> [String] {
        [
            "v\(result.backupVersion) -> v\(result.storeVersion)", "work streams \(result.workStreams)",
            "customisations \(result.customisations)", "settings \(result.settings)", "queue \(result.queue)",
        ] + result.differences.map { "difference \($0.file): \($0.reason)" }
    }

    static func lines(_ result: BreakingStepVerifier.Result) -> [String] {
        [
            "round trip: checked \(result.checked), normalisations \(result.normalisations), "
                + "with the backup \(result.comparedWithBackup), inverse \(result.inverse)"
        ]
            + result.unreadable.map { "unreadable: \($0.message)" } + result.failures.map { "failure: \($0)" }
            + result.readers.map { "reader v\($0.reader): refused \($0.refused), \($0.message)" }
    }

    /// The round trip a store at `storeVersion` gets against a backup at `backupVersion`, as
    /// `VerifyCommand` asks for it: against the backup taken to v4 (a v5 store, an older backup),
    /// against the backup as it is (a v4 store, a v5 backup), or none.
    static func roundTripTarget(store storeVersion: Int, backup backupVersion: Int) -> Int? {
        let step = MigrationChain.folderRenamingStep
        if storeVersion >= step.to { return backupVersion < step.to ? step.from : nil }
        return backupVersion >= step.to ? backupVersion : nil
    }

    /// The streaming computation, as `verify --against` runs it.
    static func streaming(store: String, backup: String) throws -> Outcome {
        let opened = try Store.open(at: store, options: .readOnly)
        let storeVersion = opened.compatibility.storeSchemaVersion
        do throws(StoreError) {
            let source = try BackupChain.read(try Store.open(at: backup, options: .readOnly))
            guard let expected = try BackupChain(source, to: storeVersion) else { return .refused }
            var lines = Self.lines(try BackupComparison.compare(opened, expected: expected))
            if let target = roundTripTarget(store: storeVersion, backup: source.version) {
                guard let original = try BackupChain(source, to: target) else { return .failed("no chain to v\(target)") }
                lines += Self.lines(try BreakingStepVerifier(path: store, against: original).verify())
            }
            return .compared(lines)
        } catch {
            if let failure = error.underlying as? BackupChain.ChainFailure { return .failed("\(failure.error)") }
            return .failed(error.message)
        }
    }

    /// The in-memory computation it replaced.
    static func inMemory(store: String, backup: String) throws -> Outcome {
        let opened = try Store.open(at: store, options: .readOnly)
        let storeVersion = opened.compatibility.storeSchemaVersion
        let snapshot: StoreSnapshot
        do { snapshot = try BackupChainOracle.snapshot(of: try Store.open(at: backup, options: .readOnly)) } catch { return .failed(error.message) }
        let expected: StoreSnapshot?
        do { expected = try BackupChainOracle.migrate(snapshot, to: storeVersion) } catch { return .failed("\(error)") }
        guard let expected else { return .refused }
        let version = snapshot.manifest.schemaVersion
        var lines = Self.lines(try BackupChainOracle.compare(opened, expected: expected, backupVersion: version))
        if let target = roundTripTarget(store: storeVersion, backup: version) {
            guard let original = try BackupChainOracle.migrate(snapshot, to: target) else { return .failed("no chain to v\(target)") }
            lines += Self.lines(try BreakingStepVerifierOracle(path: store, against: original).verify())
        }
        return .compared(lines)
    }

    static func expectSame(store: String, backup: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let streamed = try streaming(store: store, backup: backup)
        let oracle = try inMemory(store: store, backup: backup)
        #expect(streamed == oracle, "store \(store), backup \(backup)", sourceLocation: sourceLocation)
    }

    /// The folder of the work streams of a store at `version`.
    static func workStreams(_ store: String) throws -> String {
        let renamed = store + "/" + StoreLayout.renamedWorkStreamsFolder
        return FileManager.default.fileExists(atPath: renamed) ? renamed : store + "/" + StoreLayout.workStreamsFolder
    }

    /// Replaces the first `target` in `file` by `replacement`.
    static func edit(_ file: String, _ target: String, _ replacement: String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let range = try #require(text.range(of: target), "\(file) has no \(target)")
        try text.replacingCharacters(in: range, with: replacement).write(toFile: file, atomically: true, encoding: .utf8)
    }

    static let versions = Array(MigrationChain.oldest...MigrationChain.newest)
    static let workStream = "1caaa999-8519-45f8-b97b-72e5454d2aee"
    static let customisation = "555a622d-4eba-4eda-8989-fc9e679fc303"

    /// Every sample against every sample: equal, differing, or refused (no chain back across a
    /// rollback-safe step).
    @Test(arguments: versions) func everySamplePairGivesWhatTheInMemoryChainGives(_ storeVersion: Int) throws {
        for backupVersion in Self.versions {
            try Self.expectSame(store: Samples.path("v\(storeVersion)-store"), backup: Samples.path("v\(backupVersion)-store"))
        }
    }

    enum Alteration: String, CaseIterable, Sendable {
        case messageText, customName, workStreamRemoved, settingsRemoved, queueRemoved
    }

    /// Each sample with one document altered (or removed), against every sample.
    @Test(arguments: versions, Alteration.allCases) func anAlteredSampleGivesWhatTheInMemoryChainGives(_ storeVersion: Int, _ alteration: Alteration)
        throws
    {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v\(storeVersion)-store", as: "store")
        let document = try Self.workStreams(store) + "/\(Self.workStream).json"
        switch alteration {
        case .messageText: try Self.edit(document, "\"text\": \"", "\"text\": \"Altered: ")
        case .customName: try Self.edit(store + "/user-sessions/\(Self.customisation).json", "Network layer", "Altered layer")
        case .workStreamRemoved: try FileManager.default.removeItem(atPath: document)
        case .settingsRemoved: try FileManager.default.removeItem(atPath: store + "/settings.json")
        case .queueRemoved:
            guard FileManager.default.fileExists(atPath: store + "/queue.json") else { return }
            try FileManager.default.removeItem(atPath: store + "/queue.json")
        }
        for backupVersion in Self.versions {
            try Self.expectSame(store: store, backup: Samples.path("v\(backupVersion)-store"))
        }
    }

    /// A generated v1 store (duplicate and stale queue positions, orphan customisations, messages
    /// naming another work stream) migrated by the library to v4, then to v5, each state against
    /// each, with and without one altered work stream.
    @Test func aGeneratedStoreMigratedByTheLibraryGivesWhatTheInMemoryChainGives() throws {
        let scratch = TemporaryDirectory()
        let v1 = scratch("v1")
        _ = try StoreGenerator(seed: 11, workStreams: 120, messagesPerStream: 3).write(to: v1)
        let v4 = try scratch.copy(v1, as: "v4")
        _ = try StoreUpgrade.run(at: v4, backup: .none, tool: "test", version: "1")
        let v5 = try scratch.copy(v4, as: "v5")
        _ = try StoreUpgrade.run(at: v5, to: 5, backup: .folder(scratch("v5-backup")), allowBreaking: true, tool: "test", version: "1")
        let states = [v1, v4, v5]
        for store in states {
            for backup in states { try Self.expectSame(store: store, backup: backup) }
        }
        for store in [v4, v5] {
            let altered = try scratch.copy(store, as: "altered-" + (store as NSString).lastPathComponent)
            let folder = try Self.workStreams(altered)
            let first = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted().first)
            try Self.edit(folder + "/" + first, "\"text\": \"", "\"text\": \"Altered: ")
            for backup in states { try Self.expectSame(store: altered, backup: backup) }
        }
    }

    /// A backup with unreadable documents is refused with the same error, naming how many and the first.
    @Test(arguments: [3, 5]) func aBackupWithUnreadableDocumentsFailsAsTheInMemoryChainFails(_ version: Int) throws {
        let scratch = TemporaryDirectory()
        let backup = try scratch.copySample("v\(version)-store", as: "backup")
        try Self.edit(try Self.workStreams(backup) + "/\(Self.workStream).json", "{", "[")
        try Self.edit(backup + "/user-sessions/\(Self.customisation).json", "{", "{,")
        let streamed = try Self.streaming(store: Samples.path("v\(version)-store"), backup: backup)
        #expect(streamed == (try Self.inMemory(store: Samples.path("v\(version)-store"), backup: backup)))
        guard case .failed(let message) = streamed else {
            Issue.record("expected a failure, got \(streamed)")
            return
        }
        #expect(message.contains("2 of its documents can't be read"), "\(message)")
    }
}
