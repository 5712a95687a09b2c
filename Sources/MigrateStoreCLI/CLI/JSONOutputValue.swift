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
        var text = ""
        JSONOutputRenderer.write(self, indent: 0, into: &text)
        return text
    }
}

extension JSONOutputValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral {
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

/// Writes ``JSONOutputValue`` as pretty-printed JSON (RFC 8259).
enum JSONOutputRenderer {
    static func write(_ value: JSONOutputValue, indent: Int, into text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .int(let number): text += String(number)
        case .double(let number):
            precondition(number.isFinite, "JSON has no literal for \(number)")
            text += number.description
        case .string(let string): writeString(string, into: &text)
        case .array(let items):
            writeContainer(items, open: "[", close: "]", indent: indent, into: &text) { item, text in
                write(item, indent: indent + 1, into: &text)
            }
        case .object(let members):
            writeObject(members, indent: indent, into: &text) { write($0, indent: indent + 1, into: &$1) }
        case .sortedObject(let members):
            assert(zip(members, members.dropFirst()).allSatisfy { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) },
                   "JSONOutputValue.sortedObject: keys not in ascending UTF-8 order: \(members.map(\.key))")
            writeContainer(members, open: "{", close: "}", indent: indent, into: &text) { member, text in
                writeString(member.key, into: &text)
                text += ": "
                write(member.value, indent: indent + 1, into: &text)
            }
        case .document(let document): write(document, indent: indent, into: &text)
        }
    }

    static func write(_ value: JSONValue, indent: Int, into text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number): text += number.literal
        case .string(let string): writeString(string, into: &text)
        case .array(let items):
            writeContainer(items, open: "[", close: "]", indent: indent, into: &text) { item, text in
                write(item, indent: indent + 1, into: &text)
            }
        case .object(let members):
            writeObject(members, indent: indent, into: &text) { write($0, indent: indent + 1, into: &$1) }
        }
    }

    private static func writeObject<Value>(
        _ members: [String: Value], indent: Int, into text: inout String,
        value writeValue: (Value, inout String) -> Void
    ) {
        let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        writeContainer(keys, open: "{", close: "}", indent: indent, into: &text) { key, text in
            writeString(key, into: &text)
            text += ": "
            writeValue(members[key]!, &text)
        }
    }

    private static func writeContainer<Element>(
        _ elements: [Element], open: String, close: String, indent: Int, into text: inout String,
        element writeElement: (Element, inout String) -> Void
    ) {
        guard !elements.isEmpty else { text += open + close; return }
        let inner = String(repeating: "  ", count: indent + 1)
        text += open + "\n"
        for (index, element) in elements.enumerated() {
            text += inner
            writeElement(element, &text)
            text += index == elements.count - 1 ? "\n" : ",\n"
        }
        text += String(repeating: "  ", count: indent) + close
    }

    /// A JSON string literal: `"`, `\` and control characters escaped, everything else as is.
    static func writeString(_ string: String, into text: inout String) {
        text += "\""
        // Most strings need no escape: append them whole (one scalar at a time cost 15 % of `ls --json`).
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text += string
            text += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
