import Foundation
import Testing

/// `ls`, `show`, `queue`, `stats`, `settings` and `validate` on the bundled samples, run with the built
/// binary, print exactly what `<command>-<sample>.txt` and `.json` hold, on standard
/// output only, and exit 0 (files in `Tests/Golden/`). `UPDATE_GOLDEN=1 swift test --filter Inspect`
/// rewrites the files.
@Suite struct InspectGoldenTests {
    /// A command line after `<store>`, and the golden name of its command.
    struct Case: CustomTestStringConvertible, Sendable {
        var command: String
        var arguments: [String] = []
        var testDescription: String { ([command] + arguments).joined(separator: " ") }
    }

    static let cases = [
        Case(command: "ls"), Case(command: "show", arguments: ["555a"]), Case(command: "queue"),
        Case(command: "stats"), Case(command: "settings"), Case(command: "validate"),
    ]
    /// `v4-store` has drafts and the app's preferences (spec §11); `v5-store` is `V5Fixture`'s
    /// v5 store made from `Samples/v4-store` (spec §12).
    static let samples = ["v1-store", "v2-store", "v4-store", InspectFixture.v5Store]

    @Test(arguments: cases, samples)
    func humanOutputMatchesGolden(_ c: Case, sample: String) throws {
        let fixture = try InspectFixture(sample)
        let run = try fixture.run(c.command, c.arguments)
        #expect(run.stderr == "")
        #expect(run.code == 0)
        try Golden.check(run.stdout, "\(c.command)-\(sample).txt")
    }

    @Test(arguments: cases, samples)
    func jsonOutputMatchesGolden(_ c: Case, sample: String) throws {
        let fixture = try InspectFixture(sample)
        let run = try fixture.run(c.command, c.arguments + ["--json"])
        #expect(run.stderr == "")
        #expect(run.code == 0)
        try Golden.check(run.stdout, "\(c.command)-\(sample).json")
    }

    /// A store with one problem of each kind `validate` finds; see ``InspectBrokenStore``.
    @Test func validateOnABrokenStoreMatchesGolden() throws {
        let fixture = try InspectBrokenStore.make()
        let human = try fixture.run("validate")
        #expect(human.stderr == "")
        #expect(human.code == 65)
        try Golden.check(human.stdout, "validate-broken-store.txt")
        let json = try fixture.run("validate", ["--json"])
        #expect(json.stderr == "")
        #expect(json.code == 65)
        try Golden.check(json.stdout, "validate-broken-store.json")
    }
}

/// A copy of the v2 sample damaged in many independent ways, one problem each.
enum InspectBrokenStore {
    static let truncated = "0badf00d-0000-4000-8000-000000000001"
    static let copyWithWrongName = "c25e47cd-f10a-49a3-9ec4-a9355366da00"

    static func make() throws -> InspectFixture {
        let f = try InspectFixture("v2-store")
        // JSON syntax error (line and column), an invalid file name, a folder in a document's place.
        try f.write("sessions/\(truncated).json", "{\n  \"schema_version\": 2,\n  \"id\": ")
        try f.write("sessions/README.txt", "notes\n")
        try FileManager.default.createDirectory(atPath: f.path("sessions/11111111-2222-4333-8444-555555555555.json"), withIntermediateDirectories: false)
        // Something that is not part of a store.
        try f.write("notes.txt", "hello\n")
        // A document whose id is another file's: a duplicate id.
        try FileManager.default.copyItem(
            atPath: f.path("sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json"),
            toPath: f.path("sessions/\(copyWithWrongName).json"))
        // A missing required key.
        try f.edit("sessions/d664cf84-65da-4768-8ba1-acf742bdc1f1.json", replacing: "\"working_directory\"", with: "\"working_dir\"")
        // A v1 writer's document in a v2 store.
        try f.edit("sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json", replacing: "\"schema_version\": 2", with: "\"schema_version\": 1")
        // A message naming another work stream, in a v2 document.
        try f.edit(
            "sessions/ec3629cb-f446-449f-b8a0-f43e156345d8.json",
            replacing: "\"session_id\": \"ec3629cb-f446-449f-b8a0-f43e156345d8\",\n      \"status\": \"confirmed\",\n      \"text\": \"Call it",
            with: "\"session_id\": \"ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b\",\n      \"status\": \"confirmed\",\n      \"text\": \"Call it")
        // queue.json names a work stream that doesn't exist (in its sorted place: priority 5).
        try f.edit(
            "queue.json", replacing: "\"work_stream_id\": \"683f9ade-0200-46b6-be6c-47f29ee5bdeb\"\n    },\n",
            with: """
                "work_stream_id": "683f9ade-0200-46b6-be6c-47f29ee5bdeb"
                    },
                    {
                      "priority": 5,
                      "priority_order": 1.0,
                      "priority_queued_at": null,
                      "work_stream_id": "99999999-9999-4999-8999-999999999999"
                    },

                """)
        return f
    }
}
