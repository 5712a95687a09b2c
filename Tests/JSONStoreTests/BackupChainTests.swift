import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// `BackupChain` takes a backup of any version to any version the chain reaches as `migrate`
/// does, one document at a time (`BackupChainDifferentialTests` holds it to the in-memory chain): the samples are that migration (`Samples/README.md`), so every pair of them compares
/// equal in every document kind, and a pair the chain can't join is nil. `Samples/v4-store` is
/// the chain of the v3 sample plus the user's state written through the library (two drafts, one
/// of them creating a customisation, and the app's preferences): those are the only differences.
@Suite struct BackupChainTests {
    static func open(_ version: Int) throws -> Store {
        try Store.open(at: Samples.path("v\(version)-store"), options: .readOnly)
    }

    /// The sample of `version` taken to `target`, read on demand; nil when no chain leads there.
    static func chain(_ version: Int, to target: Int) throws -> BackupChain? {
        try BackupChain(try BackupChain.read(try open(version)), to: target)
    }

    /// Every (backup, store) pair with backup ≤ store, but for the pairs across the user's writes
    /// in the v4 sample (`theV4SampleIsTheChainOfAnOlderOnePlusTheUsersWrites`).
    static let pairs = [(1, 2), (1, 3), (2, 3), (4, 5), (2, 2), (3, 3), (4, 4), (5, 5)]

    @Test(arguments: pairs) func theSampleOfEveryVersionIsTheChainOfAnOlderOne(_ pair: (backup: Int, store: Int)) throws {
        let expected = try #require(try Self.chain(pair.backup, to: pair.store))
        #expect(expected.manifest.schemaVersion == pair.store)
        let result = try BackupComparison.compare(try Self.open(pair.store), expected: expected)
        #expect(result.backupVersion == pair.backup && result.storeVersion == pair.store)
        #expect(result.differences == [], "\(result.differences.map { "\($0.file): \($0.reason)" })")
        #expect(result.workStreams == 8 && result.customisations == (pair.store >= 4 ? 5 : 4) && result.settings)
        #expect(result.queue == (pair.store >= 2))
    }

    /// An older sample taken to v4 is the v4 sample but for the user's writes (§11): a draft on an
    /// existing customisation, a customisation the other draft created, and the preferences.
    @Test(arguments: [1, 2, 3]) func theV4SampleIsTheChainOfAnOlderOnePlusTheUsersWrites(_ backupVersion: Int) throws {
        let expected = try #require(try Self.chain(backupVersion, to: 4))
        #expect(expected.manifest.schemaVersion == 4)
        let result = try BackupComparison.compare(try Self.open(4), expected: expected)
        #expect(
            result.differences == [
                BackupComparison.Difference(
                    file: "user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json",
                    reason: "draft is 'Also rename the async helpers' in the store, null in the backup taken to v4"),
                BackupComparison.Difference(
                    file: "user-sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json", reason: "in the store but not in the backup"),
                BackupComparison.Difference(
                    file: "settings.json",
                    reason:
                        "command_mru.build is '2025-11-20T08:05:00.000Z' in the store, absent in the backup taken to v4; command_mru.git.status is '2025-11-20T09:05:00.000Z' in the store, absent in the backup taken to v4; last_used_directory is '/Users/maya/code/acme-ios' in the store, null in the backup taken to v4; and 7 more"
                ),
            ])
    }

    /// The inverse takes the v5 sample back to the v4 one but for the stale mirror value the step
    /// reported and dropped (spec §12): the one difference the comparison finds.
    @Test func theInverseOfTheV5SampleIsTheV4SampleButTheReportedNormalisation() throws {
        let expected = try #require(try Self.chain(5, to: 4))
        let result = try BackupComparison.compare(try Self.open(4), expected: expected)
        #expect(
            result.differences == [
                BackupComparison.Difference(
                    file: "sessions/ad63adfa-7ad7-45dc-882c-80791120b6cc.json",
                    reason: "queued_at is '2025-10-28T08:33:10.031Z' in the store, null in the backup taken to v4")
            ])
    }

    /// No step takes a store back across a rollback-safe step.
    @Test(arguments: [(3, 2), (2, 1), (4, 3), (5, 3)]) func aPairTheChainCantJoinIsNil(_ pair: (backup: Int, store: Int)) throws {
        #expect(try Self.chain(pair.backup, to: pair.store) == nil)
    }

    /// One changed value is one difference naming the document and the key path.
    @Test func aChangedValueIsNamedByDocumentAndKeyPath() throws {
        let scratch = TemporaryDirectory()
        let path = try scratch.copySample("v3-store", as: "store")
        let file = path + "/user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try #require(text.contains("Network layer: async/await"))
        try text.replacingOccurrences(of: "Network layer: async/await", with: "Before").write(toFile: file, atomically: true, encoding: .utf8)
        let expected = try #require(try Self.chain(3, to: 3))
        let result = try BackupComparison.compare(try Store.open(at: path, options: .readOnly), expected: expected)
        #expect(
            result.differences == [
                BackupComparison.Difference(
                    file: "user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json",
                    reason: "custom_name is 'Before' in the store, 'Network layer: async/await' in the backup taken to v3")
            ])
    }
}
