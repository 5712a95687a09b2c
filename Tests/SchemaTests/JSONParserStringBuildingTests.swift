import Testing

@testable import Schema
@testable import StoreJSON

/// Long mostly-ASCII strings are assembled by `SparseUTF8` and repeated keys come from the
/// parser's `KeyCache`; both must give exactly the bytes, values and errors of plain decoding.
@Suite struct JSONParserStringBuildingTests {
    static let quote = UInt8(ascii: "\"")

    /// ASCII text of `length` bytes with `character` at each of `offsets`.
    static func text(length: Int, character: String, at offsets: [Int]) -> [UInt8] {
        var bytes = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        let encoded = Array(character.utf8)
        for offset in offsets.sorted(by: >) where offset <= bytes.count {
            bytes.insert(contentsOf: encoded, at: offset)
        }
        return bytes
    }

    func parsedString(_ content: [UInt8], escaped: Bool) throws -> [UInt8] {
        let input = [Self.quote] + (escaped ? Array(#"\t"#.utf8) : []) + content + [Self.quote]
        guard case .string(let s) = try JSONParser.parse(input) else { Issue.record("not a string"); return [] }
        return Array(s.utf8)
    }

    @Test func longTextWithFewNonASCIICharactersIsReadExactly() throws {
        for length in [200, 255, 256, 257, 1000, 5000] {
            for character in ["é", "€", "😀", "\u{10FFFF}"] {
                let placements: [[Int]] = [
                    [0], [length], [0, length], [length / 2, length / 2], [1, 2, 3],
                    Array(stride(from: 0, through: length, by: 97)),
                    Array(repeating: 7, count: 15), Array(repeating: 7, count: 16), Array(repeating: 7, count: 17),
                    Array(stride(from: 0, through: length, by: max(1, length / 20))),
                ]
                for offsets in placements {
                    let content = Self.text(length: length, character: character, at: offsets)
                    for escaped in [false, true] {
                        let expected = (escaped ? [0x09] : []) + content
                        #expect(
                            try parsedString(content, escaped: escaped) == expected,
                            "length \(length), \(character) at \(offsets), escaped \(escaped)")
                    }
                }
            }
        }
    }

    @Test func longTextOfOnlyNonASCIICharactersIsReadExactly() throws {
        let content = Array(String(repeating: "é€😀", count: 100).utf8)
        #expect(try parsedString(content, escaped: false) == content)
    }

    @Test func badUTF8InLongTextIsReportedAtItsFirstByte() {
        let bad: [(bytes: [UInt8], reason: String)] = [
            ([0xFF], "invalid UTF-8 byte 0xFF in string"),
            ([0xE2, 0x82], "incomplete UTF-8 sequence 0xE2 0x82 in string"),
            ([0xED, 0xA0, 0x80], "invalid UTF-8 sequence 0xED 0xA0 in string (an encoded UTF-16 surrogate)"),
            ([0xF4, 0x90, 0x80, 0x80], "invalid UTF-8 sequence 0xF4 0x90 in string (beyond U+10FFFF)"),
        ]
        for (sequence, reason) in bad {
            for position in [0, 100, 299] {
                // Alone in ASCII text, and after 20 valid characters (more than the sparse path takes).
                for before in ["", String(repeating: "é", count: 20)] {
                    let prefix = Array(before.utf8) + Self.text(length: position, character: "", at: [])
                    let content = prefix + sequence + Self.text(length: 300, character: "", at: [])
                    expectSyntaxError([Self.quote] + content + [Self.quote], offset: 1 + prefix.count, reason: reason)
                    expectSyntaxError([Self.quote] + Array(#"\n"#.utf8) + content + [Self.quote], offset: 3 + prefix.count, reason: reason)
                }
            }
        }
    }

    @Test func repeatedAndCollidingKeysReadTheirOwnValues() throws {
        // Keys of 1 to 40 bytes. Those of 4 or more bytes that differ only in their second byte
        // share length, first, middle and last byte, so they share a cache slot and replace
        // each other there all the time.
        var keys: [String] = []
        for length in 1...40 {
            for variant in ["a", "b", "c"] {
                keys.append(variant + String(repeating: "_", count: max(0, length - 2)) + (length > 1 ? "z" : ""))
                if length >= 4 { keys.append("k" + variant + String(repeating: "_", count: length - 3) + "z") }
            }
        }
        keys = Array(Set(keys)).sorted()
        var text = "["
        for round in 0..<3 {
            text += (round > 0 ? "," : "") + "{" + keys.enumerated().map { "\"\($1)\": \($0 + round)" }.joined(separator: ",") + "}"
        }
        guard case .array(let objects) = try JSONParser.parse(Array((text + "]").utf8)) else { Issue.record("not an array"); return }
        for (round, value) in objects.enumerated() {
            guard case .object(let object) = value else { Issue.record("not an object"); return }
            #expect(object.count == keys.count)
            for (index, key) in keys.enumerated() { #expect(object[key] == .number(JSONNumber(index + round)), "\(key)") }
        }
    }

    @Test func aCachedKeyIsNotTakenForALongerKeyItBegins() throws {
        // The cache is looked up by a key's first eight bytes, before the key is scanned.
        let keys = ["priority", "priority_order", "priority_queued_at", "ab", "abc", "abcdefg", "abcdefgh", "abcdefghi"]
        let object = "{" + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}"
        let reversed = "{" + keys.enumerated().reversed().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}"
        guard case .array(let objects) = try JSONParser.parse(Array("[\(object), \(reversed), \(object)]".utf8)) else {
            Issue.record("not an array"); return
        }
        for value in objects {
            #expect(value == .object(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, .number(JSONNumber($0))) })))
        }
        // A key with an escape, or cut short, after a cached key with the same first bytes.
        expectSyntaxError(
            #"[{"abcdefgh": 1}, {"abcdefgh\u0041": 2}, {"abcdefgh"#, offset: 51,
            reason: "unexpected end of input inside a string")
        #expect(
            try JSONParser.parse(Array(#"[{"abcdefgh": 1}, {"abcdefgh\u0041": 2}]"#.utf8))
                == .array([.object(["abcdefgh": .number(JSONNumber(1))]), .object(["abcdefghA": .number(JSONNumber(2))])]))
    }

    @Test func aCachedKeyAndTheSameKeyWrittenWithEscapesAreDuplicates() {
        expectSyntaxError(#"[{"id": 1}, {"id": 1, "\u0069d": 2}]"#, offset: 22, reason: "duplicate key 'id' in object")
        expectSyntaxError(#"{"\u0069d": 1, "id": 2}"#, offset: 15, reason: "duplicate key 'id' in object")
    }
}
