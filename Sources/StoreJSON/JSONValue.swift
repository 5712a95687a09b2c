/// A JSON value as it appears in a document, kept exactly.
///
/// Numbers keep their literal text (`JSONNumber`), so that a value the code does
/// not understand is written back unchanged: `1.0` stays `1.0`, `1` stays `1`, and
/// `12345678901234567890` is not rounded through a `Double`.
// Public: the unknown keys of every public document type are kept as JSON values.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// The members of a JSON object. Key order is not kept: documents are written with sorted keys.
// Public: the type of the public `unknown` property of the document types.
public typealias JSONObject = [String: JSONValue]

/// A JSON number, kept as its literal text (RFC 8259 §6 grammar).
// Public: the payload of `JSONValue.number`, so an app can read and make unknown-key numbers.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal exactly as read or as it will be written.
    public let literal: String

    /// Wraps a literal that the caller guarantees matches the JSON number grammar.
    /// The parser is the only other producer; it has already checked the grammar.
    init(uncheckedLiteral: String) { self.literal = uncheckedLiteral }

    /// A number from a literal, or nil if the text is not a JSON number.
    public init?(literal: String) {
        guard JSONNumber.isValidLiteral(literal) else { return nil }
        self.literal = literal
    }

    public init<I: BinaryInteger>(_ value: I) { self.literal = String(value) }

    /// A number from a finite `Double`, written in the shortest form that reads back as the
    /// same `Double`, always with a fraction or an exponent (`1.0`, `0.5`, `1e+20`).
    public init(_ value: Double) {
        precondition(value.isFinite, "JSON has no literal for \(value)")
        self.literal = value.description
    }

    /// True when the literal has no fraction and no exponent (`12`, `-3`).
    public var isIntegerLiteral: Bool {
        !literal.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    }

    /// The value as an `Int64` when the literal is an integer literal in range.
    public var int64Value: Int64? { isIntegerLiteral ? Int64(literal) : nil }

    /// The value as a `Double`; nil only if the literal overflows to infinity.
    public var doubleValue: Double? {
        guard let d = Double(literal), d.isFinite else { return nil }
        return d
    }

    public var description: String { literal }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    package static func isValidLiteral(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            var n = 0
            while let b = bytes.first, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { bytes.removeFirst(); n += 1 }
            return n
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") { bytes.removeFirst() } else if digits() == 0 { return false }
        if bytes.first == UInt8(ascii: ".") { bytes.removeFirst(); if digits() == 0 { return false } }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }
}

extension JSONValue {
    /// The name of the value's JSON type, for error messages ("expected a string, found a number").
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let n): n.isIntegerLiteral ? "an integer" : "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A short rendering of the value for error messages: the literal for scalars, cut at 40 characters.
    package var briefDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.literal
        case .string(let s):
            let cut = s.count > 40 ? String(s.prefix(40)) + "…" : s
            return "'\(cut)'"
        case .array(let a): return "an array of \(a.count)"
        case .object(let o): return "an object with \(o.count) keys"
        }
    }
}
