import Foundation

/// SplitMix64 (Steele, Lea, Flood 2014; the seeding generator of xoshiro): a small, fast,
/// seeded generator whose output is fixed by its definition, so a seed gives the same store on
/// every platform and Swift version. Public so that the tests draw from the same generator.
///
/// Bounded values are drawn with this type's own methods, never with the standard library's
/// `random(in:using:)`, whose algorithm is not part of its contract and may change.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator for one part of a store (`stream` = a work stream's index, `salt` = what for),
    /// independent of every other part, so each document can be made on its own.
    init(seed: UInt64, stream: UInt64, salt: UInt64) {
        var mixer = SeededGenerator(seed: seed ^ (salt &* 0xD6E8_FEB8_6659_FD93))
        _ = mixer.next()
        state = mixer.next() ^ (stream &* 0x9E37_79B9_7F4A_7C15)
        _ = next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (multiply-shift; the bias is below 2^-40 for the bounds used here).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "SeededGenerator.below: bound must be positive, got \(bound)")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A value in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// A value in [0, 1) with 53 random bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// One element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// A version-4 UUID made of generator bits (RFC 4122 §4.4 layout).
    mutating func uuid() -> UUID {
        let a = next(), b = next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(i))) }
        for i in 0..<8 { bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(i))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
