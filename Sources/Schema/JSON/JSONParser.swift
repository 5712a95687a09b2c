import Foundation

/// A strict RFC 8259 JSON reader that keeps numbers as their literal text.
///
/// The parser is stricter than RFC 8259 in the places where accepting would mean
/// altering data silently: duplicate keys, lone surrogate escapes, invalid UTF-8
/// and a leading byte-order mark are all rejected with a positioned error.
///
/// ```swift
/// let value = try JSONParser.parse(Array(#"{"a": [1.0, null]}"#.utf8))
/// ```
public enum JSONParser {
    /// Nesting deeper than this is rejected with a positioned error instead of overflowing the stack.
    public static let defaultMaxDepth = 512

    /// Parses one JSON text (RFC 8259) that must be the whole input, apart from whitespace.
    ///
    /// Whitespace is space, tab, line feed and carriage return. Duplicate keys in an object
    /// are rejected (the error points at the second key); Swift compares keys by Unicode
    /// canonical equivalence, so `"é"` precomposed and decomposed count as the same key.
    /// Strings must be valid UTF-8 and may not contain lone surrogate escapes. A leading
    /// byte-order mark is rejected. Numbers are checked against the grammar and kept as text.
    ///
    /// The parser recurses once per nesting level; each level needs well under 1 KB of stack
    /// in a release build, so the default limit is safe on a 512 KB secondary thread.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 encoded input.
    ///   - maxDepth: The deepest nesting of arrays and objects accepted. The default is
    ///     ``defaultMaxDepth`` (512). Raising it far above the default needs a larger stack.
    /// - Returns: The value the input contains.
    /// - Throws: `JSONSyntaxError` with the byte offset, line, column and reason of the first
    ///   problem in the input.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) -> JSONValue in
                var parser = JSONByteParser(buffer, maxDepth: maxDepth)
                return try parser.parseDocument()
            }
        }
        return try result.get()
    }

    /// Parses one JSON text held in `Data`; see ``parse(_:maxDepth:)-([UInt8],_)``.
    ///
    /// - Parameters:
    ///   - data: The UTF-8 encoded input.
    ///   - maxDepth: The deepest nesting accepted. The default is ``defaultMaxDepth`` (512).
    /// - Throws: `JSONSyntaxError` describing the first problem in the input.
    public static func parse(_ data: Data, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) -> JSONValue in
                var parser = JSONByteParser(raw.assumingMemoryBound(to: UInt8.self), maxDepth: maxDepth)
                return try parser.parseDocument()
            }
        }
        return try result.get()
    }
}

/// ASCII bytes the parser looks for.
enum ASCII {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
}

/// The parser state over one input buffer. Values and containers live here; strings,
/// numbers and error construction are in the `JSONParser+*.swift` extensions.
struct JSONByteParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    /// Offset of the next byte to read.
    var pos = 0
    /// Number of arrays and objects currently open.
    var depth = 0
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw error(at: 0, "byte-order mark at start of input; save the file as UTF-8 without BOM")
        }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if pos != bytes.count {
            throw error(at: pos, "trailing data after the JSON value, found \(describe(at: pos))")
        }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < bytes.count {
            let b = bytes[pos]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            pos += 1
        }
    }

    /// True when the next byte exists and equals `byte`.
    @inline(__always)
    func peek(is byte: UInt8) -> Bool { pos < bytes.count && bytes[pos] == byte }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard pos < bytes.count else { throw expectedValueError() }
        switch bytes[pos] {
        case ASCII.quote: return .string(try parseString())
        case ASCII.openBrace: return try parseObject()
        case ASCII.openBracket: return try parseArray()
        case UInt8(ascii: "t"): try parseLiteral(JSONByteParser.trueBytes); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral(JSONByteParser.falseBytes); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral(JSONByteParser.nullBytes); return .null
        case ASCII.minus, ASCII.zero...ASCII.nine: return .number(try parseNumber())
        default: throw expectedValueError()
        }
    }

    /// Opens a container at `pos`, enforcing the depth limit.
    @inline(__always)
    mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        if depth > maxDepth { throw depthError() }
        pos += 1
        skipWhitespace()
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        var elements: [JSONValue] = []
        if peek(is: ASCII.closeBracket) {
            pos += 1; depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            if peek(is: ASCII.comma) {
                pos += 1
                skipWhitespace()
                if peek(is: ASCII.closeBracket) { throw trailingCommaError(in: "array") }
            } else if peek(is: ASCII.closeBracket) {
                pos += 1; depth -= 1
                return .array(elements)
            } else {
                throw error(at: pos, "expected ',' or ']' after array element, found \(describe(at: pos))")
            }
        }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        var object = JSONObject()
        if peek(is: ASCII.closeBrace) {
            pos += 1; depth -= 1
            return .object(object)
        }
        var afterComma = false
        while true {
            guard peek(is: ASCII.quote) else { throw expectedKeyError(afterComma: afterComma) }
            let keyOffset = pos
            let key = try parseString()
            if let earlier = object.index(forKey: key) {
                throw duplicateKeyError(key, earlier: object.keys[earlier], at: keyOffset)
            }
            skipWhitespace()
            guard peek(is: ASCII.colon) else {
                throw error(at: pos, "expected ':' after object key, found \(describe(at: pos))")
            }
            pos += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            if peek(is: ASCII.comma) {
                pos += 1
                skipWhitespace()
                if peek(is: ASCII.closeBrace) { throw trailingCommaError(in: "object") }
                afterComma = true
            } else if peek(is: ASCII.closeBrace) {
                pos += 1; depth -= 1
                return .object(object)
            } else {
                throw error(at: pos, "expected ',' or '}' after object member, found \(describe(at: pos))")
            }
        }
    }
}
