import Foundation
import Testing

@testable import Schema
@testable import StoreJSON

/// Parses UTF-8 text, for tests whose input is valid Swift text.
func parse(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
    try JSONParser.parse(Array(text.utf8), maxDepth: maxDepth)
}

/// Expects `input` to be rejected with exactly this position and reason.
func expectSyntaxError(
    _ input: [UInt8], offset: Int, line: Int = 1, column: Int? = nil, reason: String, maxDepth: Int = 512,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let expected = JSONSyntaxError(offset: offset, line: line, column: column ?? offset + 1, reason: reason)
    #expect(throws: expected, sourceLocation: sourceLocation) { try JSONParser.parse(input, maxDepth: maxDepth) }
}

func expectSyntaxError(
    _ text: String, offset: Int, line: Int = 1, column: Int? = nil, reason: String, maxDepth: Int = 512,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectSyntaxError(
        Array(text.utf8), offset: offset, line: line, column: column, reason: reason,
        maxDepth: maxDepth, sourceLocation: sourceLocation)
}

/// Equality that also tells canonically equivalent text apart: strings and keys compare by
/// their UTF-8 bytes (`JSONValue`'s `==` uses `String`'s, which does not).
func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)):
        return x.utf8.elementsEqual(y.utf8)
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy(identical)
    case (.object(let x), .object(let y)):
        let xs = x.sorted { JSONWriter.utf8Precedes($0.key, $1.key) }
        let ys = y.sorted { JSONWriter.utf8Precedes($0.key, $1.key) }
        return xs.count == ys.count
            && zip(xs, ys).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && identical($0.value, $1.value) }
    default:
        return a == b
    }
}

final class ResultBox<T>: @unchecked Sendable { var value: T? }

/// Runs `body` on a new thread with `stackSize` bytes of stack and waits for its result.
func onThread<T>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return box.value!
}

struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#" { "a" : [ true , false , null ] , "b" : { } , "c" : [ ] , "d" : "x" , "e" : -1.5e3 } "#)
        #expect(
            value
                == .object([
                    "a": .array([.bool(true), .bool(false), .null]),
                    "b": .object([:]), "c": .array([]), "d": .string("x"),
                    "e": .number(JSONNumber(literal: "-1.5e3")!),
                ]))
    }

    @Test func numbersKeepTheirLiteralText() throws {
        let value = try parse("[1.0, -0, 1E6, 12345678901234567890, 1e-999, 0.5e+2]")
        let literals = ["1.0", "-0", "1E6", "12345678901234567890", "1e-999", "0.5e+2"]
        #expect(value == .array(literals.map { .number(JSONNumber(literal: $0)!) }))
    }

    @Test func escapesDecodeAndSurrogatePairsCombine() throws {
        let value = try parse(#"["\"\\\/\b\f\n\r\t\u00e9\u00E9\uD83D\uDE00\u0000 end"]"#)
        #expect(value == .array([.string("\"\\/\u{8}\u{C}\n\r\té\u{E9}😀\u{0} end")]))
    }

    @Test func rawNonASCIIAndDELPassThroughUnchanged() throws {
        let value = try parse("[\"é日本😀\u{7F}\u{2028}e\u{301}\", \"a\\nb e\u{301}\"]")
        #expect(identical(value, .array([.string("é日本😀\u{7F}\u{2028}e\u{301}"), .string("a\nb e\u{301}")])))
        #expect(!identical(value, .array([.string("é日本😀\u{7F}\u{2028}\u{E9}"), .string("a\nb \u{E9}")])))
    }

    @Test func keysThatAreCanonicallyEquivalentAreNotMerged() throws {
        // A decomposed key alone is kept with its exact scalars.
        let value = try parse("{\"e\u{301}\": 1}")
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys.first.map { Array($0.unicodeScalars) } == ["e", "\u{301}"])
    }

    @Test func dataOverloadMatchesByteOverload() throws {
        let text = #"{"a": [1, "é"]}"#
        #expect(try JSONParser.parse(Data(text.utf8)) == parse(text))
        #expect(throws: JSONSyntaxError(offset: 0, line: 1, column: 1, reason: "expected a value, found end of input")) {
            try JSONParser.parse(Data())
        }
    }

    @Test func errorDescriptionNamesLineColumnAndByte() {
        let error = JSONSyntaxError(offset: 7, line: 2, column: 3, reason: "leading zero in number")
        #expect(error.description == "JSON syntax error at line 2, column 3 (byte 7): leading zero in number")
    }

    @Test func unexpectedByteAfterMemberIsReportedWithPosition() {
        expectSyntaxError(#"{"a":1 x}"#, offset: 7, reason: "expected ',' or '}' after object member, found 'x'")
        expectSyntaxError("[1 2]", offset: 3, reason: "expected ',' or ']' after array element, found '2'")
        expectSyntaxError(#"{"a" 1}"#, offset: 5, reason: "expected ':' after object key, found '1'")
        expectSyntaxError("{1:2}", offset: 1, reason: "expected a string key or '}' in object, found '1'")
        expectSyntaxError(#"{"a":1,x}"#, offset: 7, reason: "expected a string key after ',' in object, found 'x'")
    }

    @Test func duplicateKeyIsRejectedAtSecondKey() {
        expectSyntaxError(
            "{\n  \"a\": 1,\n  \"a\": 2\n}", offset: 14, line: 3, column: 3,
            reason: "duplicate key 'a' in object")
    }

    @Test func duplicateKeyIsReportedBeforeLaterErrors() {
        let duplicate = "duplicate key 'a' in object"
        expectSyntaxError(#"{"a":1,"a":[x]}"#, offset: 7, reason: duplicate)
        expectSyntaxError(#"{"a":1,"a" 2}"#, offset: 7, reason: duplicate)
        expectSyntaxError(#"{"a":1,"a":{"b":1,"b":2}}"#, offset: 7, reason: duplicate)
        expectSyntaxError(#"{"a":{"b":1,"b":2},"a":1}"#, offset: 12, reason: "duplicate key 'b' in object")
        expectSyntaxError(#"[{"a":1},{"a":2,"a":3}]"#, offset: 16, reason: duplicate)
    }

    @Test func canonicallyEquivalentKeysAreRejectedAsDuplicates() {
        expectSyntaxError(
            "{\"\u{E9}\":1,\"e\u{301}\":2}", offset: 8,
            reason:
                "duplicate key 'e\u{301}' in object: canonically equivalent to the earlier key '\u{E9}' (U+0065 U+0301 vs U+00E9)")
    }

    @Test func linesAreCountedAtLineFeedsAndColumnsInBytes() {
        expectSyntaxError("[\r\n1,\r\n x]", offset: 8, line: 3, column: 2, reason: "expected a value, found 'x'")
        expectSyntaxError("[\"é\",\n\"日\", é]", offset: 14, line: 2, column: 8, reason: "expected a value, found 'é' (U+00E9)")
    }

    @Test func stringErrorsPointAtTheOffendingByte() {
        expectSyntaxError(#"["abc"#, offset: 5, reason: "unexpected end of input inside a string")
        expectSyntaxError([0x5B, 0x22, 0x61, 0xFF, 0x62, 0x22, 0x5D], offset: 3, reason: "invalid UTF-8 byte 0xFF in string")
        expectSyntaxError(
            [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], offset: 2,
            reason: "invalid UTF-8 sequence 0xED 0xA0 in string (an encoded UTF-16 surrogate)")
        expectSyntaxError([0x5B, 0x22, 0xE9, 0x22, 0x5D], offset: 2, reason: "incomplete UTF-8 sequence 0xE9 in string")
        expectSyntaxError([0x5B, 0x22, 0x5C, 0x6E, 0xC3, 0x22, 0x5D], offset: 4, reason: "incomplete UTF-8 sequence 0xC3 in string")
        expectSyntaxError("[\"a\nb\"]", offset: 3, reason: "control character U+000A must be escaped in a string")
        expectSyntaxError("[\"\\n\u{1F}\"]", offset: 4, reason: "control character U+001F must be escaped in a string")
        expectSyntaxError(#"["\x"]"#, offset: 2, reason: "invalid escape '\\x' in string")
        expectSyntaxError(#"["\u12G4"]"#, offset: 6, reason: "invalid \\u escape: expected 4 hex digits, found 'G'")
    }

    @Test func invalidUTF8IsReportedBeforeALaterErrorInTheSameString() {
        let invalid = "invalid UTF-8 byte 0xFF in string"
        expectSyntaxError([0x5B, 0x22, 0xFF, 0x5C, 0x71, 0x22, 0x5D], offset: 2, reason: invalid)  // then a bad escape
        expectSyntaxError([0x5B, 0x22, 0xFF, 0x5C, 0x75, 0x44, 0x38, 0x30, 0x30, 0x22, 0x5D], offset: 2, reason: invalid)
        expectSyntaxError([0x5B, 0x22, 0x5C, 0x6E, 0xFF, 0x0A, 0x22, 0x5D], offset: 4, reason: invalid)  // then a raw LF
        expectSyntaxError([0x5B, 0x22, 0xC3, 0xA9, 0xFF, 0x0A], offset: 4, reason: invalid)  // then a raw LF
        expectSyntaxError([0x5B, 0x22, 0xFF], offset: 2, reason: invalid)  // then end of input
    }

    @Test func invalidUTF8AfterAnEscapeIsReportedAtItsByte() {
        expectSyntaxError([0x5B, 0x22, 0x5C, 0x6E, 0xFF, 0x22, 0x5D], offset: 4, reason: "invalid UTF-8 byte 0xFF in string")
        expectSyntaxError(
            [0x5B, 0x22, 0xC3, 0xA9, 0x5C, 0x6E, 0xC3, 0x5C, 0x6E, 0x22, 0x5D], offset: 6,
            reason: "incomplete UTF-8 sequence 0xC3 in string")
    }

    @Test func loneSurrogateEscapesAreRejected() {
        expectSyntaxError(#"["\uD800"]"#, offset: 2, reason: "lone surrogate \\uD800 in string")
        expectSyntaxError(#"["ab\udc00x"]"#, offset: 4, reason: "lone surrogate \\udc00 in string")
        expectSyntaxError(#"["\uD800\u0041"]"#, offset: 2, reason: "lone surrogate \\uD800 in string")
        expectSyntaxError(#"["\uDE00\uD83D"]"#, offset: 2, reason: "lone surrogate \\uDE00 in string")
    }

    @Test func numberGrammarIsEnforced() {
        expectSyntaxError("[01]", offset: 1, reason: "leading zero in number")
        expectSyntaxError("[-01]", offset: 2, reason: "leading zero in number")
        expectSyntaxError("[-]", offset: 2, reason: "expected a digit after '-' in number, found ']'")
        expectSyntaxError("[1.]", offset: 3, reason: "expected a digit after '.' in number, found ']'")
        expectSyntaxError("[1e+]", offset: 4, reason: "expected a digit in the exponent of number, found ']'")
        expectSyntaxError("[.5]", offset: 1, reason: "expected a value, found '.'")
        expectSyntaxError("[+1]", offset: 1, reason: "expected a value, found '+'")
    }

    @Test func structureErrorsNameWhatWasFound() {
        expectSyntaxError("", offset: 0, reason: "expected a value, found end of input")
        expectSyntaxError(" \n", offset: 2, line: 2, column: 1, reason: "expected a value, found end of input")
        expectSyntaxError("[1,]", offset: 3, reason: "expected a value after ',' in array, found ']' (trailing comma)")
        expectSyntaxError(#"{"a":1,}"#, offset: 7, reason: "expected a string key after ',' in object, found '}' (trailing comma)")
        expectSyntaxError("[tru]", offset: 4, reason: "invalid literal, expected 'true', found ']'")
        expectSyntaxError("[nulL]", offset: 4, reason: "invalid literal, expected 'null', found 'L'")
        expectSyntaxError("[\u{C}1]", offset: 1, reason: "expected a value, found byte 0x0C")
        expectSyntaxError([0x5B, 0xFF, 0x5D], offset: 1, reason: "expected a value, found invalid UTF-8 byte 0xFF")
        expectSyntaxError("[1", offset: 2, reason: "expected ',' or ']' after array element, found end of input")
    }

    @Test func trailingDataAfterTheValueIsRejected() {
        expectSyntaxError("{} x", offset: 3, reason: "trailing data after the JSON value, found 'x'")
        expectSyntaxError("1 2", offset: 2, reason: "trailing data after the JSON value, found '2'")
    }

    @Test func byteOrderMarkIsRejected() {
        expectSyntaxError(
            [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], offset: 0,
            reason: "byte-order mark at start of input; save the file as UTF-8 without BOM")
    }

    @Test func nestingUpToTheLimitIsAcceptedAndOneDeeperIsRejected() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try parse(deepest)
        expectSyntaxError(
            String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
            offset: 512, reason: "nesting deeper than 512 levels")
        expectSyntaxError(#"[{"a":[]}]"#, offset: 6, reason: "nesting deeper than 2 levels", maxDepth: 2)
    }

    @Test func hundredThousandOpenBracketsGiveTheDepthErrorOnASmallStack() {
        let input = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let expected = JSONSyntaxError(offset: 512, line: 1, column: 513, reason: "nesting deeper than 512 levels")
        #expect(throws: expected) { try JSONParser.parse(input) }
        // 512 KB is the default secondary-thread stack on Apple platforms.
        let result = onThread(stackSize: 512 * 1024) { Result { () throws(JSONSyntaxError) in try JSONParser.parse(input) } }
        #expect(throws: expected) { try result.get() }
    }

    @Test func deepestAllowedObjectsParseOnASmallStack() throws {
        let text = String(repeating: #"{"a":"#, count: 512) + "0" + String(repeating: "}", count: 512)
        let result = onThread(stackSize: 512 * 1024) { Result { () throws(JSONSyntaxError) in try parse(text) } }
        var value = try result.get()
        var levels = 0
        while case .object(let object) = value, let inner = object["a"] { value = inner; levels += 1 }
        #expect(levels == 512 && value == .number(JSONNumber(0)))
    }
}
