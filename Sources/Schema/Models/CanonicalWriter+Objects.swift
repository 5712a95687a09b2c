import StoreJSON

// Objects of the canonical writer: known keys in a precomputed order, unknown keys merged in.

/// The known keys of one object type at one nesting level, sorted by their UTF-8 bytes (the
/// canonical order), each with the bytes that start its member line: `,\n`, the indentation
/// and `"key": `.
///
/// Built once per type (a `static let`); `Field` names the member for the type's `switch`. The
/// member lines live in one byte array and the members are plain values, so writing an object
/// copies no reference (no atomic retain and release per member).
struct KeyLayout<Field: Sendable>: Sendable {
    struct Member: Sendable {
        let field: Field
        /// `,\n` + indentation + quoted key + `: `, in ``heads``; the first member skips the comma.
        let head: Range<Int>
    }

    /// The members in canonical order.
    let members: [Member]
    /// The key of each member, in the same order. An unknown member with one of these keys is
    /// not written: the model's own value wins, as with `ObjectWriter`, which sets the known keys
    /// over the unknown ones.
    let keys: [String]
    let heads: [UInt8]
    /// The nesting level of the object itself; its members sit one level deeper.
    let level: Int

    /// - Parameters:
    ///   - level: The nesting level of the object (0 for a document).
    ///   - fields: Every known key with the field it names, in any order; no key twice.
    init(level: Int, _ fields: [(Field, String)]) {
        self.level = level
        precondition(Set(fields.map(\.1)).count == fields.count, "KeyLayout: a key is listed twice")
        let sorted = fields.sorted { JSONWriter.utf8Precedes($0.1, $1.1) }
        var heads: [UInt8] = []
        members = sorted.map { field, key in
            let start = heads.count
            heads.append(contentsOf: ",\n".utf8)
            JSONWriter.indent(level + 1, into: &heads)
            JSONWriter.writeString(key, into: &heads)
            heads.append(contentsOf: ": ".utf8)
            return Member(field: field, head: start..<heads.count)
        }
        keys = sorted.map(\.1)
        self.heads = heads
    }
}

extension CanonicalWriter {
    /// An object being written: whether it has a member yet, and its unknown members still due.
    struct OpenObject {
        let level: Int
        var isEmpty = true
        /// Unknown members, sorted by UTF-8 bytes, none with a known key; written up to `next`.
        let pending: [(key: String, value: JSONValue)]
        var next = 0
    }

    /// Writes an object of `layout`'s type: `{`, each known member's line with its value
    /// (written by `value`), the unknown members at their sorted places, and `}`.
    mutating func object<Field>(
        _ layout: borrowing KeyLayout<Field>, unknown: JSONObject,
        _ value: (inout CanonicalWriter, Field) -> Void
    ) {
        var object = openObject(layout, unknown: unknown)
        layout.heads.withUnsafeBufferPointer { heads in
            layout.members.withUnsafeBufferPointer { members in
                for index in members.indices {
                    if object.next < object.pending.count { writeUnknown(before: layout.keys[index], of: &object) }
                    let head = members[index].head
                    append(UnsafeBufferPointer(rebasing: heads[(object.isEmpty ? head.lowerBound + 1 : head.lowerBound)..<head.upperBound]))
                    object.isEmpty = false
                    value(&self, members[index].field)
                }
            }
        }
        close(&object)
    }

    /// Writes `{` and returns the object, with the unknown members (usually none) to merge in.
    private mutating func openObject<Field>(_ layout: borrowing KeyLayout<Field>, unknown: JSONObject) -> OpenObject {
        append(UInt8(ascii: "{"))
        guard !unknown.isEmpty else { return OpenObject(level: layout.level, pending: []) }
        var pending: [(key: String, value: JSONValue)] = []
        pending.reserveCapacity(unknown.count)
        // A handful of known keys: a linear scan with `==` (the dictionary's own key equality).
        for (key, value) in unknown where !layout.keys.contains(key) { pending.append((key, value)) }
        pending.sort { JSONWriter.utf8Precedes($0.key, $1.key) }
        return OpenObject(level: layout.level, pending: pending)
    }

    /// Writes the remaining unknown members and the closing `}` (`{}` when the object is empty).
    private mutating func close(_ object: inout OpenObject) {
        writeUnknown(before: nil, of: &object)
        if !object.isEmpty {
            append(UInt8(ascii: "\n"))
            indent(object.level)
        }
        append(UInt8(ascii: "}"))
    }

    /// Writes the pending unknown members whose keys sort before `key` (all of them for nil).
    private mutating func writeUnknown(before key: String?, of object: inout OpenObject) {
        while object.next < object.pending.count {
            let (unknownKey, value) = object.pending[object.next]
            if let key, !JSONWriter.utf8Precedes(unknownKey, key) { return }
            append(object.isEmpty ? "\n" : ",\n")
            object.isEmpty = false
            indent(object.level + 1)
            string(unknownKey)
            append(": ")
            self.value(value, level: object.level + 1)
            object.next += 1
        }
    }

    /// About the size of `unknown`'s members (their strings, plus a line each; nested values counted
    /// roughly), for a buffer estimate.
    static func estimatedSize(of unknown: JSONObject) -> Int {
        guard !unknown.isEmpty else { return 0 }
        var size = 0
        for (key, value) in unknown {
            size += key.utf8.count + 24
            switch value {
            case .string(let text): size += text.utf8.count
            case .number(let number): size += number.literal.utf8.count
            case .array, .object: size += 256
            case .null, .bool: break
            }
        }
        return size
    }
}
