import Foundation
import StoreGenerator
import Testing

@testable import Schema

/// `WorkStreamRules.trimmedOfWhiteSpace` returns what Foundation's
/// `trimmingCharacters(in: .whitespacesAndNewlines)` returns, on its fast path (visible ASCII at
/// both ends) and off it.
@Suite struct WorkStreamRulesTrimTests {
    /// The exact scalars (String's `==` would take canonically equivalent text as equal).
    private func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    /// White space and newlines of every kind Foundation trims, controls it doesn't, visible ASCII
    /// at the edges of the fast path's range, and letters beyond ASCII.
    static let alphabet: [String] = [
        " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{200A}", "\u{2028}",
        "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{0}", "\u{1F}", "\u{7F}", "\u{200B}", "\u{FEFF}",
        "!", "~", "a", "Z", "0", "-", "é", "e\u{301}", "漢", "🦊", "\r\n",
    ]

    @Test(arguments: ["", " ", "a", " a", "a ", "\u{A0}x\u{3000}", "!~", "~ ", "\u{85}", "Fix login crash", "\t\n"])
    func listedTextTrimsAsFoundationDoes(_ text: String) {
        #expect(scalars(WorkStreamRules.trimmedOfWhiteSpace(text)) == scalars(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func randomTextTrimsAsFoundationDoes() {
        var random = SeededGenerator(seed: 19)
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in Self.alphabet.randomElement(using: &random)! }.joined()
            #expect(
                scalars(WorkStreamRules.trimmedOfWhiteSpace(text)) == scalars(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                "\(scalars(text).map { String($0, radix: 16) })")
        }
    }
}
