import Foundation
import Testing

@testable import JSONStore

/// `BackupChain` takes a backup of any version to any version the chain reaches as `migrate`
/// does: the samples are that migration (`Samples/README.md`), so every pair of them compares
/// equal in every document kind, and a pair the chain can't join is nil. `Samples/v4-store` is
/// the chain of the v3 sample plus the user's state written through the library (two drafts, one
/// of them creating a customisation, and the app's preferences): those are the only differences.
@Suite struct BackupChainTests {
    static func open(_ version: Int) throws -> Store {
        try Store.open(at: Samples.path("v\(version)-store"), options: .readOnly)
    }

    /// Every (backup, store) pair with backup ≤ store, but for the pairs across the user's writes
    /// in the v4 sample (`theV4SampleIsTheChainOfAnOlderOnePlusTheUsersWrites`).
    static let pairs = [(1, 2), (1, 3), (2, 3), (4, 5), (2, 2), (3, 3), (4, 4), (5, 5)]

    @Test(arguments: pairs) func theSampleOfEveryVersionIsTheChainOfAnOlderOne(_ pair: (backup: Int, store: Int)) throws {
        let backup = try BackupChain.snapshot(of: try Self.open(pair.backup))
        let expected = try #require(try BackupChain.migrate(backup, to: pair.store))
        #expect(expected.manifest.schemaVersion == pair.store)
        let result = try BackupComparison.compare(try Self.open(pair.store), expected: expected, backupVersion: pair.backup)
        #expect(result.differences == [], "\(result.differences.map { "\($0.file): \($0.reason)" })")
        #expect(result.workStreams == 8 && result.customisations == (pair.store >= 4 ? 5 : 4) && result.settings)
        #expect(result.queue == (pair.store >= 2))
    }

    /// An older sample taken to v4 is the v4 sample but for the user's writes (§11): a draft on an
    /// existing customisation, a customisation the other draft created, and the preferences.
    @Test(arguments: [1, 2, 3]) func theV4SampleIsTheChainOfAnOlderOnePlusTheUsersWrites(_ backupVersion: Int) throws {
        let backup = try BackupChain.snapshot(of: try Self.open(backupVersion))
        let expected = try #require(try BackupChain.migrate(backup, to: 4))
        #expect(expected.manifest.schemaVersion == 4)
        let result = try BackupComparison.compare(try Self.open(4), expected: expected, backupVersion: backupVersion)
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
        let backup = try BackupChain.snapshot(of: try Self.open(5))
        let expected = try #require(try BackupChain.migrate(backup, to: 4))
        let result = try BackupComparison.compare(try Self.open(4), expected: expected, backupVersion: 5)
        #expect(
            result.differences == [
                BackupComparison.Difference(
                    file: "sessions/ad63adfa-7ad7-45dc-882c-80791120b6cc.json",
                    reason: "queued_at is '2025-10-28T08:33:10.031Z' in the store, null in the backup taken to v4")
            ])
    }

    /// No step takes a store back across a rollback-safe step.
    @Test(arguments: [(3, 2), (2, 1), (4, 3), (5, 3)]) func aPairTheChainCantJoinIsNil(_ pair: (backup: Int, store: Int)) throws {
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
