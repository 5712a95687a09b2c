import Testing

@testable import MigrateStoreCLI

@Suite struct HelpFormatterTests {
    @Test func wrapBreaksBetweenWordsAtTheWidth() {
        #expect(HelpFormatter.wrap("aaa bbb ccc", width: 7) == ["aaa bbb", "ccc"])
        #expect(HelpFormatter.wrap("a verylongword b", width: 5) == ["a", "verylongword", "b"])
        #expect(HelpFormatter.wrap("", width: 5) == [""])
    }

    @Test func rowAlignsHelpAtColumn26AndMovesItDownAfterAWideLabel() {
        #expect(
            HelpFormatter.row("<store>", "The store directory.")
                == "  <store>                 The store directory.")
        #expect(
            HelpFormatter.row("--a-very-long-option <value>", "Help.")
                == "  --a-very-long-option <value>\n" + String(repeating: " ", count: 26) + "Help.")
    }

    @Test func optionHelpShowsChoicesAndDefault() {
        #expect(
            HelpFormatter.help(for: ListCommand.spec.options[0]) == "The order of the list: newest first, "
                + "by display name, or by queue position. (values: last-modified, name, queue; default: last-modified)")
    }

    @Test func exitCodesTopicIsATableOfEveryCode() {
        #expect(
            HelpFormatter.exitCodesHelp() == """
                OVERVIEW: The exit statuses of migrate-store.

                EXIT CODES:
                  0                       Success: the command did what was asked.
                  64                      Usage error: the command line is wrong, or a path on
                                          it does not exist or is not a store, backup or export.
                                          Nothing was changed.
                  65                      Data error: a document is bad or incompatible with
                                          this tool version.
                  69                      Verification failed: a check ran and found a
                                          difference.
                  70                      Internal error: a bug in migrate-store. Please report
                                          it.
                  73                      Can't create an output file or directory.
                  74                      I/O error: reading or writing failed.
                  75                      The store is locked by another process, or a restore
                                          into it has not finished. Try again when it has
                                          finished.

                The values follow BSD sysexits.h. With --json, a failed command still prints one
                JSON object, with an "error" member holding "exit_code" and "message".

                """)
    }

    @Test func everyLineOfEveryHelpFitsEightyColumns() {
        let texts =
            [HelpFormatter.toolHelp(.unimplemented), HelpFormatter.exitCodesHelp()]
            + CommandSpec.all.map(HelpFormatter.help(for:))
        for text in texts {
            for line in text.split(separator: "\n") where !line.hasPrefix("USAGE:") {
                #expect(line.count <= 80, "\(line)")
            }
        }
    }
}

@Suite struct SuggestionTests {
    @Test func editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        #expect(Suggestion.editDistance("json", "json") == 0)
        #expect(Suggestion.editDistance("jsn", "json") == 1)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("", "abc") == 3)
    }

    @Test func closestCandidateWithinTwoEditsWinsAndTiesGoToTheFirst() {
        #expect(Suggestion.closest(to: "stat", in: ["stats", "status"]) == "stats")
        #expect(Suggestion.closest(to: "lss", in: ["ls", "show"]) == "ls")
        #expect(Suggestion.closest(to: "frobnicate", in: ["force", "full"]) == nil)
    }
}
