import Foundation
import StoreJSON
import Testing

@testable import JSONStore

@Suite(.serialized) struct RollbackEndToEndTests {
    static let login = UUID(uuidString: "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b")!
    static let network = UUID(uuidString: "555a622d-4eba-4eda-8989-fc9e679fc303")!
    static let drafts = UUID(uuidString: "ec3629cb-f446-449f-b8a0-f43e156345d8")!
    static let plain = UUID(uuidString: "c25e47cd-f10a-49a3-9ec4-a9355366da75")!
    static let compacted = "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b"

    /// What a shipped v1 app does to a document: decode with the v1 type, change it, write schema_version 1.
    static func v1Write(_ store: String, _ id: UUID, _ change: (inout WorkStreamV1) -> Void) throws {
        let path = store + "/sessions/\(id.lowercased).json"
        var session = try WorkStreamV1(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), acceptingNewerVersions: true)
        change(&session)
        session.schemaVersion = 1
        try Data(session.encoded).write(to: URL(fileURLWithPath: path))
    }

    /// v1 → migrate (to v4) → v4 writes (incl. compaction) → v1 writer edits, queue moves, a
    /// deletion and a new work stream → migrate again → verify: nothing either side wrote is lost.
    /// (`VersionChainEndToEndTests` does the same with a v2 writer.)
    @Test func fullRollbackCycleLosesNothing() throws {
        let temporary = TemporaryDirectory("cycle")
        let dir = temporary.path
        let path = dir + "/store"
        try Samples.copy("v1-store", to: path)
        #expect(try BuiltTool.run(["migrate", path, "--no-backup", "--quiet"]).code == 0)

        // Current (v4) app: compaction replaces the provider session of 'login'; a message is sent in 'plain'.
        let store = try Store.open(at: path)
        try store.updateWorkStream(Self.login) { $0.providerSessionID = Self.compacted }
        try store.enqueue(Self.plain)

        // v1 app (rollback): edits 'network', removes 'login' from the queue closing the gap,
        // deletes 'drafts', creates a new queued work stream.
        try Self.v1Write(path, Self.network) {
            $0.fields.preview = "edited by v1"; $0.fields.queuePosition = 1
        }
        try Self.v1Write(path, Self.login) {
            $0.fields.isInQueue = false; $0.fields.queuePosition = 0
        }
        try FileManager.default.removeItem(atPath: path + "/sessions/\(Self.drafts.lowercased).json")
        let newID = UUID(uuidString: "7b7b7b7b-1111-4222-8333-444444444444")!
        var created = WorkStreamV1(
            fields: WorkStreamFieldsV1(
                WorkStreamKeys(
                    id: newID, backendName: "Created by v1", workingDirectory: "/w",
                    lastModified: RFC3339.parse("2025-11-21T08:00:00.000Z")!,
                    isInQueue: true, queuePosition: 3)))
        created.schemaVersion = 1
        try Data(created.encoded).write(to: URL(fileURLWithPath: path + "/sessions/\(newID.lowercased).json"))

        let status = try BuiltTool.run(["status", path, "--json"])
        #expect(status.stdout.contains("\"migration\": \"touched_by_older_writer\""))
        let again = try BuiltTool.run(["migrate", path, "--no-backup"])
        #expect(again.code == 0, "\(again.stderr)")
        let verify = try BuiltTool.run(["verify", path])
        #expect(verify.code == 0, "\(verify.stdout)")

        let after = try Store.open(at: path, options: .readOnly)
        guard case .v3(let login) = try after.workStream(Self.login), case .v3(let network) = try after.workStream(Self.network),
            case .v3(let new) = try after.workStream(newID)
        else { Issue.record("not all upgraded"); return }
        #expect(login.providerSessionID == Self.compacted, "the compacted provider session survives the rollback")
        #expect(network.preview == "edited by v1")
        #expect(new.providerSessionID == newID.lowercased && new.provider == "claude")
        // The v1 keys are the truth (§7): network 1, new 3, plain 4 (login left the queue, drafts is gone).
        #expect(try after.queue().fifo.map(\.workStreamID) == [Self.network, newID, Self.plain])
        #expect(throws: StoreError.self) { try after.workStream(Self.drafts) }
        guard case .v2(let manifest) = try after.manifest() else { Issue.record("manifest"); return }
        #expect(manifest.migrations.map { "\($0.from)→\($0.to)" } == ["1→2", "2→3", "3→4", "1→4"], "the re-upgrade is recorded from the v1 writer's version")
    }

    static func brokenStore(_ label: String, _ breakIt: (String) throws -> Void) throws -> ToolRun {
        let temporary = TemporaryDirectory(label)
        let dir = temporary.path
        try Samples.copy("v2-store", to: dir + "/store")
        try breakIt(dir + "/store")
        return try BuiltTool.run(["verify", dir + "/store", "--against", Samples.v1Store])
    }

    static func replace(_ file: String, _ old: String, _ new: String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        precondition(text.contains(old), "fixture: '\(old)' not in \(file)")
        try text.replacingOccurrences(of: old, with: new).write(toFile: file, atomically: false, encoding: .utf8)
    }

    @Test func verifyFailsOnEachBrokenCheckWithExit69() throws {
        let plainFile = "/sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json"
        let cases: [(String, (String) throws -> Void, String)] = [
            (
                "a", { try Self.replace($0 + plainFile, "\"unread_count\": 2", "\"unread_count\": \"two\"") },
                "(a) a v1 reader decodes every work stream: 1 failed"
            ),
            (
                "b", { try Self.replace($0 + plainFile, "\"unread_count\": 2", "\"unread_count\": 5") },
                "(b) a v1 reader sees the pre-migration values: 1 failed"
            ),
            // A value a v1 write re-encodes (an offset date becomes UTC): the write would change it.
            (
                "c", { try Self.replace($0 + plainFile, "\"queued_at\": null", "\"queued_at\": \"2025-11-05T11:14:52+01:00\"") },
                "(c) a v1 read-modify-write keeps the v2 keys: 1 failed"
            ),
            (
                "d",
                {
                    try Self.replace(
                        $0 + "/queue.json", "\"work_stream_id\": \"ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b\"",
                        "\"work_stream_id\": \"c25e47cd-f10a-49a3-9ec4-a9355366da75\"")
                },
                "(d) the queue a v1 reader derives equals queue.json: 1 failed"
            ),
        ]
        for (label, breakIt, line) in cases {
            let run = try Self.brokenStore("verify-\(label)", breakIt)
            #expect(run.code == 69, "check (\(label))")
            #expect(run.stdout.contains("  " + line), "check (\(label)): \(run.stdout)")
            #expect(run.stdout.hasSuffix("Verification failed.\n"))
        }
    }
}

