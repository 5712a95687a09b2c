import Foundation
import Schema
import StoreJSON
import Testing

/// The parser's own syntax error for `text`, so tests don't copy its wording.
func syntaxError(_ text: String) -> JSONSyntaxError? {
    do { _ = try JSONParser.parse(Array(text.utf8)); return nil } catch { return error }
}

/// `ls`: sorting, filtering, the derived values of spec §4, and unreadable documents.
@Suite struct InspectListTests {
    private func ids(_ object: [String: Any]) -> [String] {
        (object["work_streams"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? String).map { String($0.prefix(8)) } }
    }

    @Test func defaultOrderIsNewestFirstWithoutDeletedStreams() throws {
        let object = try InspectFixture("v1-store").json("ls")
        #expect(ids(object) == ["c25e47cd", "1caaa999", "ec3629cb", "555a622d", "ad9a22b8", "ad63adfa", "d664cf84"])
        #expect(object["deleted_not_shown"] as? Int == 1)
    }

    @Test func deletedFlagIncludesUserDeletedStreamsMarkedHidden() throws {
        let object = try InspectFixture("v2-store").json("ls", ["--deleted"])
        let rows = try #require(object["work_streams"] as? [[String: Any]])
        let deleted = try #require(rows.first { ($0["id"] as? String)?.hasPrefix("683f9ade") == true })
        #expect(rows.count == 8)
        #expect(deleted["is_user_deleted"] as? Bool == true && deleted["is_hidden"] as? Bool == true)
        #expect(deleted["hidden_reasons"] as? [String] == ["deleted"])
    }

    @Test func queueOrderIsFIFOThenPriorityThenTheRest() throws {
        let object = try InspectFixture("v1-store").json("ls", ["--sort", "queue", "--deleted"])
        #expect(ids(object) == ["ad9a22b8", "555a622d", "ec3629cb", "683f9ade", "ad63adfa", "1caaa999", "c25e47cd", "d664cf84"])
    }

    @Test func nameOrderIgnoresCase() throws {
        let object = try InspectFixture("v2-store").json("ls", ["--sort", "name"])
        let names = (object["work_streams"] as? [[String: Any]] ?? []).compactMap { $0["display_name"] as? String }
        #expect(
            names == [
                "Add dark mode to settings screen", "Explain the Package.swift layout", "Fix login crash on iPad",
                "Network layer: async/await", "Speed up CI test run", "Untitled work stream", "Write release notes for 2.4",
            ])
    }

    @Test func queuedFlagKeepsStreamsInEitherQueue() throws {
        let run = try InspectFixture("v2-store").run("ls", ["--queued", "--sort", "queue"])
        #expect(
            run.stdout.components(separatedBy: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == ["ID", "ad9a22b8", "555a622d", "ec3629cb", "ad63adfa", "1caaa999", "5", ""])
        #expect(run.stdout.hasSuffix("5 queued of 8 work streams (1 deleted by the user not shown; --deleted shows it).\n"))
    }

    /// The v1 sample's FIFO has positions 1, 3, 3 and a stale position 2; `ls` shows the queue
    /// spec §6 builds from them, as v2 code would see it.
    @Test func v1StoreShowsTheRenumberedFIFOQueue() throws {
        let object = try InspectFixture("v1-store").json("ls", ["--deleted"])
        let rows = try #require(object["work_streams"] as? [[String: Any]])
        let positions = Dictionary(uniqueKeysWithValues: rows.map { (String(($0["id"] as? String ?? "").prefix(8)), $0["fifo_position"] as? Int) })
        #expect(positions["ad9a22b8"] == 1 && positions["555a622d"] == 2 && positions["ec3629cb"] == 3)
        #expect(positions["ad63adfa"] == .some(nil))
        #expect(object["queue_source"] as? String == "session_keys")
    }

    @Test func providerSessionOtherThanIdIsShown() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.edit(
            "sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json",
            replacing: "\"provider_session_id\": \"ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b\"",
            with: "\"provider_session_id\": \"0f0f0f0f-1111-4222-8333-444444444444\"")
        let line = try fixture.run("ls").stdout.components(separatedBy: "\n").first { $0.hasPrefix("ad9a22b8") }
        #expect(line == "ad9a22b8  Fix login crash on iPad           claude    0f0f0f0f            18  2025-11-03T09:04:47.868Z     1     -")
    }

    @Test func unreadableDocumentIsAWarningAfterTheTableAndExit65() throws {
        let fixture = try InspectFixture("v2-store")
        let bad = "{\"schema_version\": 2,}"
        try fixture.write("sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json", bad)
        let syntax = try #require(syntaxError(bad))
        let run = try fixture.run("ls")
        #expect(run.code == 65)
        #expect(run.stdout.components(separatedBy: "\n").count == 1 + 6 + 1 + 1)
        #expect(run.stdout.hasSuffix("6 work streams (1 deleted by the user not shown; --deleted shows it).\n"))
        #expect(
            run.stderr == """
                Warning: sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json: not valid JSON: line 1, column 22 (byte 21): \
                \(syntax.reason). Fix: Correct the JSON at that position by hand, or restore the file from a backup.
                Error: 1 document of '<store>' can't be read and is left out. Run 'migrate-store validate <store>' for every problem.

                """)
    }

    @Test func unreadableDocumentIsListedInJSONProblems() throws {
        let fixture = try InspectFixture("v1-store")
        try fixture.edit(
            "sessions/d664cf84-65da-4768-8ba1-acf742bdc1f1.json", replacing: "\"last_modified\": \"2025-10-21T12:00:00.000Z\"",
            with: "\"last_modified\": \"yesterday\"")
        let run = try fixture.run("ls", ["--json"])
        #expect(run.code == 65)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["code"] as? String == "invalid_value")
        #expect(problems.first?["message"] as? String == "expected an RFC 3339 date like '2025-10-17T14:30:00.000Z', found 'yesterday'")
        #expect(problems.first?["key_path"] as? String == "last_modified")
        #expect(problems.first?["file"] as? String == "sessions/d664cf84-65da-4768-8ba1-acf742bdc1f1.json")
        #expect(object["total"] as? Int == 7)
    }

    @Test func documentWhoseIdIsNotItsFileNameIsAWarning() throws {
        let fixture = try InspectFixture("v2-store")
        try FileManager.default.copyItem(
            atPath: fixture.path("sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json"),
            toPath: fixture.path("sessions/00000000-f10a-49a3-9ec4-a9355366da75.json"))
        let run = try fixture.run("ls")
        #expect(run.code == 65)
        #expect(
            run.stderr.hasPrefix(
                """
                Warning: sessions/00000000-f10a-49a3-9ec4-a9355366da75.json: Can't use 'sessions/00000000-f10a-49a3-9ec4-a9355366da75.json': \
                its id is 'c25e47cd-f10a-49a3-9ec4-a9355366da75' but its file name says '00000000-f10a-49a3-9ec4-a9355366da75'. \
                Rename the file or fix the id by hand. Fix: Run 'migrate-store validate' on the store for the exact problem and its fix.

                """))
    }

    @Test func folderThatIsNotAStoreIsAUsageError() throws {
        let run = try BuiltTool.run(["ls", NSTemporaryDirectory()])
        #expect(run.code == 64)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("Error: '\(NSTemporaryDirectory())' is not a work-stream store: it has no store.json."))
    }
}
