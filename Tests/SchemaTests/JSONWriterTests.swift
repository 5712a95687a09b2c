import Foundation
import Testing
@testable import Schema

/// The writer's output as text, for readable exact comparisons.
func documentText(_ value: JSONValue) -> String {
    String(decoding: JSONWriter.document(value), as: UTF8.self)
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
        #expect(documentText(.null) == "null\n")
        #expect(documentText(.bool(false)) == "false\n")
        #expect(documentText(number("-0.5e+10")) == "-0.5e+10\n")
        #expect(documentText(.string("")) == "\"\"\n")
        #expect(documentText(.array([])) == "[]\n")
        #expect(documentText(.object([:])) == "{}\n")
    }

    @Test func keysAreSortedByTheirUTF8Bytes() {
        let keys = ["b", "a", "B", "é", "z", "\u{7F}", "aa", "😀", "\u{FFFF}", "", "e\u{301}x"]
        let value = JSONValue.object(Dictionary(uniqueKeysWithValues: keys.map { ($0, JSONValue.null) }))
        let order = ["", "B", "a", "aa", "b", "e\u{301}x", "z", "\u{7F}", "é", "\u{FFFF}", "😀"]
        let expected = "{\n" + order.map { "  \"\($0)\": null" }.joined(separator: ",\n") + "\n}\n"
        #expect(documentText(value) == expected)
    }

    @Test func onlyQuoteBackslashAndControlCharactersAreEscaped() {
        let value = JSONValue.string("\"\\/\u{8}\u{C}\n\r\t\u{0}\u{1}\u{1B}\u{1F}\u{7F}é\u{2028}😀")
        let expected: [UInt8] = Array(#""\"\\/\b\f\n\r\t\u0000\u0001\u001b\u001f"#.utf8)
            + [0x7F] + Array("é\u{2028}😀\"\n".utf8)
        #expect(JSONWriter.document(value) == expected)
    }

    @Test func numberLiteralsAreWrittenAsKept() {
        let literals = ["1.0", "1E6", "-0", "12345678901234567890", "1e-999", "0.10"]
        let expected = "[\n" + literals.map { "  " + $0 }.joined(separator: ",\n") + "\n]\n"
        #expect(documentText(.array(literals.map(number))) == expected)
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
        #expect(documentText(value) == expected)
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
        #expect(String(decoding: once, as: UTF8.self) == """
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
