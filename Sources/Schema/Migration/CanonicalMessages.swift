import Foundation
import StoreJSON

/// The `messages` of a v1 or v2 work stream upgraded to v3 (or of a v1 one checked for v2) on their bytes, when those bytes are
/// exactly what this code writes: the migration's fast path.
///
/// v2 → v3 adds `"offset": 0` and `"seq": 0` to each message and changes nothing else in it
/// (spec §10). A message written in the canonical form (§2) can therefore be upgraded by copying
/// its bytes and inserting those two lines at their sorted places, instead of parsing it into
/// values, decoding, encoding and writing it again: most of a migration's CPU at 10,000 work
/// streams. The scan accepts only bytes that decode to a valid message *and* that the writer
/// would write back unchanged; anything else (another writer's formatting, an escape the writer
/// does not use, an uppercase UUID, a date in another form, a nested value, a `seq` or `offset`
/// already present, a message of another work stream) returns nil and the caller takes the full
/// path, which reports or fixes it. `MigrationFastPathTests` compares the two paths on generated
/// stores, the samples and mutated documents.
package enum CanonicalMessages {
    /// The upgraded array and what the caller must check against the document.
    package struct Upgraded: Sendable {
        /// The v3 `messages` value, `[` to `]`, at level 1 of the document.
        package var bytes: [UInt8]
        /// How far the v1 value reached in the input: the index just past its `]`.
        package var end: Int
        package var count: Int
        /// The `session_id` of every message (36 lowercase bytes); nil without messages. The
        /// caller compares it with the document's id: a message of another work stream needs
        /// the full path, which fixes and reports it (§6 rule 4).
        package var sessionID: [UInt8]?
    }

    /// Upgrades the canonical `messages` value starting at `start` (its `[`) in `bytes`.
    package static func upgradedToV3(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Upgraded? {
        var scanner = Scanner(bytes: bytes, pos: start, addingSync: true)
        return scanner.array()
    }

    /// The same check for v1 → v2, which changes no message: the bytes are the input's.
    package static func checkedForV2(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Upgraded? {
        var scanner = Scanner(bytes: bytes, pos: start, addingSync: false)
        return scanner.array()
    }
}

/// The scan over one `messages` value. `pos` moves forward only; `copied` is how much of the
/// input is already in `out`.
private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos: Int
    var out: [UInt8] = []
    var copied = 0
    var sessionID: [UInt8]?
    /// True for v3: `offset` and `seq` are inserted into each message.
    let addingSync: Bool

    init(bytes: UnsafeBufferPointer<UInt8>, pos: Int, addingSync: Bool) {
        self.bytes = bytes
        self.pos = pos
        self.copied = pos
        self.addingSync = addingSync
    }

    /// True when `literal` lies at `pos`; moves past it.
    mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - pos >= count, memcmp(bytes.baseAddress! + pos, literal.utf8Start, count) == 0 else { return false }
        pos += count
        return true
    }

    mutating func array() -> CanonicalMessages.Upgraded? {
        let start = pos
        if take("[]") { return CanonicalMessages.Upgraded(bytes: Array("[]".utf8), end: pos, count: 0, sessionID: nil) }
        guard take("[\n") else { return nil }
        // Each message gains two lines of 19 and 16 bytes.
        out.reserveCapacity(min(bytes.count - start, 1 << 24) + 4096)
        var count = 0
        while true {
            guard take("    {\n"), message() else { return nil }
            count += 1
            if take(",\n") { continue }
            guard take("\n  ]") else { return nil }
            break
        }
        flush(upTo: pos)
        return CanonicalMessages.Upgraded(bytes: out, end: pos, count: count, sessionID: sessionID)
    }

    /// Copies the input from `copied` up to `end` into `out`.
    mutating func flush(upTo end: Int) {
        guard end > copied else { return }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<end]))
        copied = end
    }

    /// The keys a message must have (all seven, so that the writer writes no default the input
    /// lacks), as bits of `seen`.
    static let required: UInt16 = 0b111_1111

    /// One message's members, from just after its `{\n` to just after its closing `}`.
    mutating func message() -> Bool {
        var seen: UInt16 = 0
        var previousKey = 0..<0
        var offsetWritten = !addingSync, seqWritten = !addingSync
        while true {
            let lineStart = pos
            guard take("      \"") else { return false }
            let keyStart = pos
            while pos < bytes.count, Scanner.isKeyByte(bytes[pos]) { pos += 1 }
            let key = keyStart..<pos
            guard !key.isEmpty, take("\": "), keyPrecedes(previousKey, key) else { return false }
            previousKey = key
            // The v3 keys go in at their sorted places, before the first key after them.
            if !offsetWritten, keyPrecedes(Scanner.offsetKey, key) {
                insert("      \"offset\": 0,\n", at: lineStart)
                offsetWritten = true
            }
            if !seqWritten, keyPrecedes(Scanner.seqKey, key) {
                insert("      \"seq\": 0,\n", at: lineStart)
                seqWritten = true
            }
            switch knownKey(key) {
            case .id: guard uuid() else { return false }; seen |= 1
            case .sessionID:
                let valueStart = pos + 1
                guard uuid() else { return false }
                if let sessionID {
                    guard memcmp(bytes.baseAddress! + valueStart, sessionID, 36) == 0 else { return false }
                } else {
                    sessionID = Array(UnsafeBufferPointer(rebasing: bytes[valueStart..<valueStart + 36]))
                }
                seen |= 2
            case .role: guard string() else { return false }; seen |= 4
            case .text: guard string() else { return false }; seen |= 8
            case .status: guard string() else { return false }; seen |= 16
            case .timestamp: guard date() else { return false }; seen |= 32
            case .serverTimestamp: guard take("null") || date() else { return false }; seen |= 64
            case .sync: return false
            case nil: guard scalar() else { return false }
            }
            if take(",\n") { continue }
            guard take("\n    }"), seen == Scanner.required, offsetWritten, seqWritten else { return false }
            return true
        }
    }

    mutating func insert(_ line: StaticString, at position: Int) {
        flush(upTo: position)
        out.append(contentsOf: UnsafeBufferPointer(start: line.utf8Start, count: line.utf8CodeUnitCount))
    }

    enum Known { case id, sessionID, role, text, status, timestamp, serverTimestamp, sync }

    static let offsetKey: Range<Int> = -1..<(-1)
    static let seqKey: Range<Int> = -2..<(-2)

    /// The bytes of `key`: a range of the input, or one of the two marker ranges for the v3 keys.
    func keyBytes(_ key: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        switch key.lowerBound {
        case -1: let s: StaticString = "offset"; return UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount)
        case -2: let s: StaticString = "seq"; return UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount)
        default: return UnsafeBufferPointer(rebasing: bytes[key])
        }
    }

    /// Strict byte order of two keys (the writer's order, `JSONWriter.utf8Precedes`); the empty
    /// range at 0 (no key yet) precedes every key.
    func keyPrecedes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        if a == 0..<0 { return true }
        return keyBytes(a).lexicographicallyPrecedes(keyBytes(b))
    }

    func knownKey(_ key: Range<Int>) -> Known? {
        let k = keyBytes(key)
        func equals(_ s: StaticString) -> Bool {
            k.count == s.utf8CodeUnitCount && memcmp(k.baseAddress!, s.utf8Start, k.count) == 0
        }
        switch k.count {
        case 2: return equals("id") ? .id : nil
        case 3: return equals("seq") ? .sync : nil
        case 4: return equals("role") ? .role : equals("text") ? .text : nil
        case 6: return equals("status") ? .status : equals("offset") ? .sync : nil
        case 9: return equals("timestamp") ? .timestamp : nil
        case 10: return equals("session_id") ? .sessionID : nil
        case 16: return equals("server_timestamp") ? .serverTimestamp : nil
        default: return nil
        }
    }

    /// Keys are taken on the fast path only when they need no escape and sort the same as
    /// bytes and as text: lowercase ASCII letters, digits and `_`.
    static func isKeyByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
    }

    static func isLowerHex(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f"))
    }

    /// A quoted lowercase `8-4-4-4-12` UUID: the only spelling the writer gives a UUID.
    mutating func uuid() -> Bool {
        guard bytes.count - pos >= 38, bytes[pos] == UInt8(ascii: "\""), bytes[pos + 37] == UInt8(ascii: "\"") else { return false }
        for i in 0..<36 {
            let b = bytes[pos + 1 + i]
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard b == UInt8(ascii: "-") else { return false }
            } else {
                guard Scanner.isLowerHex(b) else { return false }
            }
        }
        pos += 38
        return true
    }

    /// A quoted date in the canonical form that reads back as itself (`RFC3339.canonicalMilliseconds`,
    /// then written again and compared).
    mutating func date() -> Bool {
        let n = RFC3339.formattedCount
        guard bytes.count - pos >= n + 2, bytes[pos] == UInt8(ascii: "\""), bytes[pos + n + 1] == UInt8(ascii: "\"") else { return false }
        let text = UnsafeBufferPointer(rebasing: bytes[pos + 1..<pos + 1 + n])
        guard let ms = RFC3339.canonicalMilliseconds(text) else { return false }
        let same = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { written in
            RFC3339.write(milliseconds: ms, to: written)
            return memcmp(written.baseAddress!, text.baseAddress!, n) == 0
        }
        guard same else { return false }
        pos += n + 2
        return true
    }

    /// The value of a key this code does not know: a canonical string, number, `true`, `false`
    /// or `null`. A container is left to the full path.
    mutating func scalar() -> Bool {
        guard pos < bytes.count else { return false }
        switch bytes[pos] {
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return take("true")
        case UInt8(ascii: "f"): return take("false")
        case UInt8(ascii: "n"): return take("null")
        default: return number()
        }
    }

    /// A number in JSON's grammar (the parser keeps its literal, and the writer writes it back as is).
    mutating func number() -> Bool {
        func digits() -> Int {
            let from = pos
            while pos < bytes.count, bytes[pos] >= UInt8(ascii: "0"), bytes[pos] <= UInt8(ascii: "9") { pos += 1 }
            return pos - from
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        guard pos < bytes.count else { return false }
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
        } else {
            guard bytes[pos] >= UInt8(ascii: "1"), bytes[pos] <= UInt8(ascii: "9") else { return false }
            _ = digits()
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard digits() > 0 else { return false }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard digits() > 0 else { return false }
        }
        return true
    }

    /// A quoted string as the writer writes it (`JSONWriter.writeString`): valid UTF-8, raw
    /// except `"`, `\` and the bytes below 0x20, which are escaped with the short escapes or
    /// `\u00xx` (lowercase) for the control bytes that have none.
    mutating func string() -> Bool {
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { return false }
        pos += 1
        let base = bytes.baseAddress!
        while true {
            // Eight plain bytes at a time: none below 0x20, none `"` or `\`, none 0x80 or above.
            while bytes.count - pos >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + pos).loadUnaligned(as: UInt64.self))
                guard Scanner.special(word) == 0 else { break }
                pos += 8
            }
            guard pos < bytes.count else { return false }
            let b = bytes[pos]
            switch b {
            case UInt8(ascii: "\""):
                pos += 1
                return true
            case UInt8(ascii: "\\"):
                guard escape() else { return false }
            case 0..<0x20:
                return false
            case 0x80...:
                guard utf8Sequence() else { return false }
            default:
                pos += 1
            }
        }
    }

    /// The high bit of each byte of `word` that is below 0x20, `"`, `\` or 0x80 and above; zero
    /// exactly when there is none (a borrow can only set a flag above a byte that has one).
    static func special(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ v: UInt64) -> UInt64 { (v &- ones) & ~v }
        return (zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C)) | ((word &- ones &* 0x20) & ~word) | word) & high
    }

    /// An escape at `pos` (its `\`) exactly as `JSONWriter.writeEscape` writes it.
    mutating func escape() -> Bool {
        guard bytes.count - pos >= 2 else { return false }
        switch bytes[pos + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            pos += 2
            return true
        case UInt8(ascii: "u"):
            guard bytes.count - pos >= 6, bytes[pos + 2] == UInt8(ascii: "0"), bytes[pos + 3] == UInt8(ascii: "0"),
                bytes[pos + 4] == UInt8(ascii: "0") || bytes[pos + 4] == UInt8(ascii: "1"),
                Scanner.isLowerHex(bytes[pos + 5])
            else { return false }
            let low = bytes[pos + 5]
            let nibble = low <= UInt8(ascii: "9") ? low - UInt8(ascii: "0") : low - UInt8(ascii: "a") + 10
            let value = (bytes[pos + 4] - UInt8(ascii: "0")) << 4 | nibble
            // These five have a short escape, which the writer uses.
            switch value {
            case 0x08, 0x09, 0x0A, 0x0C, 0x0D: return false
            default: break
            }
            pos += 6
            return true
        default:
            return false
        }
    }

    /// One well-formed UTF-8 sequence of two to four bytes at `pos` (no overlong form, no
    /// surrogate, nothing above U+10FFFF), as Swift's own validation accepts.
    mutating func utf8Sequence() -> Bool {
        let lead = bytes[pos]
        let length: Int, secondLow: UInt8, secondHigh: UInt8
        switch lead {
        case 0xC2...0xDF: length = 2; secondLow = 0x80; secondHigh = 0xBF
        case 0xE0: length = 3; secondLow = 0xA0; secondHigh = 0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; secondLow = 0x80; secondHigh = 0xBF
        case 0xED: length = 3; secondLow = 0x80; secondHigh = 0x9F
        case 0xF0: length = 4; secondLow = 0x90; secondHigh = 0xBF
        case 0xF1...0xF3: length = 4; secondLow = 0x80; secondHigh = 0xBF
        case 0xF4: length = 4; secondLow = 0x80; secondHigh = 0x8F
        default: return false
        }
        guard bytes.count - pos >= length, (secondLow...secondHigh).contains(bytes[pos + 1]) else { return false }
        for i in 2..<length where !(0x80...0xBF).contains(bytes[pos + i]) { return false }
        pos += length
        return true
    }
}
