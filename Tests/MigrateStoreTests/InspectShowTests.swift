import Foundation
import Testing

/// `show`: finding the work stream by id or prefix, the derived values, and message display.
@Suite struct InspectShowTests {
    static let usage = "Usage: migrate-store show <store> <id-or-prefix> [options]\nSee 'migrate-store help show'.\n"

    /// A v2 sample with a second work stream whose id starts like `c25e47cd-…-da75`'s.
    private func storeWithTwinPrefix() throws -> InspectFixture {
        let fixture = try InspectFixture("v2-store")
        let text = try String(contentsOfFile: fixture.path("sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json"), encoding: .utf8)
        try fixture.write(
            "sessions/c25e47cd-f10a-49a3-9ec4-a9355366da00.json",
            text.replacingOccurrences(
                of: "\"id\": \"c25e47cd-f10a-49a3-9ec4-a9355366da75\"",
                with: "\"id\": \"c25e47cd-f10a-49a3-9ec4-a9355366da00\""))
        return fixture
    }

    @Test func uppercasePrefixFindsTheWorkStream() throws {
        let run = try InspectFixture("v2-store").run("show", ["555A622D"])
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("Work stream 555a622d-4eba-4eda-8989-fc9e679fc303\n"))
    }

    @Test func ambiguousPrefixListsTheCandidatesAndExits64() throws {
        let run = try storeWithTwinPrefix().run("show", ["c25e47cd"])
        #expect(
            run
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: 'c25e47cd' matches 2 work streams; give more of the id:
                          c25e47cd-f10a-49a3-9ec4-a9355366da00  Write release notes for 2.4
                          c25e47cd-f10a-49a3-9ec4-a9355366da75  Write release notes for 2.4

                        """ + Self.usage, code: 64))
    }

    @Test func longerPrefixResolvesTheAmbiguity() throws {
        let run = try storeWithTwinPrefix().run("show", ["c25e47cd-f10a-49a3-9ec4-a9355366da7"])
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("Work stream c25e47cd-f10a-49a3-9ec4-a9355366da75\n"))
    }

    @Test func prefixShorterThanFourDigitsIsAUsageError() throws {
        let run = try InspectFixture("v2-store").run("show", ["ad9"])
        #expect(
            run
                == ToolRun(
                    stdout: "", stderr: "Error: 'ad9' is not a work stream id or a prefix of one: give at least 4 hexadecimal digits.\n" + Self.usage, code: 64)
        )
    }

    @Test func unknownPrefixIsADataError() throws {
        let run = try InspectFixture("v2-store").run("show", ["ffff"])
        #expect(
            run
                == ToolRun(
                    stdout: "",
                    stderr: "Error: No work stream of '<store>' has an id starting with 'ffff'. Run 'migrate-store ls <store> --deleted' to see every id.\n",
                    code: 65))
    }

    @Test func orphanCustomisationIdIsNotAWorkStream() throws {
        let run = try InspectFixture("v2-store").run("show", ["e3ec053b-0661-4e09-b86f-1dad7839b6fd"])
        #expect(
            run
                == ToolRun(
                    stdout: "",
                    stderr:
                        "Error: '<store>' has no work stream 'e3ec053b-0661-4e09-b86f-1dad7839b6fd'. Run 'migrate-store ls <store> --deleted' to see every id.\n",
                    code: 65))
    }

    @Test func documentWhoseIdIsNotItsFileNameIsADataError() throws {
        let fixture = try InspectFixture("v2-store")
        try FileManager.default.copyItem(
            atPath: fixture.path("sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json"),
            toPath: fixture.path("sessions/0000aaaa-f10a-49a3-9ec4-a9355366da75.json"))
        let run = try fixture.run("show", ["0000aaaa"])
        #expect(
            run
                == ToolRun(
                    stdout: "",
                    stderr:
                        "Error: Can't show '<store>/sessions/0000aaaa-f10a-49a3-9ec4-a9355366da75.json': its id is 'c25e47cd-f10a-49a3-9ec4-a9355366da75' but its file name says '0000aaaa-f10a-49a3-9ec4-a9355366da75'. Rename the file or fix the id by hand.\n",
                    code: 65))
    }

    @Test func fullShowsTheWholeTextWithoutACutMarker() throws {
        let fixture = try InspectFixture("v1-store")
        let cut = try fixture.run("show", ["555a"]).stdout
        let full = try fixture.run("show", ["555a", "--full"]).stdout
        #expect(cut.contains("      … [cut 2,901 more characters; --full shows all]\n"))
        #expect(!full.contains("[cut "))
        #expect(
            full.contains(
                "\n      The old `send(_:completion:)` can become a thin wrapper that starts a `Task` and calls this method, which lets us migrate the call sites one feature at a time.\n"
            ))
    }

    @Test func messagesOptionShowsTheLastNNewestLast() throws {
        let fixture = try InspectFixture("v1-store")
        let one = try fixture.run("show", ["ad9a", "--messages", "1"]).stdout
        #expect(one.contains("Messages: last 1 of 4 kept in the file; message_count says 18\n  #4  "))
        #expect(!one.contains("  #3  "))
        let none = try fixture.run("show", ["ad9a", "--messages", "0"]).stdout
        #expect(none.hasSuffix("Messages: none shown of 4 kept in the file; message_count says 18\n"))
    }

    @Test func messageOfAnotherWorkStreamIsPointedOut() throws {
        let run = try InspectFixture("v1-store").run("show", ["683f"])
        #expect(run.stdout.contains("      session_id ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b: not this work stream (migration sets it to this id)\n"))
        #expect(run.stdout.contains("  hidden            yes: deleted by the user\n"))
    }

    @Test func replacedProviderSessionIsExplained() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.edit(
            "sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json",
            replacing: "\"provider_session_id\": \"ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b\"",
            with: "\"provider_session_id\": \"0f0f0f0f-1111-4222-8333-444444444444\"")
        let run = try fixture.run("show", ["ad9a"])
        #expect(run.stdout.contains("  provider session  0f0f0f0f-1111-4222-8333-444444444444 (differs from the id: the provider session was replaced)\n"))
        let derived = try #require(try fixture.json("show", ["ad9a"])["derived"] as? [String: Any])
        #expect(derived["provider_session_differs_from_id"] as? Bool == true)
        #expect(derived["provider_session_id_is_default"] as? Bool == false)
    }

    @Test func jsonCutsTextsAndCountsWhatWasCut() throws {
        let object = try InspectFixture("v2-store").json("show", ["555a", "--messages", "2"])
        let messages = try #require(object["messages"] as? [[String: Any]])
        #expect(messages.map { $0["index"] as? Int } == [1, 2])
        #expect(messages.first?["cut_characters"] as? Int == 2901)
        #expect(messages.first?["text_characters"] as? Int == 3101)
        #expect(((messages.first?["message"] as? [String: Any])?["text"] as? String)?.count == 200)
    }
}
