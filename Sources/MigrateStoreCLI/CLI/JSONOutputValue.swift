import Schema

/// A JSON value for `--json` output, written with literals.
///
/// ```swift
/// let fields: [String: JSONOutputValue] = [
///     "store": .string(path), "work_streams": 8, "renumbered": ["555a622d-…"], "backup": nil,
/// ]
/// ```
///
/// A document value read from the store can be embedded unchanged with ``document(_:)``.
/// Rendering is pretty-printed with two spaces, keys sorted by their UTF-8 bytes, `[]`
/// and `{}` for empty containers: the same shape as the store's own documents.
enum JSONOutputValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// A finite number; non-finite numbers have no JSON form and stop the program.
    case double(Double)
    case string(String)
    case array([JSONOutputValue])
    case object([String: JSONOutputValue])
    /// An object whose members are already in the order ``object(_:)`` writes (keys ascending
    /// by their UTF-8 bytes), written as given: for the many objects of one shape (the rows of
    /// `ls`), whose keys are then not sorted once per object. Debug builds check the order.
    case sortedObject([JSONOutputMember])
    /// A value as read from a document, numbers kept as their literal text.
    case document(JSONValue)

    /// The value as JSON text, without a final newline.
    func rendered() -> String {
        var bytes = JSONOutputBytes()
        JSONOutputRenderer.write(self, indent: 0, into: &bytes)
        return String(decoding: bytes.bytes, as: UTF8.self)
    }
}