@Suite(.serialized) struct RollbackCommandTests {
    @Test func rollbackPutsBackTheExactPreMigrationBytesAndKeepsTheMigratedStore() throws {
        let temporary = TemporaryDirectory("rollback")
        let dir = temporary.path
        try Samples.copy("v1-store", to: dir + "/store")
        let original = try StoreTrees.documents(dir + "/store")
        #expect(try BuiltTool.run(["migrate", dir + "/store", "--backup-dir", dir + "/backup", "--quiet"]).code == 0)
        let migrated = try StoreTrees.documents(dir + "/store")
        let run = try BuiltTool.run(["rollback", dir + "/store", "--from-backup", dir + "/backup", "--json"])
        #expect(run.code == 0, "\(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        #expect(json["command"] as? String == "rollback" && json["schema_version"] as? Int == 1)
        let aside = try #require(json["replaced_store_kept_at"] as? String)
        #expect(try StoreTrees.documents(dir + "/store") == original)
        #expect(try StoreTrees.documents(aside) == migrated)
    }

    @Test func rollbackFromACorruptBackupChangesNothingAndExits69() throws {
        let temporary = TemporaryDirectory("rollback-bad")
        let dir = temporary.path
        try Samples.copy("v1-store", to: dir + "/store")
        #expect(try BuiltTool.run(["migrate", dir + "/store", "--backup-dir", dir + "/backup", "--quiet"]).code == 0)
        try RollbackEndToEndTests.replace(dir + "/backup/settings.json", "true", "fals")
        let before = snapshot(dir + "/store")
        let run = try BuiltTool.run(["rollback", dir + "/store", "--from-backup", dir + "/backup"])
        #expect(run.code == 69)
        #expect(run.stderr.contains("'settings.json'"))
        #expect(snapshot(dir + "/store") == before)
    }
}
