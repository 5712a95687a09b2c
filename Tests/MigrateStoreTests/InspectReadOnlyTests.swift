import Foundation
import Testing

/// Inspecting opens the store read-only: no lock file, no temp-file sweep, no reconcile.
@Suite struct InspectReadOnlyTests {
    static let commands: [[String]] = [
        ["ls"], ["ls", "--json", "--deleted", "--sort", "queue"], ["show", "683f"], ["show", "555a", "--full", "--json"],
        ["queue"], ["queue", "--json", "--locked", "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b"], ["stats"], ["stats", "--json"],
        ["validate"], ["validate", "--json"],
    ]

    @Test(arguments: commands, ["v1-store", "v2-store"])
    func commandChangesNoByteAndNoModificationTime(_ words: [String], sample: String) throws {
        let fixture = try InspectFixture(sample)
        let before = fixture.snapshot()
        let run = try fixture.run(words[0], Array(words.dropFirst()))
        #expect(run.code == 0, "\(run)")
        #expect(fixture.snapshot() == before)
    }

    /// A leftover temp file (what a crashed writer leaves) is not swept, and the queue of a v2
    /// store whose mirror disagrees is not reconciled, as opening for writing would do.
    @Test func leftoversAndAStaleMirrorAreLeftAlone() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.write("sessions/.tmp-0000000000000001-ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json", "{")
        try fixture.edit("sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json", replacing: "\"queue_position\": 2", with: "\"queue_position\": 7")
        let before = fixture.snapshot()
        for command in ["ls", "queue", "stats", "validate"] {
            _ = try fixture.run(command)
            _ = try fixture.run("show", ["555a"])
        }
        #expect(fixture.snapshot() == before)
    }
}
