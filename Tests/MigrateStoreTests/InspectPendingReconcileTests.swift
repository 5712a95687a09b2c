import Foundation
import Testing

/// The read-only inspecting commands show the queue the next writer establishes (spec §7), not
/// `queue.json`'s stale order, and say that a reconcile is pending.
@Suite struct InspectPendingReconcileTests {
    static let ad9 = "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b"
    static let s555 = "555a622d-4eba-4eda-8989-fc9e679fc303"
    static let ec3 = "ec3629cb-f446-449f-b8a0-f43e156345d8"

    /// The v2 sample after a v1 writer moved `ec3629cb` to the front of the FIFO queue: it wrote
    /// that document with `schema_version` 1 and renumbered the keys (ec3629cb 1, 555a622d 2,
    /// ad9a22b8 3; queue.json still says ad9a22b8, 555a622d, ec3629cb).
    func touchedByAV1Writer() throws -> InspectFixture {
        let fixture = try InspectFixture("v2-store")
        let ec3 = "sessions/\(Self.ec3).json", ad9 = "sessions/\(Self.ad9).json"
        try fixture.edit(ec3, replacing: "\"schema_version\": 2", with: "\"schema_version\": 1")
        try fixture.edit(ec3, replacing: "\"queue_position\": 3", with: "\"queue_position\": 1")
        try fixture.edit(ad9, replacing: "\"queue_position\": 1", with: "\"queue_position\": 3")
        return fixture
    }

    private func ids(_ object: [String: Any], _ list: String) -> [String] {
        (object[list] as? [[String: Any]] ?? []).map { $0["work_stream_id"] as? String ?? "?" }
    }

    @Test func queueShowsTheSessionKeysOrderAfterAV1WriterAndMigrateWritesExactlyThatQueue() throws {
        let fixture = try touchedByAV1Writer()
        let run = try fixture.run("queue")
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout.contains("    1  ec3629cb"), "\(run.stdout)")
        #expect(run.stdout.contains("    3  ad9a22b8"), "\(run.stdout)")
        let pending =
            "Reconcile pending: a v1 writer wrote 1 work stream, so the session keys are the truth and queue.json is rebuilt from them. "
            + "Shown is the queue the next writer ('migrate-store migrate', or any client opening the store for writing) establishes.\n"
        #expect(run.stdout.components(separatedBy: "Reconcile pending:").count == 2)
        #expect(run.stdout.contains(pending), "\(run.stdout)")
        #expect(run.stdout.contains("\nSource: the session keys (a v1 writer wrote to this store after its upgrade, spec §7)"))

        let before = try fixture.json("queue")
        #expect(ids(before, "fifo") == [Self.ec3, Self.s555, Self.ad9])
        #expect(before["queue_source"] as? String == "session_keys_v1_writer")
        #expect((before["reconcile_pending"] as? String)?.hasPrefix("a v1 writer wrote 1 work stream") == true)

        let migrate = try fixture.run("migrate", ["--no-backup"])
        #expect(migrate.code == 0, "\(migrate)")
        let after = try fixture.json("queue")
        #expect(after["reconcile_pending"] == nil)
        #expect(after["queue_source"] as? String == "queue.json")
        for list in ["fifo", "priority"] {
            let (shown, written) = (before[list] as? [[String: Any]] ?? [], after[list] as? [[String: Any]] ?? [])
            #expect(shown.map { NSDictionary(dictionary: $0) } == written.map { NSDictionary(dictionary: $0) }, "\(list)")
        }
        let queueJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.path("queue.json")))) as? [String: Any]
        #expect(ids(try #require(queueJSON), "fifo") == [Self.ec3, Self.s555, Self.ad9])
    }

    @Test func lsSortedByQueueAndShowUseTheQueueTheNextWriterEstablishes() throws {
        let fixture = try touchedByAV1Writer()
        let ls = try fixture.json("ls", ["--sort", "queue", "--queued"])
        let rows = ls["work_streams"] as? [[String: Any]] ?? []
        #expect(Array(rows.prefix(3).map { $0["id"] as? String ?? $0["work_stream_id"] as? String ?? "?" }) == [Self.ec3, Self.s555, Self.ad9], "\(rows)")
        #expect(ls["reconcile_pending"] is String)
        let lsText = try fixture.run("ls", ["--sort", "queue"])
        #expect(lsText.stdout.components(separatedBy: "\nReconcile pending: ").count == 2, "\(lsText.stdout)")

        let show = try fixture.run("show", ["ec3629cb"])
        #expect(show.stdout.contains("position 1"), "\(show.stdout)")
        #expect(show.stdout.contains("pending: a v1 writer wrote 1 work stream"), "\(show.stdout)")
        let showJSON = try fixture.json("show", ["ec3629cb"])
        let derived = showJSON["derived"] as? [String: Any] ?? [:]
        #expect(derived["fifo_position"] as? Int == 1)
        #expect(derived["reconcile_pending"] is String)
    }

    @Test func entryForAWorkStreamThatNoLongerExistsIsDroppedAsTheNextWriterDrops() throws {
        let fixture = try InspectFixture("v2-store")
        try FileManager.default.removeItem(atPath: fixture.path("sessions/\(Self.s555).json"))
        let before = try fixture.json("queue")
        #expect(ids(before, "fifo") == [Self.ad9, Self.ec3])
        #expect(before["reconcile_pending"] as? String == "queue.json has 1 entry for work streams that no longer exist")
        let run = try fixture.run("queue")
        #expect(run.stdout.contains("\nReconcile pending: queue.json has 1 entry for work streams that no longer exist. "), "\(run.stdout)")

        #expect(try fixture.run("migrate", ["--no-backup"]).code == 0)
        let after = try fixture.json("queue")
        #expect(after["reconcile_pending"] == nil)
        #expect(ids(after, "fifo") == ids(before, "fifo"))
        #expect(ids(after, "priority") == ids(before, "priority"))
    }

    @Test func untouchedSampleHasNoPendingReconcile() throws {
        let fixture = try InspectFixture("v2-store")
        #expect(try fixture.json("queue")["reconcile_pending"] == nil)
        #expect(!(try fixture.run("queue").stdout.contains("Reconcile pending")))
    }
}
