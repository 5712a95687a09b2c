import Foundation
import Testing

@testable import MigrateStoreCLI

/// `--json` output strings: the no-escape fast path and the escaping path give exactly the
/// literal a byte-by-byte reference gives, and the literal reads back as the same string.
@Suite struct JSONOutputStringTests {
    private func reference(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0..<0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test(arguments: ["", "plain ascii", "é 🦊 \u{2028} /", "\"", "\\", "a\nb", "\u{0}\u{1f}\u{7f}", "tab\there", "x\"y\\z\r\u{8}\u{c}"])
    func stringLiteralMatchesReferenceAndReadsBack(_ string: String) throws {
        var text = "prefix:"
        JSONOutputRenderer.writeString(string, into: &text)
        #expect(text == "prefix:" + reference(string))
        let back = try JSONSerialization.jsonObject(with: Data(text.dropFirst(7).utf8), options: .fragmentsAllowed) as? String
        #expect(back == string)
    }
}
