import Foundation
import Testing

@testable import MigrateStoreCLI

/// Names with terminal escapes, bidirectional overrides and newlines, and a very long name:
/// the human output of `ls`, `show` and `queue` escapes them as `\u{…}` with one note line,
/// cuts long names in table columns to `TerminalText.nameWidth` with an ellipsis, and `--json`
/// keeps every name exactly.
@Suite struct InspectHostileNameTests {
    static let colour = "Fix \u{1B}[31mlogin crash on iPad"
    static let override = "Add \u{202E}dark mode to settings screen"
    static let newline = "Speed up\nCI test run"
    static let long = "Network " + String(repeating: "layer ", count: 49)  // 8 + 294 = 302 characters

    /// The v2 sample with four names replaced, written as JSON escapes in the documents.
    static func fixture(label: String = #function) throws -> InspectFixture {
        let f = try InspectFixture("v2-store", label: label)
        try f.edit(
            "sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json", replacing: "\"Fix login crash on iPad\"",
            with: "\"Fix \\u001b[31mlogin crash on iPad\"")
        try f.edit(
            "sessions/ec3629cb-f446-449f-b8a0-f43e156345d8.json", replacing: "\"backend_name\": \"Add dark mode",
            with: "\"backend_name\": \"Add \\u202Edark mode")
        try f.edit(
            "sessions/ad63adfa-7ad7-45dc-882c-80791120b6cc.json", replacing: "\"Speed up CI test run\"",
            with: "\"Speed up\\nCI test run\"")
        try f.edit(
            "user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json", replacing: "\"Network layer: async/await\"",
            with: "\"\(long)\"")
        return f
    }

    /// No character that could move the cursor, recolour or reorder the terminal's text.
    static func expectPrintable(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bad = text.unicodeScalars.filter { $0 != "\n" && TerminalText.isEscaped($0) }
        #expect(bad.isEmpty, "raw control or bidi characters: \(bad.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
    }

    static let cutLong = String(long.prefix(TerminalText.nameWidth - 1)) + "…"

    @Test func lsEscapesAndCutsNamesAndSaysSoOnce() throws {
        let run = try Self.fixture().run("ls", ["--sort", "name"])
        #expect(run.code == 0 && run.stderr == "")
        Self.expectPrintable(run.stdout)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 1 + 7 + 2 + 1, "header, 7 rows, footer, note, and the final newline: \(run.stdout)")
        let names = lines.dropFirst().prefix(7).map { line in String(line.dropFirst(10).prefix(TerminalText.nameWidth)) }
        #expect(
            names == [
                "Add \\u{202E}dark mode to settings screen        ",
                "Explain the Package.swift layout                ",
                "Fix \\u{1B}[31mlogin crash on iPad               ",
                Self.cutLong,
                "Speed up\\u{A}CI test run                        ",
                "Untitled work stream                            ",
                "Write release notes for 2.4                     ",
            ])
        #expect(lines[8] == "7 work streams (1 deleted by the user not shown; --deleted shows it).")
        #expect(lines[9] == TerminalText.note)
        #expect(lines.filter { $0.hasPrefix("Note:") }.count == 1)
        // Every row has the same width up to the PROVIDER column: the cut and the escapes are measured.
        #expect(Set(lines[1...7].map { $0.range(of: "claude")?.lowerBound.utf16Offset(in: $0) ?? -1 }).count == 1)
    }

    @Test func lsJSONKeepsNamesExactly() throws {
        let object = try Self.fixture().json("ls", ["--sort", "name"])
        let names = (object["work_streams"] as? [[String: Any]] ?? []).compactMap { $0["display_name"] as? String }
        #expect(
            names == [
                Self.override, "Explain the Package.swift layout", Self.colour, Self.long, Self.newline,
                "Untitled work stream", "Write release notes for 2.4",
            ])
    }

    @Test func showEscapesButDoesNotCutTheName() throws {
        let f = try Self.fixture()
        let colour = try f.run("show", ["ad9a22b8"])
        #expect(colour.code == 0)
        Self.expectPrintable(colour.stdout)
        #expect(colour.stdout.contains("  display name      Fix \\u{1B}[31mlogin crash on iPad (from backend_name)\n"))
        #expect(colour.stdout.hasSuffix("\n" + TerminalText.note + "\n"))
        let long = try f.run("show", ["555a"])
        #expect(long.code == 0)
        #expect(long.stdout.contains("  display name      \(Self.long) (from custom_name)\n"))
        #expect(!long.stdout.contains(TerminalText.note), "nothing escaped, no note")
        let json = try f.json("show", ["ad9a22b8"])
        #expect((json["derived"] as? [String: Any])?["display_name"] as? String == Self.colour)
    }

    @Test func queueEscapesAndCutsNames() throws {
        let run = try Self.fixture().run("queue")
        #expect(run.code == 0)
        Self.expectPrintable(run.stdout)
        #expect(run.stdout.contains("    1  ad9a22b8  Fix \\u{1B}[31mlogin crash on iPad"))
        #expect(run.stdout.contains("    2  555a622d  \(Self.cutLong)  2025-11-04T15:24:05.930Z  yes\n"))
        #expect(run.stdout.contains("  ec3629cb  Add \\u{202E}dark mode to settings screen"))
        #expect(run.stdout.contains("  ad63adfa  Speed up\\u{A}CI test run"))
        #expect(run.stdout.hasSuffix("\n" + TerminalText.note + "\n"))
        #expect(run.stdout.components(separatedBy: "Note: control").count == 2)
    }

    @Test func escapingAndCuttingRules() {
        #expect(TerminalText.escaped("a\u{7F}\u{85}\u{200E}\u{2066}\u{2028}b") == "a\\u{7F}\\u{85}\\u{200E}\\u{2066}\\u{2028}b")
        #expect(TerminalText.escaped("Łódź 👩‍👩‍👧 ok") == "Łódź 👩‍👩‍👧 ok", "letters and emoji joiners stay")
        #expect(TerminalText.width("a\u{1B}") == 7)
        #expect(TerminalText.truncated("abcdef", width: 6) == "abcdef")
        #expect(TerminalText.truncated("abcdefg", width: 6) == "abcde…")
        // An escape is never cut in half: "ab\u{1B}" is 8 wide, so only "ab" fits before the ellipsis.
        #expect(TerminalText.truncated("ab\u{1B}cdef", width: 6) == "ab…")
    }
}
