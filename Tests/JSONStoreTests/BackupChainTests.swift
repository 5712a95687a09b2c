import Foundation
import Testing

@testable import JSONStore

/// `BackupChain` takes a backup of any version to any version the chain reaches as `migrate`
/// does: the samples are that migration (`Samples/README.md`), so every pair of them compares
/// equal in every document kind, and a pair the chain can't join is nil.
@Suite struct BackupChainTests {
    static func open(_ version: Int) throws -> Store {
        try Store.open(at: Samples.path("v\(version)-store"), options: .readOnly)
    }

    /// Every (backup, store) pair with backup ≤ store.
    static let pairs = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4), (2, 2), (3, 3), (4, 4)]

    @Test(arguments: pairs) func theSampleOfEveryVersionIsTheChainOfAnOlderOne(_ pair: (backup: Int, store: Int)) throws {
        let backup = try BackupChain.snapshot(of: try Self.open(pair.backup))
        let expected = try #require(try BackupChain.migrate(backup, to: pair.store))
        #expect(expected.manifest.schemaVersion == pair.store)
        let result = try BackupComparison.compare(try Self.open(pair.store), expected: expected, backupVersion: pair.backup)
        #expect(result.differences == [], "\(result.differences.map { "\($0.file): \($0.reason)" })")
        #expect(result.workStreams == 8 && result.customisations == 4 && result.settings)
        #expect(result.queue == (pair.store >= 2))
    }

    /// The inverse takes the v4 sample back to the v3 one but for the stale mirror value the step
    /// reported and dropped (spec §12): the one difference the comparison finds.
    @Test func theInverseOfTheV4SampleIsTheV3SampleButTheReportedNormalisation() throws {
        let backup = try BackupChain.snapshot(of: try Self.open(4))
        let expected = try #require(try BackupChain.migrate(backup, to: 3))
        let result = try BackupComparison.compare(try Self.open(3), expected: expected, backupVersion: 4)
        #expect(
            result.differences == [
                BackupComparison.Difference(
                    file: "sessions/ad63adfa-7ad7-45dc-882c-80791120b6cc.json",
                    reason: "queued_at is '2025-10-28T08:33:10.031Z' in the store, null in the backup taken to v3")
            ])
    }

    /// No step takes a store back across a rollback-safe step.
    @Test(arguments: [(3, 2), (2, 1), (4, 2)]) func aPairTheChainCantJoinIsNil(_ pair: (backup: Int, store: Int)) throws {
        let backup = try BackupChain.snapshot(of: try Self.open(pair.backup))
        #expect(try BackupChain.migrate(backup, to: pair.store) == nil)
    }

    /// One changed value is one difference naming the document and the key path.
    @Test func aChangedValueIsNamedByDocumentAndKeyPath() throws {
        var expected = try BackupChain.snapshot(of: try Self.open(3))
        let id = try #require(UUID(uuidString: "555a622d-4eba-4eda-8989-fc9e679fc303"))
        expected.userSessions[id]?.customName = "Before"
        let result = try BackupComparison.compare(try Self.open(3), expected: expected, backupVersion: 3)
        #expect(
            result.differences == [
                BackupComparison.Difference(
                    file: "user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json",
                    reason: "custom_name is 'Network layer: async/await' in the store, 'Before' in the backup taken to v3")
            ])
    }
}
