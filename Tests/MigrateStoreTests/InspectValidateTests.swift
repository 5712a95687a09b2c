import Foundation
import Testing

/// `validate`: one line per problem, `<file>: <key path>: <what>. Fix: <how>`, exit 65 when
/// there is any; the broken-store golden covers the other checks.
@Suite struct InspectValidateTests {
    /// The problem lines of a validate run (everything before the first blank line).
    private func problemLines(_ run: ToolRun) -> [String] {
        Array(run.stdout.components(separatedBy: "\n").prefix { !$0.isEmpty && !$0.hasPrefix("'<store>'") })
    }

    @Test func cleanStoreExitsZeroAndOrphanCustomisationIsOnlyANote() throws {
        let run = try InspectFixture("v2-store").run("validate")
        #expect(run.code == 0)
        #expect(run.stdout.hasSuffix("'<store>' (schema v2): no problems (1 note) in 8 work streams, 4 customisations and 3 other documents.\n"))
    }

    @Test func mirrorDisagreementIsAProblem() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.edit(
            "sessions/ad63adfa-7ad7-45dc-882c-80791120b6cc.json", replacing: "\"is_in_priority_queue\": true", with: "\"is_in_priority_queue\": false")
        let run = try fixture.run("validate")
        #expect(run.code == 65)
        #expect(
            problemLines(run) == [
                "queue.json: it disagrees with the session keys v1 readers use (spec §7 check (d)): priority entry 3: the session keys give "
                    + "1caaa999-8519-45f8-b97b-72e5454d2aee, queue.json has ad63adfa-7ad7-45dc-882c-80791120b6cc (3 vs 4 entries). "
                    + "Fix: Run 'migrate-store migrate <store>': queue.json is the truth and the mirror is rewritten from it (spec §7)."
            ])
    }

    @Test func interruptedMigrationIsOneProblemOnStoreJSON() throws {
        let fixture = try InspectFixture("v1-store")
        try FileManager.default.copyItem(
            atPath: Samples.v2Store + "/queue.json",
            toPath: fixture.path("queue.json"))
        try fixture.edit("settings.json", replacing: "\"schema_version\": 1", with: "\"schema_version\": 2")
        let run = try fixture.run("validate")
        #expect(run.code == 65)
        #expect(
            problemLines(run) == [
                "store.json: schema_version: the store says schema_version 1, but 1 document is v2 and queue.json exists: a migration stopped "
                    + "before its end (v1 readers still read the store correctly). Fix: Run 'migrate-store migrate <store>' to finish it."
            ])
    }

    @Test func duplicateMessageIDNamesBothPlaces() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.edit(
            "sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json",
            replacing: "\"id\": \"e81ea13f-de0b-4b4b-a8e6-46914319d62d\"", with: "\"id\": \"7c1b3086-ad5d-4e0d-b9f0-bf337198dbf8\"")
        let run = try fixture.run("validate")
        #expect(
            problemLines(run) == [
                "sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json: messages[0].id: message id '7c1b3086-ad5d-4e0d-b9f0-bf337198dbf8' is also used by "
                    + "sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json messages[0]; message ids are unique in a store (spec §3). "
                    + "Fix: Give one of the two messages a new lowercase UUID by hand."
            ])
    }

    @Test func uppercaseFileNameSuggestsItsLowercaseName() throws {
        let fixture = try InspectFixture("v2-store")
        try FileManager.default.moveItem(
            atPath: fixture.path("user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json"),
            toPath: fixture.path("user-sessions/555A622D-4EBA-4EDA-8989-FC9E679FC303.json"))
        #expect(
            problemLines(try fixture.run("validate")) == [
                "user-sessions/555A622D-4EBA-4EDA-8989-FC9E679FC303.json: not a valid document name: only a lowercase UUID followed by '.json' "
                    + "is allowed here, so readers ignore it. Fix: Rename it to '555a622d-4eba-4eda-8989-fc9e679fc303.json', or move it out of the store."
            ])
    }

    @Test func symbolicLinkInPlaceOfADocumentIsAProblem() throws {
        let fixture = try InspectFixture("v2-store")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.path("user-sessions/0000aaaa-0000-4000-8000-000000000000.json"),
            withDestinationPath: fixture.path("settings.json"))
        #expect(
            problemLines(try fixture.run("validate")) == [
                "user-sessions/0000aaaa-0000-4000-8000-000000000000.json: a symbolic link, not a document; the store never follows links. "
                    + "Fix: Replace it with the file it points to, or move it out of the store."
            ])
    }

    /// An absent document folder is an empty one for every command (issue 17): a note, not a problem.
    @Test func missingQueueJSONIsAProblemAndAMissingFolderANote() throws {
        let fixture = try InspectFixture("v2-store")
        try FileManager.default.removeItem(atPath: fixture.path("queue.json"))
        try FileManager.default.removeItem(atPath: fixture.path("user-sessions"))
        let run = try fixture.run("validate")
        #expect(
            problemLines(run) == [
                "queue.json: absent, but a v2 store keeps its queue there; v2 code falls back to the session keys. "
                    + "Fix: Run 'migrate-store migrate <store>': it rebuilds queue.json from the session keys (spec §7)."
            ])
        #expect(
            run.stdout.contains(
                "\nNote: user-sessions: absent, so it is read as an empty folder. Fix: Nothing to do: the "
                    + "store creates it with its first document. If it held documents, restore it from a backup.\n"))
        #expect(run.stdout.hasSuffix("'<store>' (schema v2): 1 problem (1 note) in 8 work streams, 0 customisations and 2 other documents.\n"))
    }

    /// The library says the fix in plain words; the tool puts its own command line in.
    @Test func documentNewerThanThisToolAsksForANewerToolOrTheMigrationCommand() throws {
        let fixture = try InspectFixture("v3-store")
        try fixture.edit("sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json", replacing: "\"schema_version\": 3", with: "\"schema_version\": 99")
        let run = try fixture.run("validate")
        #expect(run.code == 65)
        #expect(
            problemLines(run) == [
                "sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json: schema_version: this work stream document has schema_version 99, "
                    + "but this code reads up to version 4 in sessions/; use a newer version of the tool. "
                    + "Fix: Use a version of the tool that reads it, or run 'migrate-store migrate' first."
            ])
    }

    @Test func keptProviderSessionIDThatIsNotAStringIsWhatMigrationWouldRefuse() throws {
        let fixture = try InspectFixture("v1-store")
        try fixture.edit(
            "sessions/d664cf84-65da-4768-8ba1-acf742bdc1f1.json", replacing: "\"schema_version\": 1,",
            with: "\"provider_session_id\": 42,\n  \"schema_version\": 1,")
        let lines = problemLines(try fixture.run("validate"))
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("sessions/d664cf84-65da-4768-8ba1-acf742bdc1f1.json: provider_session_id: expected a string, found ") == true)
    }

    @Test func jsonProblemsHaveFileKeyPathCodeMessageAndFix() throws {
        let fixture = try InspectBrokenStore.make()
        let run = try fixture.run("validate", ["--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(object["valid"] as? Bool == false)
        #expect(problems.allSatisfy { Set($0.keys) == ["file", "key_path", "code", "message", "fix"] })
        #expect(
            problems.compactMap { $0["code"] as? String }.sorted() == [
                "duplicate_id", "invalid_file_name", "invalid_json", "message_session_id_differs", "missing_key",
                "not_a_regular_file", "queue_entry_missing", "unexpected_entry", "v1_document_in_v2_store",
            ])
    }
}
