import Foundation
import Testing

@testable import Schema
@testable import StoreJSON

/// Expects the writer's bytes to equal the UTF-8 of `expected`, byte for byte (a `String`
/// comparison would treat canonically equivalent text as equal); shows both texts on failure.
func expectDocument(_ value: JSONValue, is expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let bytes = JSONWriter.document(value)
    #expect(
        bytes == Array(expected.utf8), "\(String(decoding: bytes, as: UTF8.self)) != \(expected)",
        sourceLocation: sourceLocation)
}

func number(_ literal: String) -> JSONValue { .number(JSONNumber(literal: literal)!) }

struct JSONWriterTests {
    @Test func exampleDocumentIsWrittenExactly() {
        let value: JSONValue = .object([
            "e": .string("x\ny"),
            "b": .object(["d": .array([.bool(true), .null]), "c": number("1.0")]),
            "a": .array([]),
        ])
        let expected = """
            {
              "a": [],
              "b": {
                "c": 1.0,
                "d": [
                  true,
                  null
                ]
              },
              "e": "x\\ny"
            }

            """
        #expect(JSONWriter.document(value) == Array(expected.utf8))
    }

    @Test func scalarsAndEmptyContainersAtTopLevelEndWithNewline() {
        expectDocument(.null, is: "null\n")
        expectDocument(.bool(false), is: "false\n")
        expectDocument(number("-0.5e+10"), is: "-0.5e+10\n")
        expectDocument(.string(""), is: "\"\"\n")
        expectDocument(.array([]), is: "[]\n")
        expectDocument(.object([:]), is: "{}\n")
    }

    @Test func keysAreSortedByTheirUTF8Bytes() {
        let keys = ["b", "a", "B", "é", "z", "\u{7F}", "aa", "😀", "\u{FFFF}", "", "e\u{301}x"]
        let value = JSONValue.object(Dictionary(uniqueKeysWithValues: keys.map { ($0, JSONValue.null) }))
        let order = ["", "B", "a", "aa", "b", "e\u{301}x", "z", "\u{7F}", "é", "\u{FFFF}", "😀"]
        let expected = "{\n" + order.map { "  \"\($0)\": null" }.joined(separator: ",\n") + "\n}\n"
        expectDocument(value, is: expected)
    }

    @Test func onlyQuoteBackslashAndControlCharactersAreEscaped() {
        let value = JSONValue.string("\"\\/\u{8}\u{C}\n\r\t\u{0}\u{1}\u{1B}\u{1F}\u{7F}é\u{2028}😀")
        let expected: [UInt8] =
            Array(#""\"\\/\b\f\n\r\t\u0000\u0001\u001b\u001f"#.utf8)
            + [0x7F] + Array("é\u{2028}😀\"\n".utf8)
        #expect(JSONWriter.document(value) == expected)
    }

    @Test func stringsKeepTheirExactScalarsWithoutNormalization() {
        expectDocument(.array([.string("e\u{301}"), .string("\u{E9}")]), is: "[\n  \"e\u{301}\",\n  \"\u{E9}\"\n]\n")
        expectDocument(.object(["e\u{301}": .null]), is: "{\n  \"e\u{301}\": null\n}\n")
    }

    @Test func numberLiteralsAreWrittenAsKept() {
        let literals = ["1.0", "1E6", "-0", "12345678901234567890", "1e-999", "0.10"]
        let expected = "[\n" + literals.map { "  " + $0 }.joined(separator: ",\n") + "\n]\n"
        expectDocument(.array(literals.map(number)), is: expected)
    }

    @Test func nestedContainersIndentTwoSpacesPerLevel() {
        let value = JSONValue.array([.array([.object(["k": .array([.object([:])])])]), .string("s")])
        let expected = """
            [
              [
                {
                  "k": [
                    {}
                  ]
                }
              ],
              "s"
            ]

            """
        expectDocument(value, is: expected)
    }

    @Test func writeEmbedsAValueAtTheGivenIndentLevel() {
        var out = Array("{\n  \"x\": ".utf8)
        JSONWriter.write(.object(["a": .array([.null])]), indentLevel: 1, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "{\n  \"x\": {\n    \"a\": [\n      null\n    ]\n  }")
    }

    @Test func documentOfParsedDocumentIsByteIdentical() throws {
        let text = "{\"z\": [1.50, {\"é\": \"\\u00e9\\n\\/\"}], \"a\": -0, \"m\": {\"k\": [[], {}]}}"
        let once = JSONWriter.document(try parse(text))
        let twice = JSONWriter.document(try JSONParser.parse(once))
        #expect(once == twice)
        #expect(try JSONParser.parse(once) == parse(text))
        #expect(
            String(decoding: once, as: UTF8.self) == """
                {
                  "a": -0,
                  "m": {
                    "k": [
                      [],
                      {}
                    ]
                  },
                  "z": [
                    1.50,
                    {
                      "é": "é\\n/"
                    }
                  ]
                }

                """)
    }

    @Test func deepestParsableDocumentWritesOnASmallStack() throws {
        let text = String(repeating: #"{"a":["#, count: 256) + String(repeating: "]}", count: 256)
        let value = try parse(text)
        let bytes = onThread(stackSize: 512 * 1024) { JSONWriter.document(value) }
        #expect(try JSONParser.parse(bytes) == value)
    }
}
