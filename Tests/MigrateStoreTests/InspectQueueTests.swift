import Foundation
import Testing

/// `queue`: the reasons a client hides an entry (spec §5), and `queue.json` against its mirror (§7).
@Suite struct InspectQueueTests {
    private func entries(_ object: [String: Any], _ list: String) -> [[String: Any]] {
        object[list] as? [[String: Any]] ?? []
    }

    private func reasons(_ object: [String: Any], _ list: String) -> [[String]] {
        entries(object, list).map { $0["hidden_reasons"] as? [String] ?? ["?"] }
    }

    @Test func lockedProviderSessionHidesItsEntryInBothQueues() throws {
        let object = try InspectFixture("v2-store").json("queue", ["--locked", "EC3629CB-F446-449F-B8A0-F43E156345D8"])
        #expect(reasons(object, "fifo") == [[], [], ["locked"]])
        #expect(reasons(object, "priority") == [["locked"], ["deleted"], [], []])
        #expect(object["locked"] as? [String] == ["ec3629cb-f446-449f-b8a0-f43e156345d8"])
        #expect(object["locked_unmatched"] as? [String] == [])
    }

    @Test func lockIsMatchedAgainstTheProviderSessionNotTheWorkStreamID() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.edit(
            "sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json",
            replacing: "\"provider_session_id\": \"ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b\"",
            with: "\"provider_session_id\": \"0f0f0f0f-1111-4222-8333-444444444444\"")
        let byID = try fixture.run("queue", ["--locked", "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b"])
        #expect(byID.stdout.contains("    1  ad9a22b8  Fix login crash on iPad           2025-11-03T09:03:02.760Z  yes\n"))
        #expect(byID.stdout.hasSuffix("Note: --locked 'ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b' is no work stream's provider session.\n"))
        let bySession = try fixture.json("queue", ["--locked", "0f0f0f0f-1111-4222-8333-444444444444"])
        #expect(reasons(bySession, "fifo") == [["locked"], [], []])
    }

    @Test func disabledQueueHidesEveryEntryButKeepsItsOrder() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.edit("settings.json", replacing: "\"queue_enabled\": true", with: "\"queue_enabled\": false")
        let run = try fixture.run("queue")
        #expect(
            run.stdout.hasPrefix(
                """
                FIFO queue: 3 entries, 0 shown by a client (queue_enabled false)
                  POS  ID        NAME                              QUEUED AT                 SHOWN
                    1  ad9a22b8  Fix login crash on iPad           2025-11-03T09:03:02.760Z  hidden: queue_disabled
                    2  555a622d  Network layer: async/await        2025-11-04T15:24:05.930Z  hidden: queue_disabled
                    3  ec3629cb  Add dark mode to settings screen  2025-11-05T10:14:52.871Z  hidden: queue_disabled

                """))
    }

    /// With every document readable, the entry is dropped as the next writer drops it
    /// (`InspectPendingReconcileTests`); with one unreadable, the reconcile can't run, so
    /// `queue.json` is shown as it is and the entry keeps its place.
    @Test func entryOfAMissingWorkStreamIsHiddenAndKeepsItsPlaceWhileTheReconcileCantRun() throws {
        let fixture = try InspectFixture("v2-store")
        try FileManager.default.removeItem(atPath: fixture.path("sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json"))
        try fixture.write("sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json", "{")
        let run = try fixture.run("queue")
        #expect(run.code == 65)
        #expect(!run.stdout.contains("Reconcile pending"))
        #expect(run.stdout.contains("    2  555a622d  (no such work stream)             2025-11-04T15:24:05.930Z  hidden: missing\n"))
        let object = try fixture.json("queue")
        #expect(entries(object, "fifo")[1]["display_name"] is NSNull)
        #expect(entries(object, "fifo")[1]["visible"] as? Bool == false)
    }

    @Test func entryOfAnUnreadableWorkStreamSaysSoAndExits65() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.write("sessions/ec3629cb-f446-449f-b8a0-f43e156345d8.json", "{")
        let run = try fixture.run("queue")
        #expect(run.code == 65)
        #expect(run.stdout.contains("    3  ec3629cb  (can't be read)             2025-11-05T10:14:52.871Z  hidden: unreadable\n"))
        #expect(run.stdout.contains("Mirror: not compared: 1 work stream can't be read\n"))
        #expect(run.stderr.hasSuffix("Error: 1 document of '<store>' can't be read and is left out. Run 'migrate-store validate <store>' for every problem.\n"))
    }

    @Test func mirrorThatDisagreesWithQueueJSONIsReportedWithTheTruthOfSpec7() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.edit("sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json", replacing: "\"is_in_queue\": true", with: "\"is_in_queue\": false")
        let object = try fixture.json("queue")
        #expect(
            object["mirror"] as? [String: String] == [
                "status": "disagrees",
                "detail":
                    "FIFO position 2: the session keys give ec3629cb-f446-449f-b8a0-f43e156345d8, queue.json has 555a622d-4eba-4eda-8989-fc9e679fc303 (2 vs 3 entries); "
                    + "queue.json is the truth (spec §7): 'migrate-store migrate', or any client opening the store for writing, rewrites the mirror",
            ])
        // The queue shown is still queue.json's: what v2 code uses.
        #expect(entries(object, "fifo").count == 3)
    }

    @Test func afterAV1WriterTheSessionKeysAreTheTruth() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.edit("sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json", replacing: "\"schema_version\": 2", with: "\"schema_version\": 1")
        try fixture.edit("sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json", replacing: "\"is_in_queue\": true", with: "\"is_in_queue\": false")
        let mirror = try #require(try fixture.json("queue")["mirror"] as? [String: String])
        #expect(
            mirror["detail"]?.hasSuffix(
                "; the session keys are the truth because a v1 writer wrote 1 work stream (spec §7): 'migrate-store migrate' rebuilds queue.json from them")
                == true)
    }

    @Test func v1StoreQueueComesFromTheSessionKeys() throws {
        let run = try InspectFixture("v1-store").run("queue")
        #expect(run.stdout.contains("\nSource: queue.json: absent (v1 store); the queue comes from the session keys\n"))
    }
}
