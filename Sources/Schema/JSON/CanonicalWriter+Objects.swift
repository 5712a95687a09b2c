// Objects of the canonical writer: known keys in a precomputed order, unknown keys merged in.

/// The known keys of one object type at one nesting level, sorted by their UTF-8 bytes (the
/// canonical order), each with the bytes that start its member line: `,\n`, the indentation
/// and `"key": `.
///
/// Built once per type (a `static let`); `Field` names the member for the type's `switch`.
struct KeyLayout<Field: Sendable>: Sendable {
    struct Member: Sendable {
        let field: Field
        let key: String
        /// `,\n` + indentation + quoted key + `: `; the first member of an object skips the comma.
        let head: [UInt8]
    }

    /// The members in canonical order.
    let members: [Member]
    /// Every known key: an unknown member with one of these keys is not written (the model's
    /// own value wins, as with `ObjectWriter`, which sets the known keys over the unknown ones).
    let keys: Set<String>
    /// The nesting level of the object itself; its members sit one level deeper.
    let level: Int

    /// - Parameters:
    ///   - level: The nesting level of the object (0 for a document).
    ///   - fields: Every known key with the field it names, in any order; no key twice.
    init(level: Int, _ fields: [(Field, String)]) {
        self.level = level
        keys = Set(fields.map(\.1))
        precondition(keys.count == fields.count, "KeyLayout: a key is listed twice")
        members = fields.sorted { JSONWriter.utf8Precedes($0.1, $1.1) }.map { field, key in
            var head = Array(",\n".utf8)
            JSONWriter.indent(level + 1, into: &head)
            JSONWriter.writeString(key, into: &head)
            head.append(contentsOf: ": ".utf8)
            return Member(field: field, key: key, head: head)
        }
    }
}

/// An object being written: whether it has a member yet, and its unknown members still due.
struct OpenObject {
    let level: Int
    var isEmpty = true
    /// Unknown members, sorted by UTF-8 bytes, none with a known key; written up to `next`.
    let pending: [(key: String, value: JSONValue)]
    var next = 0
}

extension CanonicalWriter {
    /// Writes `{` and returns the object, with the unknown members (usually none) to merge in.
    mutating func openObject<Field>(_ layout: KeyLayout<Field>, unknown: JSONObject) -> OpenObject {
        bytes.append(UInt8(ascii: "{"))
        guard !unknown.isEmpty else { return OpenObject(level: layout.level, pending: []) }
        let pending = unknown.filter { !layout.keys.contains($0.key) }
            .sorted { JSONWriter.utf8Precedes($0.key, $1.key) }
            .map { (key: $0.key, value: $0.value) }
        return OpenObject(level: layout.level, pending: pending)
    }

    /// Starts the line of a known member (after the unknown members whose keys sort before it);
    /// the caller then writes its value.
    mutating func member<Field>(_ member: KeyLayout<Field>.Member, of object: inout OpenObject) {
        if object.next < object.pending.count { writeUnknown(before: member.key, of: &object) }
        if object.isEmpty {
            object.isEmpty = false
            bytes.append(contentsOf: member.head[1...])
        } else {
            bytes.append(contentsOf: member.head)
        }
    }

    /// Writes the remaining unknown members and the closing `}` (`{}` when the object is empty).
    mutating func close(_ object: inout OpenObject) {
        writeUnknown(before: nil, of: &object)
        if !object.isEmpty {
            bytes.append(0x0A)
            JSONWriter.indent(object.level, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes the pending unknown members whose keys sort before `key` (all of them for nil).
    private mutating func writeUnknown(before key: String?, of object: inout OpenObject) {
        while object.next < object.pending.count {
            let (unknownKey, value) = object.pending[object.next]
            if let key, !JSONWriter.utf8Precedes(unknownKey, key) { return }
            bytes.append(contentsOf: object.isEmpty ? "\n".utf8 : ",\n".utf8)
            object.isEmpty = false
            JSONWriter.indent(object.level + 1, into: &bytes)
            string(unknownKey)
            bytes.append(contentsOf: ": ".utf8)
            self.value(value, level: object.level + 1)
            object.next += 1
        }
    }
}