extension JSONOutputValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    init(nilLiteral: ()) { self = .null }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(floatLiteral value: Double) { self = .double(value) }
    init(stringLiteral value: String) { self = .string(value) }
    init(arrayLiteral elements: JSONOutputValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONOutputValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// One member of a ``JSONOutputValue/sortedObject(_:)``.
struct JSONOutputMember: Sendable, Equatable {
    var key: String
    var value: JSONOutputValue

    init(_ key: String, _ value: JSONOutputValue) { (self.key, self.value) = (key, value) }
}

/// Writes ``JSONOutputValue`` as pretty-printed JSON (RFC 8259), as UTF-8 bytes: appending
/// to a `String` (its count and flags kept up to date at every append) was about 40 % of the
/// time `ls --json` took to write 50,000 rows (37 MB).
enum JSONOutputRenderer {
    static func write(_ value: JSONOutputValue, indent: Int, into bytes: inout JSONOutputBytes) {
        switch value {
        case .null: append("null", to: &bytes)
        case .bool(let flag): append(flag ? "true" : "false", to: &bytes)
        case .int(let number): append(String(number), to: &bytes)
        case .double(let number):
            precondition(number.isFinite, "JSON has no literal for \(number)")
            append(number.description, to: &bytes)
        case .string(let string): writeString(string, into: &bytes)
        case .array(let items):
            writeContainer(items, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), indent: indent, into: &bytes) { item, bytes in
                write(item, indent: indent + 1, into: &bytes)
            }
        case .object(let members):
            writeObject(members, indent: indent, into: &bytes) { write($0, indent: indent + 1, into: &$1) }
        case .sortedObject(let members):
            assert(
                zip(members, members.dropFirst()).allSatisfy { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) },
                "JSONOutputValue.sortedObject: keys not in ascending UTF-8 order: \(members.map(\.key))")
            writeContainer(members, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), indent: indent, into: &bytes) { member, bytes in
                writeString(member.key, into: &bytes)
                append(": ", to: &bytes)
                write(member.value, indent: indent + 1, into: &bytes)
            }
        case .document(let document): write(document, indent: indent, into: &bytes)
        }
    }

    static func write(_ value: JSONValue, indent: Int, into bytes: inout JSONOutputBytes) {
        switch value {
        case .null: append("null", to: &bytes)
        case .bool(let flag): append(flag ? "true" : "false", to: &bytes)
        case .number(let number): append(number.literal, to: &bytes)
        case .string(let string): writeString(string, into: &bytes)
        case .array(let items):
            writeContainer(items, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), indent: indent, into: &bytes) { item, bytes in
                write(item, indent: indent + 1, into: &bytes)
            }
        case .object(let members):
            writeObject(members, indent: indent, into: &bytes) { write($0, indent: indent + 1, into: &$1) }
        }
    }

    private static func writeObject<Value>(
        _ members: [String: Value], indent: Int, into bytes: inout JSONOutputBytes,
        value writeValue: (Value, inout JSONOutputBytes) -> Void
    ) {
        let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        writeContainer(keys, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), indent: indent, into: &bytes) { key, bytes in
            writeString(key, into: &bytes)
            append(": ", to: &bytes)
            writeValue(members[key]!, &bytes)
        }
    }

    private static func writeContainer<Element>(
        _ elements: [Element], open: UInt8, close: UInt8, indent: Int, into bytes: inout JSONOutputBytes,
        element writeElement: (Element, inout JSONOutputBytes) -> Void
    ) {
        guard !elements.isEmpty else { bytes.append(open); bytes.append(close); return }
        bytes.append(open)
        bytes.append(UInt8(ascii: "\n"))
        for (index, element) in elements.enumerated() {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * (indent + 1)))
            writeElement(element, &bytes)
            if index != elements.count - 1 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\n"))
            bytes.flushIfFull()
        }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
        bytes.append(close)
    }

    /// Appends the UTF-8 bytes of `text`, copied from its storage when it has contiguous storage.
    private static func append(_ text: String, to bytes: inout JSONOutputBytes) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// True when `byte` must be escaped in a JSON string: `"`, `\\` and the control characters.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// A JSON string literal: `"`, `\\` and control characters escaped, everything else as is.
    static func writeString(_ string: String, into bytes: inout JSONOutputBytes) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: append them whole (one scalar at a time cost 15 % of `ls --json`).
        let plain =
            string.utf8.withContiguousStorageIfAvailable { !$0.contains(where: needsEscape) }
            ?? !string.utf8.contains(where: needsEscape)
        if plain {
            append(string, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": append("\\\"", to: &bytes)
            case "\\": append("\\\\", to: &bytes)
            case "\n": append("\\n", to: &bytes)
            case "\r": append("\\r", to: &bytes)
            case "\t": append("\\t", to: &bytes)
            case "\u{08}": append("\\b", to: &bytes)
            case "\u{0C}": append("\\f", to: &bytes)
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex, to: &bytes)
            default: UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// ``writeString(_:into:)`` appending to text (one-line values of `show`).
    static func writeString(_ string: String, into text: inout String) {
        var bytes = JSONOutputBytes()
        writeString(string, into: &bytes)
        text += String(decoding: bytes.bytes, as: UTF8.self)
    }
}

/// The UTF-8 bytes ``JSONOutputRenderer`` writes: kept whole, or handed on in pieces of about
/// ``flushThreshold`` bytes, each ending after an element of a container (so never inside a
/// character), for output too large to hold twice (`ls --json`: 37 MB at 50,000 work streams).
struct JSONOutputBytes {
    private(set) var bytes: [UInt8] = []
    private let flush: (([UInt8]) -> Void)?
    static let flushThreshold = 1 << 20

    /// `flush` takes each piece; nil keeps every byte in ``bytes``.
    init(flush: (([UInt8]) -> Void)? = nil) { self.flush = flush }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append<Bytes: Sequence>(contentsOf more: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: more)
    }

    /// Hands the bytes so far to `flush` once there are ``flushThreshold`` of them.
    mutating func flushIfFull() {
        if bytes.count >= Self.flushThreshold { flushAll() }
    }

    /// Hands every byte so far to `flush` (nothing without one).
    mutating func flushAll() {
        guard let flush, !bytes.isEmpty else { return }
        flush(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
