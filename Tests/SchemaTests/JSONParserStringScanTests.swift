import Testing

@testable import Schema
@testable import StoreJSON

/// The parser finds the end of plain string content sixteen bytes at a time and decodes
/// escapes into a scratch buffer. These tests put every kind of boundary (a quote, an
/// escape, a multi-byte character, a bad UTF-8 sequence) at every position of a 16-byte
/// chunk, and expect exactly the values and errors of the byte-at-a-time parser it replaced.
@Suite struct JSONParserStringScanTests {
    /// `count` ASCII letters, cycling through the alphabet.
    static func letters(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    }

    static let quote = UInt8(ascii: "\"")

    /// Parses `bytes` and returns the string it holds (top-level or inside an array).
    func parsedString(_ bytes: [UInt8]) throws -> [UInt8] {
        switch try JSONParser.parse(bytes) {
        case .string(let s): return Array(s.utf8)
        case .array(let items):
            guard case .string(let s)? = items.first else { Issue.record("no string in \(items)"); return [] }
            return Array(s.utf8)
        default: Issue.record("not a string"); return []
        }
    }

    @Test func plainStringsOfEveryLengthAndAlignmentAreReadExactly() throws {
        for padding in 0..<16 {
            for length in 0...40 {
                let content = Self.letters(length)
                let input = Array(repeating: UInt8(ascii: " "), count: padding) + [Self.quote] + content + [Self.quote]
                #expect(try parsedString(input) == content, "padding \(padding), length \(length)")
            }
        }
    }

    @Test func escapesAtTheStartTheEndAndSideBySideAreDecoded() throws {
        let cases: [(String, String)] = [
            (#""\nabc""#, "\nabc"),
            (#""abc\n""#, "abc\n"),
            (#""\n""#, "\n"),
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
            (#""a\"b\\c""#, "a\"b\\c"),
            (#""\u00e9\n\u20AC""#, "é\n€"),
            (#""0123456789abcde\n0123456789abcdef\t""#, "0123456789abcde\n0123456789abcdef\t"),
            (#""\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\""#, String(repeating: "\\", count: 17)),
        ]
        for (input, expected) in cases {
            #expect(try parsedString(Array(input.utf8)) == Array(expected.utf8), "\(input)")
        }
    }

    @Test func anEscapeAtEveryPositionOfAChunkIsDecoded() throws {
        for before in 0...33 {
            let input = [Self.quote] + Self.letters(before) + Array(#"\n"#.utf8) + Self.letters(5) + [Self.quote]
            #expect(try parsedString(input) == Self.letters(before) + [0x0A] + Self.letters(5), "before \(before)")
        }
    }

    @Test func longEscapedStringsOutgrowTheScratchBuffer() throws {
        let content = String(repeating: "line of text\\n", count: 200) + String(repeating: "\\u00e9", count: 300)
        let expected = String(repeating: "line of text\n", count: 200) + String(repeating: "é", count: 300)
        #expect(try parsedString(Array("\"\(content)\"".utf8)) == Array(expected.utf8))
    }

    @Test func multiByteCharactersAcrossChunkBoundariesAreKept() throws {
        for character in ["é", "€", "😀", "\u{10FFFF}"] {
            for before in 0...33 {
                for escaped in [false, true] {
                    let prefix = escaped ? Array(#"\t"#.utf8) : []
                    let content = prefix + Self.letters(before) + Array(character.utf8) + Self.letters(3)
                    let expected = (escaped ? [0x09] : []) + Self.letters(before) + Array(character.utf8) + Self.letters(3)
                    #expect(
                        try parsedString([Self.quote] + content + [Self.quote]) == expected,
                        "\(character) after \(before) letters, escaped \(escaped)")
                }
            }
        }
    }

    @Test func surrogatePairEscapesAtEveryPositionBecomeOneCharacter() throws {
        for before in 0...20 {
            let input = [Self.quote] + Self.letters(before) + Array(#"\uD83D\uDE00"#.utf8) + [Self.quote]
            #expect(try parsedString(input) == Self.letters(before) + Array("😀".utf8), "before \(before)")
        }
        expectSyntaxError(#"["abc\uD83Dx"]"#, offset: 5, reason: #"lone surrogate \uD83D in string"#)
        expectSyntaxError(#"["abc\uDE00"]"#, offset: 5, reason: #"lone surrogate \uDE00 in string"#)
        expectSyntaxError(#"["\uD83D\uD83D"]"#, offset: 2, reason: #"lone surrogate \uD83D in string"#)
    }

    @Test func anASCIIStringNextToNonASCIITextIsReadExactly() throws {
        // The chunk that ends "abc" also holds the bytes of "é" and "€" after it.
        let value = try JSONParser.parse(Array(#"["abc","é€","x"]"#.utf8))
        #expect(identical(value, .array([.string("abc"), .string("é€"), .string("x")])))
    }

    /// Bad UTF-8 after an ASCII run, the reason the byte-at-a-time parser gave for it.
    static let badSequences: [(bytes: [UInt8], reason: String)] = [
        ([0x80], "invalid UTF-8 byte 0x80 in string"),
        ([0xFF], "invalid UTF-8 byte 0xFF in string"),
        ([0xC0, 0x80], "invalid UTF-8 byte 0xC0 in string"),
        ([0xC3], "incomplete UTF-8 sequence 0xC3 in string"),
        ([0xE2, 0x82], "incomplete UTF-8 sequence 0xE2 0x82 in string"),
        ([0xF0, 0x9F, 0x98], "incomplete UTF-8 sequence 0xF0 0x9F 0x98 in string"),
        ([0xE2, 0x41, 0x80], "incomplete UTF-8 sequence 0xE2 in string"),
        ([0xE0, 0x80, 0x80], "invalid UTF-8 sequence 0xE0 0x80 in string (overlong encoding)"),
        ([0xF0, 0x80, 0x80, 0x80], "invalid UTF-8 sequence 0xF0 0x80 in string (overlong encoding)"),
        ([0xED, 0xA0, 0x80], "invalid UTF-8 sequence 0xED 0xA0 in string (an encoded UTF-16 surrogate)"),
        ([0xF4, 0x90, 0x80, 0x80], "invalid UTF-8 sequence 0xF4 0x90 in string (beyond U+10FFFF)"),
    ]

    @Test func badUTF8AfterAnASCIIRunIsReportedAtItsFirstByte() {
        for (bad, reason) in Self.badSequences {
            for run in 0...17 {
                let letters = Self.letters(run)
                let at = 1 + run
                // Closed normally, cut by a control character, by a bad escape, or by the end of input.
                expectSyntaxError([Self.quote] + letters + bad + Array("bc".utf8) + [Self.quote], offset: at, reason: reason)
                expectSyntaxError([Self.quote] + letters + bad + [0x0A, Self.quote], offset: at, reason: reason)
                expectSyntaxError([Self.quote] + letters + bad + Array(#"\x""#.utf8), offset: at, reason: reason)
                expectSyntaxError([Self.quote] + letters + bad, offset: at, reason: reason)
                // After an escape, the run is copied to the scratch buffer before it is checked.
                expectSyntaxError([Self.quote] + Array(#"\n"#.utf8) + letters + bad + [Self.quote], offset: at + 2, reason: reason)
            }
        }
    }

    @Test func aControlCharacterAfterValidNonASCIITextIsReportedAtItsOffset() {
        expectSyntaxError(
            Array("[\"abcdefghijklmné\u{1}\"]".utf8), offset: 18,
            reason: "control character U+0001 must be escaped in a string")
    }
}
