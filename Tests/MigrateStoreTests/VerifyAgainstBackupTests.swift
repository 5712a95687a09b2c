import Foundation
import Testing

/// `verify --against <backup>` compares every document kind (issue 32, item 6), run as the built
/// binary on stores migrated by the tool itself: the backup's work streams, customisations,
/// `settings.json` and `queue.json` are taken through the chain to the store's version and any
/// difference is reported by document with exit 69, whatever the backup's version.
@Suite struct VerifyAgainstBackupTests {
    static let network = "555a622d-4eba-4eda-8989-fc9e679fc303"
    static let plain = "1caaa999-8519-45f8-b97b-72e5454d2aee"

    /// `Samples/v1-store` migrated to v4 by the tool, with the backup it took (a v1 backup).
    static func v4FromV1(_ scratch: TemporaryDirectory) throws -> (store: String, backup: String) {
        let store = try scratch.copySample("v1-store", as: "store")
        let migrated = try BuiltTool.run(["migrate", store, "--backup-dir", scratch("backup1"), "--quiet"])
        try #require(migrated.code == 0, "\(migrated)")
        return (store, scratch("backup1"))
    }

    /// `Samples/v4-store` taken to v5 by the tool, with the backup it took (a v4 backup).
    static func v5FromV4(_ scratch: TemporaryDirectory) throws -> (store: String, backup: String) {
        let store = try scratch.copySample("v4-store", as: "store")
        let migrated = try BuiltTool.run(["migrate", store, "--to", "5", "--allow-breaking", "--backup-dir", scratch("backup4"), "--quiet"])
        try #require(migrated.code == 0, "\(migrated)")
        return (store, scratch("backup4"))
    }

    @Test func aV4StoreMatchesItsV1BackupInEveryDocumentKind() throws {
        let scratch = TemporaryDirectory()
        let (store, backup) = try Self.v4FromV1(scratch)
        let run = try BuiltTool.run(["verify", store, "--against", backup])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.contains(
                "  the backup taken from v1 to v4 through the chain: ok (8 work streams, 4 customisations, "
                    + "settings.json and queue.json compared)\n"), "\(run)")
    }

    @Test func aChangedCustomNameFailsAgainstTheV1Backup() throws {
        let scratch = TemporaryDirectory()
        let (store, backup) = try Self.v4FromV1(scratch)
        try VerifyKnownStoreTests.edit(store + "/user-sessions/\(Self.network).json", "Network layer: async/await", "Renamed")
        let run = try BuiltTool.run(["verify", store, "--against", backup])
        #expect(run.code == 69, "\(run)")
        #expect(
            run.stdout.contains(
                "  the backup taken from v1 to v4 through the chain: 1 difference\n"
                    + "    - user-sessions/\(Self.network).json: custom_name is 'Renamed' in the store, "
                    + "'Network layer: async/await' in the backup taken to v4\n"), "\(run)")
        #expect(run.stdout.hasSuffix("Verification failed.\n"), "\(run)")
        let json = try BuiltTool.run(["--json", "verify", store, "--against", backup])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let comparison = try #require(object["backup_comparison"] as? [String: Any])
        #expect(comparison["backup_schema_version"] as? Int == 1 && comparison["store_schema_version"] as? Int == 4)
        #expect((comparison["differences"] as? [[String: String]])?.map { $0["file"] } == ["user-sessions/\(Self.network).json"])
    }

    @Test func deletedCustomisationsAndSettingsFailAgainstTheV1Backup() throws {
        let scratch = TemporaryDirectory()
        let (store, backup) = try Self.v4FromV1(scratch)
        try FileManager.default.removeItem(atPath: store + "/user-sessions")
        try FileManager.default.removeItem(atPath: store + "/settings.json")
        let run = try BuiltTool.run(["verify", store, "--against", backup])
        #expect(run.code == 69, "\(run)")
        #expect(run.stdout.contains("  the backup taken from v1 to v4 through the chain: 5 differences\n"), "\(run)")
        #expect(run.stdout.contains("    - user-sessions/\(Self.plain).json: in the backup but not in the store\n"), "\(run)")
        #expect(run.stdout.contains("    - settings.json: in the backup but not in the store\n"), "\(run)")
    }

    @Test(arguments: ["deleted", "reordered"]) func aV5StoreWhoseQueueChangedFailsAgainstItsV4Backup(_ change: String) throws {
        let scratch = TemporaryDirectory()
        let (store, backup) = try Self.v5FromV4(scratch)
        let queue = store + "/queue.json"
        if change == "deleted" {
            try FileManager.default.removeItem(atPath: queue)
        } else {
            try VerifyKnownStoreTests.edit(queue, "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b", "swap-placeholder")
            try VerifyKnownStoreTests.edit(queue, "555a622d-4eba-4eda-8989-fc9e679fc303", "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b")
            try VerifyKnownStoreTests.edit(queue, "swap-placeholder", "555a622d-4eba-4eda-8989-fc9e679fc303")
        }
        let run = try BuiltTool.run(["verify", store, "--against", backup])
        #expect(run.code == 69, "\(run)")
        let (login, network) = ("'ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b'", "'555a622d-4eba-4eda-8989-fc9e679fc303'")
        let reason =
            change == "deleted"
            ? "in the backup but not in the store"
            : "fifo[0].work_stream_id is \(network) in the store, \(login) in the backup taken to v5; "
                + "fifo[1].work_stream_id is \(login) in the store, \(network) in the backup taken to v5"
        #expect(run.stdout.contains("  the backup taken from v4 to v5 through the chain: 1 difference\n    - queue.json: \(reason)\n"), "\(run)")
        #expect(run.stdout.hasSuffix("Verification failed.\n"), "\(run)")
    }

    /// A v5 store against the v1 backup taken before its first migration: compared through the
    /// whole chain (never a silent fall back to the store alone).
    @Test func aV5StoreIsComparedWithItsV1BackupThroughTheWholeChain() throws {
        let scratch = TemporaryDirectory()
        let (store, backup1) = try Self.v4FromV1(scratch)
        let breaking = try BuiltTool.run(["migrate", store, "--to", "5", "--allow-breaking", "--backup-dir", scratch("backup4"), "--quiet"])
        try #require(breaking.code == 0, "\(breaking)")
        let run = try BuiltTool.run(["verify", store, "--against", backup1])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.contains(
                "  the backup taken from v1 to v5 through the chain: ok (8 work streams, 4 customisations, "
                    + "settings.json and queue.json compared)\n"), "\(run)")
        #expect(!run.stdout.contains("Note: without --against"), "\(run)")
        try VerifyKnownStoreTests.edit(store + "/user-sessions/\(Self.network).json", "Network layer: async/await", "Renamed")
        let failing = try BuiltTool.run(["verify", store, "--against", backup1])
        #expect(failing.code == 69, "\(failing)")
        #expect(
            failing.stdout.contains(
                "    - user-sessions/\(Self.network).json: custom_name is 'Renamed' in the store, "
                    + "'Network layer: async/await' in the backup taken to v5\n"), "\(failing)")
    }

    /// No step takes a v3 backup back to a v2 store: refused with 65, naming both versions.
    @Test func aBackupNewerThanTheStoreWithNoInverseIsRefusedWith65() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let run = try BuiltTool.run(["verify", store, "--against", Samples.v3Store])
        #expect(run.code == 65, "\(run)")
        #expect(run.stderr.contains("the backup '\(Samples.v3Store)' is at schema version 3 and the store at 2"), "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
    }
}
