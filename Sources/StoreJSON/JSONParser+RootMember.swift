import Foundation

// Locating one member of a document's root object while parsing it, and stepping over its value
// when its bytes are exactly the bytes of a value the caller already holds decoded.
//
// An update of a work stream reads its whole document but usually changes only top-level keys;
// the `messages` (most of the bytes) are those the previous update wrote. When the input holds
// exactly those bytes where the root's `messages` value starts, the parser compares them (one
// `memcmp`) instead of building their tree (see `EncodedMessages`). Everything around them is
// parsed and checked as usual: the syntax before and after, duplicate keys, the other members.

/// The member of the root object a parse watches for.
struct RootMemberWatch {
    /// The member's key, as decoded (an escaped spelling of it counts).
    let key: String
    /// Bytes of one complete JSON value. When the member's value starts with exactly these
    /// bytes, the parser steps over them and gives `placeholder` as the member's value.
    let known: [UInt8]?
    let placeholder: JSONValue
    /// Where the value being parsed started.
    var start = 0
    /// Where the member's value lies in the input, once parsed.
    var range: Range<Int>?
    /// True when the value was stepped over (it equals `known`).
    var tookKnown = false
}

extension JSONParser {
    /// Parses `bytes` exactly like ``parse(_:maxDepth:)`` (same value, same errors), and reports
    /// where the value of the root object's member `key` lies in `bytes`. When that value's
    /// bytes are `known`, they are not parsed: the member's value in the result is `placeholder`.
    ///
    /// - Returns: The value; the member's byte range (nil when the root is no object or has no
    ///   such member); and whether the member's value was taken as `known`.
    package static func parse(_ bytes: [UInt8], watching key: String, known: [UInt8]?, placeholder: JSONValue)
        throws(JSONSyntaxError) -> (value: JSONValue, member: Range<Int>?, tookKnown: Bool)
    {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) -> (JSONValue, Range<Int>?, Bool) in
                var parser = JSONByteParser(buffer, maxDepth: defaultMaxDepth)
                parser.watch = RootMemberWatch(key: key, known: known, placeholder: placeholder)
                let value = try parser.parseDocument()
                return (value, parser.watch!.range, parser.watch!.tookKnown)
            }
        }
        return try result.get()
    }
}

extension JSONByteParser {
    /// Called (with a watch set) where a value starts. For the watched member's value: notes
    /// where it starts, and when its bytes are the known ones, steps over them and returns the
    /// placeholder. Otherwise nil: the value is parsed as usual.
    mutating func watchedValueStarts() -> JSONValue? {
        // Only the root object is open, and the key just read is the watched one.
        guard openKinds.count == 1, openKinds[0] == .object, members[members.count - 1].key == watch!.key else { return nil }
        watch!.start = pos
        guard let known = watch!.known, !known.isEmpty, bytes.count - pos >= known.count else { return nil }
        let same = known.withUnsafeBufferPointer { known in
            memcmp(bytes.baseAddress! + pos, known.baseAddress!, known.count) == 0
        }
        guard same else { return nil }
        pos += known.count
        watch!.tookKnown = true
        return watch!.placeholder
    }

    /// Called (with a watch set) when a value of an object is complete and `end` is just past
    /// it: records the range of the watched member's value.
    mutating func watchedValueEnds(at end: Int) {
        guard openKinds.count == 1, members[members.count - 1].key == watch!.key else { return }
        watch!.range = watch!.start..<end
    }
}
