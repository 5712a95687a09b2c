/// A fast, optimistic reading of a document's top-level object that skips the values of some
/// keys (a work stream's `messages`) without building them: listing 10,000 work streams must
/// not decode every message.
///
/// Every other member is parsed by the full parser. A skipped value is only walked for its
/// structure (strings, escapes, brackets), and the elements of a skipped array are counted.
/// Anything unusual (a syntax problem, a duplicate key, an unfinished string) returns nil: the
/// caller then parses the whole document the normal way, which reports the exact error. The
/// skipped values are therefore not validated here; `validate` and `migrate` decode everything.
package enum JSONSkimmer {
    /// The top-level members except `skip`, and the element count of each skipped array
    /// (nil for a skipped value that is not an array); nil when the fast path does not apply.
    package static func topLevel(_ bytes: [UInt8], skipping skip: Set<String>) -> (members: JSONObject, skipped: [String: Int?])? {
        bytes.withUnsafeBufferPointer { buffer in
            var skimmer = Skimmer(bytes: buffer)
            return skimmer.topLevel(skip)
        }
    }
}

private struct Skimmer {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos = 0

    mutating func skipWhitespace() {
        while pos < bytes.count, bytes[pos] == 0x20 || bytes[pos] == 0x0A || bytes[pos] == 0x0D || bytes[pos] == 0x09 { pos += 1 }
    }

    mutating func expect(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard pos < bytes.count, bytes[pos] == byte else { return false }
        pos += 1
        return true
    }

    mutating func topLevel(_ skip: Set<String>) -> (members: JSONObject, skipped: [String: Int?])? {
        guard expect(UInt8(ascii: "{")) else { return nil }
        var members: JSONObject = [:]
        var skipped: [String: Int?] = [:]
        skipWhitespace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") { pos += 1; return finish(members, skipped) }
        while true {
            skipWhitespace()
            let keyStart = pos
            guard let keyEnd = skipString(), let key = parse(keyStart..<keyEnd), case .string(let name) = key,
                expect(UInt8(ascii: ":"))
            else { return nil }
            skipWhitespace()
            let valueStart = pos
            guard let (end, count) = skipValue() else { return nil }
            if skip.contains(name) {
                guard skipped.updateValue(count, forKey: name) == nil, members[name] == nil else { return nil }
            } else {
                guard let value = parse(valueStart..<end), skipped[name] == nil, members.updateValue(value, forKey: name) == nil else { return nil }
            }
            skipWhitespace()
            guard pos < bytes.count else { return nil }
            if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
            guard bytes[pos] == UInt8(ascii: "}") else { return nil }
            pos += 1
            return finish(members, skipped)
        }
    }

    mutating func finish(_ members: JSONObject, _ skipped: [String: Int?]) -> (members: JSONObject, skipped: [String: Int?])? {
        skipWhitespace()
        return pos == bytes.count ? (members, skipped) : nil
    }

    /// A member value parsed by the full parser.
    func parse(_ range: Range<Int>) -> JSONValue? {
        do { return try JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[range])) } catch { return nil }
    }

    /// Past a string starting at `pos` (at its quote); returns the offset after the closing quote.
    mutating func skipString() -> Int? {
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { return nil }
        pos += 1
        while pos < bytes.count {
            switch bytes[pos] {
            case UInt8(ascii: "\""): pos += 1; return pos
            case UInt8(ascii: "\\"): pos += 2
            case 0..<0x20: return nil
            default: pos += 1
            }
        }
        return nil
    }

    /// Past one value starting at `pos`; returns its end, and its element count if it is an array.
    mutating func skipValue() -> (end: Int, count: Int?)? {
        guard pos < bytes.count else { return nil }
        let first = bytes[pos]
        if first == UInt8(ascii: "\"") { return skipString().map { ($0, nil) } }
        if first != UInt8(ascii: "[") && first != UInt8(ascii: "{") {
            while pos < bytes.count, !Self.isDelimiter(bytes[pos]) { pos += 1 }
            return (pos, nil)
        }
        var stack: [UInt8] = []
        var elements = 0
        var sawValue = false
        while pos < bytes.count {
            let b = bytes[pos]
            switch b {
            case UInt8(ascii: "\""):
                if stack.count == 1 && !sawValue { sawValue = true }
                guard skipString() != nil else { return nil }
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if stack.count == 1 && !sawValue { sawValue = true }
                stack.append(b == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}"))
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard stack.last == b else { return nil }
                stack.removeLast()
                if stack.isEmpty {
                    pos += 1
                    let count = first == UInt8(ascii: "[") ? (sawValue ? elements + 1 : 0) : nil
                    return (pos, count)
                }
            case UInt8(ascii: ","):
                if stack.count == 1 { elements += 1 }
            case 0x20, 0x0A, 0x0D, 0x09:
                break
            default:
                if stack.count == 1 && !sawValue { sawValue = true }
            }
            pos += 1
        }
        return nil
    }

    static func isDelimiter(_ b: UInt8) -> Bool {
        b == UInt8(ascii: ",") || b == UInt8(ascii: "}") || b == UInt8(ascii: "]") || b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }
}
