// Sixteen-bytes-at-a-time scanning of string content for JSONByteParser.
//
// Strings are most of a store's bytes (message texts), so finding the end of a run of plain
// string bytes is the parser's inner loop. With UTF-8 checked once and escapes decoded into a
// raw buffer, scanning sixteen bytes per step with SIMD compares instead of one byte per step
// cuts the parse of a generated store from 179 to 119 million instructions; eight-byte SWAR
// words reach 125 million.

extension JSONByteParser {
    /// The offset of the first byte at or after `index` that ends a run of plain string
    /// content: a quote, a backslash or a control character (below 0x20). `bytes.count` when
    /// there is none. Bytes of 0x80 and above are plain here (UTF-8 is checked when the string
    /// is made); `highBits` is or-ed with every byte of the run, and possibly with a few bytes
    /// after it, so its high bit is clear only when the whole run is ASCII.
    func endOfPlainRun(from index: Int, highBits: inout UInt8) -> Int {
        let count = bytes.count
        var i = index
        if let base = bytes.baseAddress, i &+ 16 <= count {
            // Unaligned 16-byte loads, each entirely inside the buffer (`i + 16 <= count`).
            // The constants are locals so that the compares compile to vector instructions.
            let raw = UnsafeRawPointer(base)
            let quotes = SIMD16<UInt8>(repeating: ASCII.quote)
            let backslashes = SIMD16<UInt8>(repeating: ASCII.backslash)
            let spaces = SIMD16<UInt8>(repeating: 0x20)
            var seen = SIMD16<UInt8>(repeating: 0)
            repeat {
                let chunk = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                seen |= chunk
                let stops = (chunk .== quotes) .| (chunk .== backslashes) .| (chunk .< spaces)
                if let lane = Self.firstLane(stops) {
                    highBits |= Self.highBits(seen)
                    return i &+ lane
                }
                i &+= 16
            } while i &+ 16 <= count
            highBits |= Self.highBits(seen)
        }
        while i < count {
            let b = bytes[i]
            if b == ASCII.quote || b == ASCII.backslash || b < 0x20 { return i }
            highBits |= b
            i += 1
        }
        return count
    }

    /// The index of the first true lane of `mask`, or nil when no lane is true.
    @inline(__always)
    static func firstLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Int? {
        // Lanes as bytes 0xFF / 0x00, read as two words (`any` and `max` reduce lane by lane).
        let lanes = SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: mask)
        let halves = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        guard halves[0] | halves[1] != 0 else { return nil }
        #if _endian(little)
        // Lane k is byte k of memory: bits 8k..8k+7 of its word.
        if halves[0] != 0 { return halves[0].trailingZeroBitCount &>> 3 }
        return 8 &+ halves[1].trailingZeroBitCount &>> 3
        #else
        return (0..<16).first { mask[$0] }
        #endif
    }

    /// 0x80 when a byte of `bytes` is 0x80 or above, else 0.
    @inline(__always)
    static func highBits(_ bytes: SIMD16<UInt8>) -> UInt8 {
        let halves = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
        return (halves[0] | halves[1]) & 0x8080_8080_8080_8080 == 0 ? 0 : 0x80
    }
}
