// Arrays and objects for JSONByteParser.
//
// An object's members are collected on the shared `members` stack and turned into a
// dictionary when the object closes, sized once: one hash per member and no rehashing as
// it grows. Duplicate keys are therefore found at the close; `duplicateKeyError(before:)`
// lets any earlier-thrown error give way to a duplicate key that precedes it in the input.

extension JSONByteParser {
    /// A member of an open object, with the offset of its key's opening quote.
    struct Member {
        var key: String
        var keyOffset: Int
        var value: JSONValue
    }

    /// An open object: where its members start on `members`. A key is pushed there as soon as
    /// it is read, with a `null` value that `storeMember` replaces: the last member of an open
    /// object whose value is being parsed is that pending key.
    struct OpenObject {
        var membersStart: Int
    }

    /// Steps over the `[` or `{` at `pos`, enforcing the depth limit.
    mutating func enterContainer() throws(JSONSyntaxError) {
        if depth == maxDepth { throw depthError() }
        depth += 1
        pos += 1
        skipWhitespace()
    }

    mutating func closeEmptyContainer(_ empty: JSONValue) -> JSONValue {
        pos += 1
        depth -= 1
        return empty
    }

    /// After an array element: true and past the `,` when another element follows,
    /// false and past the `]` when the array ends.
    mutating func moreArrayElements() throws(JSONSyntaxError) -> Bool {
        if peek(is: ASCII.comma) {
            pos += 1
            skipWhitespace()
            if peek(is: ASCII.closeBracket) { throw trailingCommaError(in: "array") }
            return true
        }
        guard peek(is: ASCII.closeBracket) else {
            throw error(at: pos, "expected ',' or ']' after array element, found \(describe(at: pos))")
        }
        pos += 1
        return false
    }

    /// After an object member: true and past the next key and `:` when another member
    /// follows, false and past the `}` when the object ends.
    mutating func moreObjectMembers() throws(JSONSyntaxError) -> Bool {
        if peek(is: ASCII.comma) {
            pos += 1
            skipWhitespace()
            if peek(is: ASCII.closeBrace) { throw trailingCommaError(in: "object") }
            try parseKey(afterComma: true)
            return true
        }
        guard peek(is: ASCII.closeBrace) else {
            throw error(at: pos, "expected ',' or '}' after object member, found \(describe(at: pos))")
        }
        pos += 1
        return false
    }

    /// Reads `"key" :` and pushes the key, the innermost open object's pending key.
    mutating func parseKey(afterComma: Bool) throws(JSONSyntaxError) {
        guard peek(is: ASCII.quote) else { throw expectedKeyError(afterComma: afterComma) }
        let keyOffset = pos
        let key = try parseKeyString()
        members.append(Member(key: key, keyOffset: keyOffset, value: .null))
        skipWhitespace()
        guard peek(is: ASCII.colon) else {
            throw error(at: pos, "expected ':' after object key, found \(describe(at: pos))")
        }
        pos += 1
    }

    /// Parses the key whose opening quote is at `pos`. A short ASCII key without escapes comes
    /// from `keyCache`; any other is parsed as a string (from the start again).
    mutating func parseKeyString() throws(JSONSyntaxError) -> String {
        let start = pos + 1
        if let (key, end) = keyCache.cachedKey(in: bytes, at: start) {
            pos = end + 1
            return key
        }
        var highBits: UInt8 = 0
        let end = endOfPlainRun(from: start, highBits: &highBits)
        if end < bytes.count, bytes[end] == ASCII.quote, highBits < 0x80, end > start, end - start <= KeyCache.maximumLength {
            pos = end + 1
            return keyCache.key(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
        return try parseString()
    }

    /// Makes `value` the value of the innermost object's pending key, the last member.
    mutating func storeMember(_ value: JSONValue) {
        members[members.count - 1].value = value
    }

    /// Builds the innermost object from its members and pops it; rejects a duplicate key.
    mutating func closeObject() throws(JSONSyntaxError) -> JSONObject {
        let start = openObjects[openObjects.count - 1].membersStart
        var object = newObject(capacity: members.count - start)
        // Each value moves into the dictionary (a `null` is left behind); keys are copied, as
        // finding a duplicate below reads them, with their offsets.
        let unique = members.withUnsafeMutableBufferPointer { buffer in
            for index in start..<buffer.count {
                var value = JSONValue.null
                swap(&value, &buffer[index].value)
                if object.updateValue(value, forKey: buffer[index].key) != nil { return false }
            }
            return true
        }
        if !unique {
            // The object is still open, so this finds the duplicate (or an earlier one).
            guard let duplicate = duplicateKeyError(before: .max) else { preconditionFailure("duplicate key not found") }
            throw duplicate
        }
        // One by one: `removeSubrange` goes through generic code that cost more than this loop.
        while members.count > start { members.removeLast() }
        openObjects.removeLast()
        return object
    }

    /// An empty dictionary with room for `capacity` members. A small one is a copy of an empty
    /// template made once per document: `JSONObject(minimumCapacity:)` runs unspecialized in
    /// the standard library and looks up the storage's generic metadata on every call (about
    /// 330 instructions more per object). The copy, made on the first insert, has
    /// the template's size and hash seed; sharing a seed is harmless for objects this small.
    /// Templates start with the ninth object: a small document (or a member value parsed on its
    /// own by `JSONSkimmer`) would pay for a template it does not reuse.
    mutating func newObject(capacity: Int) -> JSONObject {
        objectsMade += 1
        guard objectsMade > 8, capacity <= 16 else { return JSONObject(minimumCapacity: capacity) }
        if objectTemplates.isEmpty { objectTemplates = Array(repeating: nil, count: 17) }
        if let template = objectTemplates[capacity] { return template }
        let template = JSONObject(minimumCapacity: capacity)
        objectTemplates[capacity] = template
        return template
    }

    /// The error for the earliest key before `offset` that repeats a key of its open object
    /// (its members, the pending key included), or nil. Only called on the way out with an error.
    func duplicateKeyError(before offset: Int) -> JSONSyntaxError? {
        var found: (key: String, earlier: String, offset: Int)?
        for (index, object) in openObjects.enumerated() {
            let end = index + 1 < openObjects.count ? openObjects[index + 1].membersStart : members.count
            let keys = members[object.membersStart..<end].map { (key: $0.key, offset: $0.keyOffset) }
            var seen: [String: String] = [:]
            for key in keys {
                if let earlier = seen[key.key] {
                    if key.offset < offset, key.offset < found?.offset ?? .max { found = (key.key, earlier, key.offset) }
                    break
                }
                seen[key.key] = key.key
            }
        }
        return found.map { duplicateKeyError($0.key, earlier: $0.earlier, at: $0.offset) }
    }
}
