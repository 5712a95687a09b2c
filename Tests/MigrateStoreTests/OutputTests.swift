import Foundation
import Schema
import Testing

@testable import MigrateStoreCLI

@Suite struct OutputTests {
    @Test func humanModeWritesResultsAndInfoToStandardOutput() {
        let captured = CapturedOutput()
        let out = captured.output()
        out.info("Reading...")
        out.print("Done.")
        out.emitJSON(["ignored": true])
        out.error("Bad.")
        #expect(captured.stdout == "Reading...\nDone.\n")
        #expect(captured.stderr == "Error: Bad.\n")
    }

    @Test func jsonModeMovesInfoToStandardErrorAndDropsText() {
        let captured = CapturedOutput()
        let out = captured.output(json: true)
        out.info("Reading...")
        out.print("Done.")
        out.emitJSON([:])
        #expect(captured.stdout == "{\n  \"command\": \"test\",\n  \"format_version\": 1\n}\n")
        #expect(captured.stderr == "Reading...\n")
        #expect(out.hasEmittedJSON)
    }

    @Test func jsonIsPrettyPrintedWithSortedKeysAndEscapedStrings() throws {
        let value: JSONOutputValue = [
            "b": [1, 2.5, 1.0, nil, true],
            "a": ["é": "x", "Z": [], "z": [:]],
            "text": "quote \" backslash \\ newline \n tab \t bell \u{07}",
            "document": .document(.object(["n": .number(JSONNumber(literal: "1.0")!), "s": .string("é")])),
        ]
        let expected = """
            {
              "a": {
                "Z": [],
                "z": {},
                "é": "x"
              },
              "b": [
                1,
                2.5,
                1.0,
                null,
                true
              ],
              "document": {
                "n": 1.0,
                "s": "é"
              },
              "text": "quote \\" backslash \\\\ newline \\n tab \\t bell \\u0007"
            }
            """
        #expect(value.rendered() == expected)
        // Foundation agrees that it is valid JSON.
        let parsed = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? [String: Any]
        #expect(parsed?["text"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{07}")
    }

    @Test func progressLineIsShownOnlyOnATerminalWithoutQuiet() {
        let captured = CapturedOutput()
        #expect(captured.output(terminal: true).progress("Copying", total: 3).isEnabled)
        #expect(!captured.output(terminal: false).progress("Copying", total: 3).isEnabled)
        #expect(!captured.output(quiet: true, terminal: true).progress("Copying", total: 3).isEnabled)
    }

    @Test func withProgressClearsTheLineWhenTheBodyThrows() {
        struct Stop: Error {}
        let captured = CapturedOutput()
        let out = captured.output(terminal: true)
        #expect(throws: Stop.self) {
            try out.withProgress("Copying", total: nil) { _ in throw Stop() }
        }
        #expect(captured.stderr == "")
    }
}

@Suite struct ProgressLineTests {
    /// A progress line drawing into `drawn`, with a clock the test moves by hand.
    private final class Harness: @unchecked Sendable {
        var drawn = ""
        var now: Duration = .zero
        lazy var line = ProgressLine(
            label: "Migrating", total: 40, isEnabled: true,
            write: { self.drawn += $0 }, elapsed: { self.now })
    }

    @Test func nothingIsDrawnDuringTheFirstSecond() {
        let harness = Harness()
        harness.now = .milliseconds(999)
        harness.line.update(5)
        harness.line.finish()
        #expect(harness.drawn == "")
    }

    @Test func lineIsRedrawnInPlaceAndBlankedAtTheEnd() {
        let harness = Harness()
        harness.now = .seconds(1)
        harness.line.update(12, detail: "sessions/ab.json")
        harness.now = .milliseconds(1050)
        harness.line.update(13)  // within the redraw interval: skipped
        harness.now = .milliseconds(1100)
        harness.line.update(14)
        harness.line.finish()
        harness.line.update(15)  // after finish: ignored
        #expect(
            harness.drawn == "\rMigrating: 12/40 sessions/ab.json, 12/s, 3 s left"
                + "\rMigrating: 14/40, 13/s, 3 s left" + String(repeating: " ", count: 17)
                + "\r" + String(repeating: " ", count: 32) + "\r")
    }

    @Test func rateAndTimeLeftAppearAfterASecondOfWork() {
        #expect(ProgressLine.pace(completed: 100, total: 400, elapsed: .milliseconds(999)) == "")
        #expect(ProgressLine.pace(completed: 0, total: 400, elapsed: .seconds(5)) == "")
        #expect(ProgressLine.pace(completed: 100, total: 400, elapsed: .seconds(2)) == ", 50/s, 6 s left")
        #expect(ProgressLine.pace(completed: 3, total: 1000, elapsed: .seconds(2)) == ", 1.5/s, 11 min 5 s left")
        #expect(ProgressLine.pace(completed: 50, total: nil, elapsed: .seconds(10)) == ", 5.0/s")
        #expect(ProgressLine.pace(completed: 400, total: 400, elapsed: .seconds(2)) == ", 200/s")
        #expect(ProgressLine.timeLeft(7_300) == "2 h 1 min")
    }

    @Test func longTextIsCutToFitOneTerminalLine() {
        let harness = Harness()
        let text = harness.line.text(completed: 1, detail: String(repeating: "x", count: 200))
        #expect(text.count == 79 && text.hasSuffix("…"))
    }
}
