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
package enum JSONParser {
    /// The default limit on nested arrays and objects: 512 levels are accepted, 513 are not.
    ///
    /// Deeper input is rejected with a positioned error. Real documents nest a few levels;
    /// the limit bounds the memory and time an adversarial input can take.
    package static let defaultMaxDepth = 512

    /// Parses one JSON text (RFC 8259) that must be the whole input, apart from whitespace.
    ///
    /// Whitespace is space, tab, line feed and carriage return. Duplicate keys in an object
    /// are rejected (the error points at the second key); Swift compares keys by Unicode
    /// canonical equivalence, so `"é"` precomposed and decomposed count as the same key.
    /// Strings must be valid UTF-8 and may not contain lone surrogate escapes. A leading
    /// byte-order mark is rejected. Numbers are checked against the grammar and kept as text.
    ///
    /// The error is the first problem met reading from the start of the input; a duplicate
    /// key, for one, is reported before any error that follows it. Nesting is tracked on the
    /// heap, not the call stack, so no input can overflow the stack.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 encoded input.
    ///   - maxDepth: The deepest nesting of arrays and objects accepted. The default is
    ///     ``defaultMaxDepth`` (512).
    /// - Returns: The value the input contains.
    /// - Throws: `JSONSyntaxError` with the byte offset, line, column and reason of the first
    ///   problem in the input.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) -> JSONValue in
                var parser = JSONByteParser(buffer, maxDepth: maxDepth)
                return try parser.parseDocument()
            }
        }
        return try result.get()
    }

    /// Parses one JSON text in `buffer`, by the same rules as the `[UInt8]` overload (for
    /// `JSONSkimmer`, which parses slices of a document without copying them).
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONByteParser(buffer, maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// Parses one JSON text held in `Data`, by the same rules as the `[UInt8]` overload.
    ///
    /// - Parameters:
    ///   - data: The UTF-8 encoded input.
    ///   - maxDepth: The deepest nesting accepted. The default is ``defaultMaxDepth`` (512).
    /// - Throws: `JSONSyntaxError` describing the first problem in the input.
    package static func parse(_ data: Data, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
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

/// The parser state over one input buffer. Values live here; containers, strings, numbers
/// and error construction are in the `JSONParser+*.swift` extensions.
///
/// Containers are kept on explicit stacks rather than the call stack, so nesting depth
/// costs heap, not stack: any `maxDepth` is safe on any thread, in debug builds too.
struct JSONByteParser {
    enum Container { case array, object }

    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    /// Offset of the next byte to read.
    var pos = 0
    /// Number of arrays and objects currently open; equals `openKinds.count`.
    var depth = 0
    /// Reused buffer for strings that contain escapes. Classes, held by `let`: calling them
    /// needs no retain, and they allocate their storage on first use, so a parser that meets
    /// no escape or no object (`JSONSkimmer` parses each member value on its own) costs little.
    let scratch = ScratchBytes()
    /// Keys already made in this document.
    let keyCache = KeyCache()
    /// Empty dictionaries for objects of up to 16 members, by capacity, and the number of
    /// objects made so far (see `newObject`).
    var objectTemplates: [JSONObject?] = []
    var objectsMade = 0
    /// The open containers, innermost last. Arrays are built in place at the top of
    /// `openArrays`; objects collect their members on the shared `members` stack.
    var openKinds: [Container] = []
    var openArrays: [[JSONValue]] = []
    var openObjects: [OpenObject] = []
    var members: [Member] = []
    /// One member of the root object to locate, and perhaps to take as known (see
    /// `JSONParser+RootMember.swift`); nil for a plain parse.
    var watch: RootMemberWatch?

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        do {
            return try parseValues()
        } catch {
            // Duplicate keys are found when an object closes; one may precede this error.
            throw duplicateKeyError(before: error.offset) ?? error
        }
    }

    mutating func parseValues() throws(JSONSyntaxError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw error(at: 0, "byte-order mark at start of input; save the file as UTF-8 without BOM")
        }
        nextValue: while true {
            skipWhitespace()
            var value: JSONValue
            if watch != nil, let known = watchedValueStarts() {
                value = known
            } else {
                guard let parsed = try parseScalarOrOpenContainer() else { continue nextValue }
                value = parsed
            }
            // Attach the finished value to its container, closing every container that ends here.
            while true {
                let valueEnd = pos
                skipWhitespace()
                guard let container = openKinds.last else {
                    if pos != bytes.count {
                        throw error(at: pos, "trailing data after the JSON value, found \(describe(at: pos))")
                    }
                    return value
                }
                switch container {
                case .array:
                    openArrays[openArrays.count - 1].append(value)
                    if try moreArrayElements() { continue nextValue }
                    value = .array(openArrays.removeLast())
                case .object:
                    if watch != nil { watchedValueEnds(at: valueEnd) }
                    storeMember(value)
                    if try moreObjectMembers() { continue nextValue }
                    value = .object(try closeObject())
                }
                openKinds.removeLast()
                depth -= 1
            }
        }
    }

    /// Parses a scalar at `pos`, or an empty container, and returns it; or opens a non-empty
    /// container (reading the first key of an object) and returns nil.
    mutating func parseScalarOrOpenContainer() throws(JSONSyntaxError) -> JSONValue? {
        guard pos < bytes.count else { throw expectedValueError() }
        switch bytes[pos] {
        case ASCII.quote: return .string(try parseString())
        case ASCII.openBracket:
            try enterContainer()
            if peek(is: ASCII.closeBracket) { return closeEmptyContainer(.array([])) }
            openKinds.append(.array)
            openArrays.append([])
            return nil
        case ASCII.openBrace:
            try enterContainer()
            if peek(is: ASCII.closeBrace) { return closeEmptyContainer(.object([:])) }
            openKinds.append(.object)
            openObjects.append(OpenObject(membersStart: members.count))
            try parseKey(afterComma: false)
            return nil
        case UInt8(ascii: "t"): try parseLiteral(JSONByteParser.trueBytes); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral(JSONByteParser.falseBytes); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral(JSONByteParser.nullBytes); return .null
        case ASCII.minus, ASCII.zero...ASCII.nine: return .number(try parseNumber())
        default: throw expectedValueError()
        }
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
}
