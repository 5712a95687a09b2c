// Decoding the 32 hex digits of a UUID eight at a time (SWAR: one 64-bit word holds eight
// ASCII digits). A byte-by-byte loop is about 500 instructions per UUID, and a message has
// two.

import Foundation

extension UUIDText {
    /// The UUID spelled `8-4-4-4-12` hex digits, either case, in exactly 36 bytes; nil otherwise.
    static func parseHex(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36, let base = text.baseAddress else { return nil }
        let dash = UInt8(ascii: "-")
        guard base[8] == dash, base[13] == dash, base[18] == dash, base[23] == dash else { return nil }
        // Unaligned loads at fixed offsets below 36: 8 bytes at 0 and 28, 4 bytes at 9, 14, 19, 24.
        let raw = UnsafeRawPointer(base)
        func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        func half(_ offset: Int) -> UInt64 { UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        guard let a = decode8(word(0)), let b = decode8(half(9) | half(14) << 32),
            let c = decode8(half(19) | half(24) << 32), let d = decode8(word(28))
        else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { out in
            out.storeBytes(of: a.littleEndian, toByteOffset: 0, as: UInt32.self)
            out.storeBytes(of: b.littleEndian, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: c.littleEndian, toByteOffset: 8, as: UInt32.self)
            out.storeBytes(of: d.littleEndian, toByteOffset: 12, as: UInt32.self)
        }
        return UUID(uuid: uuid)
    }

    /// The four bytes spelled by eight ASCII hex digits (the first digit in the low byte of
    /// `digits`), first byte in the low byte of the result; nil when a byte is not a hex digit.
    ///
    /// Per byte `c` below 0x80: `c + (0x80 - lo)` has its high bit set when `c >= lo`, and
    /// `c + (0x7F - hi)` when `c > hi`; neither sum carries into the next byte. A digit's value
    /// is `c & 0xF`, plus 9 for a letter (bit 6 set: `A`-`F` and `a`-`f`).
    @inline(__always)
    static func decode8(_ digits: UInt64) -> UInt32? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        guard digits & high == 0 else { return nil }
        func inRange(_ v: UInt64, _ lo: UInt64, _ hi: UInt64) -> UInt64 {
            (v &+ ones &* (0x80 &- lo)) & ~(v &+ ones &* (0x7F &- hi)) & high
        }
        let isDigit = inRange(digits, 0x30, 0x39)
        let isLetter = inRange(digits | ones &* 0x20, 0x61, 0x66)
        guard isDigit | isLetter == high else { return nil }
        let nibbles = (digits & 0x0F0F_0F0F_0F0F_0F0F) &+ ((digits >> 6) & ones) &* 9
        // Pairs of nibbles into bytes, then the four bytes together.
        let bytes = (nibbles << 4 | nibbles >> 8) & 0x00FF_00FF_00FF_00FF
        let pairs = (bytes | bytes >> 8) & 0x0000_FFFF_0000_FFFF
        return UInt32(truncatingIfNeeded: pairs | pairs >> 16)
    }
}
