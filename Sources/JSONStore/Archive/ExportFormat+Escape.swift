/// The export's hot loop: a document's bytes as the JSON string of its `content` member, checked
/// to be UTF-8 in the same pass.
///
/// Why it is written this way: turning each document into a `String` (`String(decoding:)`, which
/// copies and repairs), validating it with `UTF8()` scalar by scalar and escaping it byte by byte
/// with one `append` each would make this loop over half of an export's instructions. Here the
/// line is written through a pointer into one buffer sized for the worst case; eight bytes are tested at a time for anything that needs work (a
/// byte below 0x20, `"`, `\`, or a byte of 0x80 or more) and copied as one word when clean; only
/// the rest goes byte by byte. The bytes written are exactly those of `appendString` applied to
/// the same text (`ExportEscapeTests` compares both on random and edge-case input).
extension ExportFormat {
    /// The whole line of one file: `{"content":` + `content` as a JSON string + `suffix` (the
    /// other members and the closing brace), built in one buffer in one pass; nil when `content`
    /// is not well-formed UTF-8 (the Unicode Standard, Table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF). The string is escaped exactly as `appendString` does.
    static func line(content: [UInt8], suffix: [UInt8]) -> [UInt8]? {
        let prefix: StaticString = #"{"content":""#
        // At most six bytes per input byte (`\u001f`); the unused capacity is never touched.
        let capacity = prefix.utf8CodeUnitCount + 6 * content.count + 1 + suffix.count
        var valid = true
        let line = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var out = buffer.baseAddress!
            out.update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            out += prefix.utf8CodeUnitCount
            valid = content.withUnsafeBufferPointer { escape($0, to: &out) }
            guard valid else {
                initialized = 0
                return
            }
            out.pointee = UInt8(ascii: "\"")
            out += 1
            suffix.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: $0.count) }
            out += suffix.count
            initialized = out - buffer.baseAddress!
        }
        return valid ? line : nil
    }

    /// Writes the escaped bytes of `bytes` at `out` (which has room for six bytes per input
    /// byte) and moves `out` past them; false when `bytes` is not well-formed UTF-8.
    private static func escape(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout UnsafeMutablePointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight bytes at a time: stored whole, then `out` moves past the bytes before the
            // first one that needs a look (all eight when none does).
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                UnsafeMutableRawPointer(out).storeBytes(of: word, as: UInt64.self)
                let clean = cleanPrefix(word)
                out += clean
                index += clean
                if clean == 8 { continue }
            }
            let byte = base[index]
            if byte >= 0x80 {
                guard let length = utf8SequenceLength(base, at: index, count: count) else { return false }
                out.update(from: base + index, count: length)
                out += length
                index += length
            } else if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                out.pointee = byte
                out += 1
                index += 1
            } else {
                writeEscape(byte, to: &out)
                index += 1
            }
        }
        return true
    }

    /// How many of the eight bytes of `word` (in memory order: little-endian) come before the
    /// first one below 0x20, `"` (0x22), `\` (0x5C) or of 0x80 and above; 8 when there is none.
    /// (`(x - 0x01…01) & ~x & 0x80…80` flags the bytes of x that are zero; a borrow can flag a
    /// byte above a zero one too, never one below, so the lowest flag is exact.)
    @inline(__always)
    static func cleanPrefix(_ word: UInt64) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let little = UInt64(littleEndian: word)
        let below20 = (little &- ones &* 0x20) & ~little
        let quote = little ^ (ones &* 0x22), backslash = little ^ (ones &* 0x5C)
        let isQuote = (quote &- ones) & ~quote, isBackslash = (backslash &- ones) & ~backslash
        return ((below20 | isQuote | isBackslash | little) & highs).trailingZeroBitCount / 8
    }

    /// The escape of an ASCII byte below 0x20, `"` or `\`, as `appendString` writes it.
    @inline(__always)
    private static func writeEscape(_ byte: UInt8, to out: inout UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8(ascii: "\\")
        let short: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        default:
            let hex: StaticString = "0123456789abcdef"
            out[1] = UInt8(ascii: "u")
            out[2] = UInt8(ascii: "0")
            out[3] = UInt8(ascii: "0")
            out[4] = hex.utf8Start[Int(byte >> 4)]
            out[5] = hex.utf8Start[Int(byte & 0x0F)]
            out += 6
            return
        }
        out[1] = short
        out += 2
    }

    /// The length of the well-formed UTF-8 sequence starting with the non-ASCII byte at `index`,
    /// or nil when it is not one (the Unicode Standard, Table 3-7).
    @inline(__always)
    private static func utf8SequenceLength(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Int? {
        let lead = base[index]
        func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            index + offset < count && (low...high).contains(base[index + offset])
        }
        switch lead {
        case 0xC2...0xDF: return continuation(1) ? 2 : nil
        case 0xE0: return continuation(1, 0xA0) && continuation(2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : nil
        case 0xED: return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : nil
        case 0xF0: return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF4: return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : nil
        default: return nil
        }
    }
}
