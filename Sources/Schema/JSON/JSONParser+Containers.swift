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

    /// An open object: where its members start on `members`, and the key whose value is
    /// being parsed (`pendingKeyOffset` is -1 when there is none).
    struct OpenObject {
        var membersStart: Int
        var pendingKey = ""
        var pendingKeyOffset = -1
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

    /// Reads `"key" :` and makes the key the innermost open object's pending key.
    mutating func parseKey(afterComma: Bool) throws(JSONSyntaxError) {
        guard peek(is: ASCII.quote) else { throw expectedKeyError(afterComma: afterComma) }
        let keyOffset = pos
        let key = try parseString()
        let top = openObjects.count - 1
        openObjects[top].pendingKey = key
        openObjects[top].pendingKeyOffset = keyOffset
        skipWhitespace()
        guard peek(is: ASCII.colon) else {
            throw error(at: pos, "expected ':' after object key, found \(describe(at: pos))")
        }
        pos += 1
    }

    /// Adds the innermost object's pending key with `value` to its members.
    mutating func storeMember(_ value: JSONValue) {
        let top = openObjects.count - 1
        members.append(Member(key: openObjects[top].pendingKey, keyOffset: openObjects[top].pendingKeyOffset, value: value))
        openObjects[top].pendingKeyOffset = -1
    }

    /// Builds the innermost object from its members and pops it; rejects a duplicate key.
    mutating func closeObject() throws(JSONSyntaxError) -> JSONObject {
        let start = openObjects[openObjects.count - 1].membersStart
        var object = JSONObject(minimumCapacity: members.count - start)
        for index in start..<members.count where object.updateValue(members[index].value, forKey: members[index].key) != nil {
            // The object is still open, so this finds the duplicate (or an earlier one).
            guard let duplicate = duplicateKeyError(before: .max) else { preconditionFailure("duplicate key not found") }
            throw duplicate
        }
        members.removeSubrange(start...)
        openObjects.removeLast()
        return object
    }

    /// The error for the earliest key before `offset` that repeats a key of its open object
    /// (members and pending key), or nil. Only called on the way out with an error.
    func duplicateKeyError(before offset: Int) -> JSONSyntaxError? {
        var found: (key: String, earlier: String, offset: Int)?
        for (index, object) in openObjects.enumerated() {
            let end = index + 1 < openObjects.count ? openObjects[index + 1].membersStart : members.count
            var keys = members[object.membersStart..<end].map { (key: $0.key, offset: $0.keyOffset) }
            if object.pendingKeyOffset >= 0 { keys.append((object.pendingKey, object.pendingKeyOffset)) }
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
