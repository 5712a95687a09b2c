/// Makes a `String` from long UTF-8 text whose non-ASCII characters are few, without having
/// the standard library validate every byte.
///
/// Every way to make a `String` from bytes validates them; ASCII-only bytes are checked eight
/// at a time, but once a buffer holds one non-ASCII byte the check goes byte by byte (about
/// 9 instructions a byte). Message texts are long and mostly ASCII, with an occasional `→` or
/// emoji, so that check would be a fifth of the parser's instructions. Here the
/// few non-ASCII sequences are checked (RFC 3629) and decoded by hand; the ASCII runs between
/// them are taken from a copy of the text with an ASCII placeholder in their place (which
/// gets the fast check), and the text is assembled by appending, in place, runs and decoded
/// characters. Appending `String`s and scalars validates nothing: the bytes end up exactly
/// the input's.
enum SparseUTF8 {
    /// Shorter texts are left to `String(decoding:)`: the replacements would cost more.
    static let minimumLength = 512
    /// At most this many non-ASCII characters, and at most one per `spacing` bytes.
    static let maximumCharacters = 16
    static let spacing = 64

    enum Result {
        case string(String)
        /// The bytes hold an invalid UTF-8 sequence.
        case invalid
        /// Too short, or too many non-ASCII characters: use `String(decoding:)`.
        case notSparse
    }

    /// The string whose UTF-8 is `utf8`, when `utf8` is long and its non-ASCII characters are sparse.
    static func string(_ utf8: UnsafeBufferPointer<UInt8>) -> Result {
        guard utf8.count >= minimumLength, let base = utf8.baseAddress else { return .notSparse }
        let budget = min(maximumCharacters, utf8.count / spacing)
        return withUnsafeTemporaryAllocation(of: NonASCII.self, capacity: budget) { found -> Result in
            // 1. Find, check and decode the non-ASCII sequences.
            var count = 0
            defer { found.baseAddress!.deinitialize(count: count) }
            var index = nextNonASCII(in: utf8, from: 0)
            while index < utf8.count {
                guard let nonASCII = decode(utf8, at: index) else { return .invalid }
                guard count < budget else { return .notSparse }
                (found.baseAddress! + count).initialize(to: nonASCII)
                count += 1
                index = nextNonASCII(in: utf8, from: index + nonASCII.length)
            }
            guard count > 0 else { return .notSparse }
            // 2. The text up to the first non-ASCII character, with room for all of it.
            let first = found[0].offset
            var text = String(unsafeUninitializedCapacity: utf8.count) { out in
                out.baseAddress!.initialize(from: base, count: first)
                return first
            }
            // 3. The rest, with an ASCII placeholder for each byte of a non-ASCII character.
            let rest = String(unsafeUninitializedCapacity: utf8.count - first) { out in
                out.baseAddress!.initialize(from: base + first, count: utf8.count - first)
                for nonASCII in found[..<count] {
                    (out.baseAddress! + nonASCII.offset - first).update(repeating: placeholder, count: nonASCII.length)
                }
                return utf8.count - first
            }
            // 4. Appended in place: the ASCII runs of `rest`, and each character decoded in step 1.
            let view = rest.utf8
            var offset = first
            for nonASCII in found[..<count] {
                if offset < nonASCII.offset {
                    let start = view.index(view.startIndex, offsetBy: offset - first)
                    text.append(contentsOf: rest[start..<view.index(start, offsetBy: nonASCII.offset - offset)])
                }
                text.unicodeScalars.append(nonASCII.scalar)
                offset = nonASCII.offset + nonASCII.length
            }
            if offset < utf8.count {
                text.append(contentsOf: rest[view.index(view.startIndex, offsetBy: offset - first)...])
            }
            assert(text.utf8.elementsEqual(utf8), "SparseUTF8 changed the text")
            return .string(text)
        }
    }

    static let placeholder = UInt8(ascii: "?")

    /// A checked non-ASCII sequence: where it starts, its length in bytes, its scalar.
    struct NonASCII {
        var offset: Int
        var length: Int
        var scalar: Unicode.Scalar
    }

    /// The offset of the first byte of 0x80 or above at or after `index`, or `utf8.count`.
    static func nextNonASCII(in utf8: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var i = index
        if let base = utf8.baseAddress {
            // Unaligned 8-byte loads, each entirely inside the buffer (`i + 8 <= count`).
            let raw = UnsafeRawPointer(base)
            while i &+ 8 <= utf8.count {
                let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) & 0x8080_8080_8080_8080
                if high != 0 { return i &+ high.trailingZeroBitCount &>> 3 }
                i &+= 8
            }
        }
        while i < utf8.count, utf8[i] < 0x80 { i += 1 }
        return i
    }

    /// The well-formed UTF-8 sequence (RFC 3629 §4) starting at `index`, whose byte is 0x80 or
    /// above; nil when it is not one (the parser's `checkUTF8` then names the problem).
    static func decode(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> NonASCII? {
        let lead = utf8[index]
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0: length = 3; value = 0; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xED: length = 3; value = 0x0D; high = 0x9F
        case 0xF0: length = 4; value = 0; low = 0x90
        case 0xF1...0xF3: length = 4; value = UInt32(lead & 0x07)
        case 0xF4: length = 4; value = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= utf8.count else { return nil }
        for k in 1..<length {
            let byte = utf8[index + k]
            guard byte >= low, byte <= high else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
            low = 0x80; high = 0xBF
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return NonASCII(offset: index, length: length, scalar: scalar)
    }
}
