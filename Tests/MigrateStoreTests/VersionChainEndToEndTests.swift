import Foundation
import StoreJSON
import Testing

@testable import JSONStore

/// Issue 14 acceptance on the built binary: the version chain (spec §9) and schema v3 (§10), in a
/// store at the default version (v4, §11).
@Suite(.serialized) struct VersionChainEndToEndTests {
    static let tagged = UUID(uuidString: "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b")!  // FIFO 1
    static let network = UUID(uuidString: "555a622d-4eba-4eda-8989-fc9e679fc303")!  // FIFO 2
    static let drafts = UUID(uuidString: "ec3629cb-f446-449f-b8a0-f43e156345d8")!  // FIFO 3

    static func file(_ store: String, _ id: UUID) -> String { store + "/sessions/\(id.lowercased).json" }

    static func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func aV1StoreMigratesToV4ByDefaultInOneRunOfThreeSteps() throws {
        let temporary = TemporaryDirectory("chain-default")
        let store = try temporary.copySample("v1-store", as: "store")
        let run = try BuiltTool.run(["migrate", store, "--no-backup"])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.contains(
                "Migrated '\(store)' from schema version 1 to 4 in 3 steps: 15 files change: 75 added_key, "
                    + "1 manifest_upgraded, 7 message_keys_added, "), "\(run.stdout)")
        #expect(run.stdout.contains("App versions 1 to 4 can read and write the migrated store as it is"))
        var migrated = tree(store), expected = tree(try StoreTrees.migratedV3Sample(at: temporary("reference")))
        #expect(migrated.removeValue(forKey: "store.json") != nil && expected.removeValue(forKey: "store.json") != nil)
        #expect(migrated == expected)
        let manifest = try ManifestV2(bytes: try Self.read(store + "/store.json"))
        #expect(manifest.schemaVersion == 4 && manifest.minReaderVersion == 1)
        #expect(manifest.migrations.map { "\($0.from)→\($0.to)" } == ["1→2", "2→3", "3→4"], "one record per step")
    }

    @Test func migratingAV4StoreChangesNoByte() throws {
        let temporary = TemporaryDirectory("chain-noop")
        let store = try temporary.copySample("v4-store", as: "store")
        let before = snapshot(temporary.path)
        let run = try BuiltTool.run(["migrate", store])
        #expect(run == ToolRun(stdout: "'\(store)' is already at version 4: nothing to do, no document was changed.\n", stderr: "", code: 0))
        #expect(snapshot(temporary.path) == before, "no byte, no lock file, no backup folder")
    }

    @Test func migratingBackwardsOrBeyondTheChainIsAUsageErrorThatChangesNothing() throws {
        let temporary = TemporaryDirectory("chain-bad-target")
        let store = try temporary.copySample("v4-store", as: "store")
        let before = snapshot(temporary.path)
        let back = try BuiltTool.run(["migrate", store, "--to", "3"])
        #expect(back.code == 64)
        #expect(
            back.stderr.contains("Can't migrate '\(store)' to schema version 3: the store is at version 4 already, and a migration never goes back."),
            "\(back.stderr)")
        let beyond = try BuiltTool.run(["migrate", store, "--to", "9"])
        #expect(beyond.code == 64)
        #expect(beyond.stderr.contains("knows schema versions 1 to 5; '--to 9' is not one of them"), "\(beyond.stderr)")
        #expect(snapshot(temporary.path) == before)
    }

    @Test func statusAndPlanShowTheStepsTheirKindsAndTheReadersAfterEach() throws {
        let temporary = TemporaryDirectory("chain-status")
        let store = try temporary.copySample("v2-store", as: "store")
        let status = try BuiltTool.run(["status", store])
        #expect(status.code == 0)
        let lines = status.stdout.split(separator: "\n").map(String.init)
        #expect(lines[1] == "Schema version:  2 (min_reader_version 1)")
        #expect(lines[2] == "Versions:        1 to 5 known to this tool; ahead: 2 → 3 (rollback-safe), 3 → 4 (rollback-safe), 4 → 5 (breaking)")
        #expect(
            lines[3]
                == "Readers:         app versions 1 to 2 now; after 2 → 3: versions 1 to 3; after 3 → 4: versions 1 to 4; after 4 → 5: version 5 only")
        let plan = try BuiltTool.run(["plan", store])
        #expect(plan.code == 0)
        #expect(
            plan.stdout.hasPrefix(
                """
                Plan for '\(store)': schema version 2 → 4, 2 steps. Nothing has been written.
                  step 2 → 3 (rollback-safe): adds the sync cursors and each message's seq and offset (§10)
                  step 3 → 4 (rollback-safe): adds each work stream's draft and the app's preferences to settings.json (§11)
                App versions that can read the store after it: versions 1 to 4.

                queue.json
                  write queue.json: 3 FIFO, 4 priority entries

                """), "\(plan.stdout)")
        let json = try BuiltTool.run(["--json", "status", store])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["readers"] as? [Int] == [1, 2])
        let ahead = try #require(object["steps_ahead"] as? [[String: Any]])
        #expect(ahead.count == 3 && ahead[0]["kind"] as? String == "rollback-safe" && ahead[0]["readers_after"] as? [Int] == [1, 2, 3])
        #expect(ahead[1]["kind"] as? String == "rollback-safe" && ahead[1]["readers_after"] as? [Int] == [1, 2, 3, 4])
        #expect(ahead[2]["kind"] as? String == "breaking" && ahead[2]["readers_after"] as? [Int] == [5])
    }

    /// Spec §7, §10: a v2 app writes to a v4 store (it keeps the v3 and v4 keys as unknown keys, writes
    /// `schema_version` 2, does not move the cursors): it appends a message to one work stream and
    /// takes another out of the FIFO queue (queue.json first, then the mirror). `migrate` resets
    /// the cursors of the documents it wrote, reports each reset, and loses nothing either side wrote.
    @Test func aV2WritersEditsToAV4StoreAreUpgradedWithTheCursorsReset() throws {
        let temporary = TemporaryDirectory("chain-v2-writer")
        let store = try temporary.copySample("v4-store", as: "store")
        // The v4 app synced 'tagged': cursors and message sequence numbers.
        let library = try Store.open(at: store)
        try library.updateWorkStream(Self.tagged) { session in
            session.cursors = SyncCursors(nextSeq: 12, liveFromSeq: 9, lastOffsetMerged: 4096, liveFromOffset: 2048, lastFileSignature: "sig-1")
            for i in session.fields.messages.indices {
                session.fields.messages[i].seq = Int64(i + 1)
                session.fields.messages[i].offset = Int64(100 * i)
            }
        }
        // The v2 app (rollback) appends a message to 'tagged' with the frozen v2 type.
        var tagged = try WorkStreamV2(bytes: try Self.read(Self.file(store, Self.tagged)), acceptingNewerVersions: true)
        let sent = MessageV1(
            id: UUID(uuidString: "0b0b0b0b-1111-4222-8333-444444444444")!, sessionID: Self.tagged, role: "user",
            text: "Sent from the old app", timestamp: RFC3339.parse("2025-11-22T10:00:00.000Z")!)
        tagged.fields.messages.append(sent)
        tagged.schemaVersion = 2
        try Data(tagged.encoded).write(to: URL(fileURLWithPath: Self.file(store, Self.tagged)))
        // The v2 app takes 'network' out of the FIFO queue: queue.json, then the mirror of the work streams that moved.
        var queue = try QueueV2(bytes: try Self.read(store + "/queue.json"), acceptingNewerVersions: true)
        queue.fifo.removeAll { $0.workStreamID == Self.network }
        queue.schemaVersion = 2
        try Data(queue.encoded).write(to: URL(fileURLWithPath: store + "/queue.json"))
        for (id, position) in [(Self.network, Int32(0)), (Self.drafts, Int32(2))] {
            var session = try WorkStreamV2(bytes: try Self.read(Self.file(store, id)), acceptingNewerVersions: true)
            session.fields.isInQueue = position > 0
            session.fields.queuePosition = position
            if position == 0 { session.fields.queuedAt = nil }
            session.schemaVersion = 2
            try Data(session.encoded).write(to: URL(fileURLWithPath: Self.file(store, id)))
        }

        let status = try BuiltTool.run(["--json", "status", store])
        #expect(status.stdout.contains("\"migration\": \"touched_by_older_writer\""), "\(status.stdout)")
        let validate = try BuiltTool.run(["validate", store])
        #expect(validate.code == 65)
        #expect(
            validate.stdout.contains(
                "sessions/\(Self.tagged.lowercased).json: schema_version: schema_version 2 in a v4 store: "
                    + "an older app (after a rollback) wrote it, so its sync cursors can't be trusted."), "\(validate.stdout)")
        #expect(validate.stdout.contains("'\(store)' (schema v4): 3 problems"), "\(validate.stdout)")
        let plan = try BuiltTool.run(["plan", store])
        #expect(plan.code == 0)
        #expect(plan.stdout.contains("schema version 4 → 4, no change of version (a reconcile after an older app wrote, spec §7)"), "\(plan.stdout)")
        for reset in [
            "next_seq 12 → default", "live_from_seq 9 → default", "last_offset_merged 4096 → default",
            "live_from_offset 2048 → default", "last_file_signature 'sig-1' → default",
        ] {
            #expect(plan.stdout.contains(reset), "plan reports \(reset): \(plan.stdout)")
        }
        let run = try BuiltTool.run(["migrate", store, "--backup-dir", temporary("backup")])
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout.contains("5 cursor_reset"), "\(run.stdout)")

        let after = try Store.open(at: store, options: .readOnly)
        guard case .v3(let upgraded) = try after.workStream(Self.tagged) else { Issue.record("not upgraded"); return }
        #expect(upgraded.cursors == .defaults, "the cursors the old app did not move are reset: the app re-syncs from the start")
        #expect(upgraded.fields.messages.last?.text == "Sent from the old app", "the old app's message is kept")
        #expect(upgraded.fields.messages.last.map { [$0.seq, $0.offset] } == [0, 0])
        #expect(
            upgraded.fields.messages.dropLast().map(\.seq) == (1...upgraded.fields.messages.count - 1).map { Int64($0) },
            "messages keep their seq")
        #expect(try after.queue().fifo.map(\.workStreamID) == [Self.tagged, Self.drafts], "the old app's queue move is kept")
        for id in [Self.network, Self.drafts] {
            guard case .v3 = try after.workStream(id) else { Issue.record("\(id) not upgraded"); continue }
        }
        let verify = try BuiltTool.run(["verify", store])
        #expect(verify.code == 0, "\(verify.stdout)")
        // Nothing the v4 app wrote to the other work streams was touched.
        for name in try FileManager.default.contentsOfDirectory(atPath: store + "/sessions")
        where ![Self.tagged, Self.network, Self.drafts].map({ "\($0.lowercased).json" }).contains(name) {
            #expect(try Self.read(store + "/sessions/" + name) == (try Self.read(Samples.v4Store + "/sessions/" + name)), "\(name)")
        }
    }

    /// `verify` runs check (c) as each older reader; a value that reader's write re-encodes (a
    /// message date with an offset, which the v1 and the v2 writer both rewrite in UTC) fails (c)
    /// for each reader version, with exit 69. (The frozen v1 and v2 types keep every unknown key
    /// verbatim, so no real older reader drops a v3 key; `RollbackCheckTests` drives a reader that does.)
    @Test func verifyFailsCheckCForEachOlderReaderWithExit69() throws {
        let temporary = TemporaryDirectory("chain-verify")
        let store = try temporary.copySample("v3-store", as: "store")
        let path = Self.file(store, Self.tagged)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let first = try #require(text.range(of: "\"server_timestamp\": \"2025-"))
        let end = try #require(text.range(of: "Z\"", range: first.upperBound..<text.endIndex))
        var changed = text
        changed.replaceSubrange(end, with: "+00:00\"")
        try changed.write(toFile: path, atomically: false, encoding: .utf8)
        let run = try BuiltTool.run(["verify", store])
        #expect(run.code == 69, "\(run)")
        #expect(run.stdout.contains("    (c) a v1 read-modify-write keeps the v2 and v3 keys: 1 failed"), "\(run.stdout)")
        #expect(run.stdout.contains("    (c) a v2 read-modify-write keeps the v3 keys: 1 failed"), "\(run.stdout)")
        #expect(run.stdout.contains("a v2 writer would lose or change: messages"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("Verification failed.\n"))
        let json = try BuiltTool.run(["--json", "verify", store])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let byReader = try #require(object["checks_by_reader"] as? [String: [String: [String: Any]]])
        #expect(byReader["1"]?["c"]?["failed"] as? Int == 1 && byReader["2"]?["c"]?["failed"] as? Int == 1)
    }
}
