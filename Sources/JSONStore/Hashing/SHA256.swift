/// SHA-256 as specified in FIPS 180-4 (§4.1.2 functions, §4.2.2 constants, §5.1.1 padding,
/// §5.3.3 initial value, §6.2.2 computation), written here because the package takes no
/// dependencies (CryptoKit and swift-crypto are not available on every platform it builds on).
///
/// Incremental: feed bytes in any number of `update` calls, then call `finalize` once.
/// Tested against the FIPS 180-4 / NIST example vectors and against `sha256sum(1)`.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Array("abc".utf8))
/// hasher.finalize().hexString  // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// SHA256.hex(of: Array("abc".utf8))  // the same, in one call
/// ```
public struct SHA256: Sendable {
    /// A finished hash: 32 bytes.
    public struct Digest: Sendable, Hashable, CustomStringConvertible {
        /// The 32 digest bytes, most significant first.
        public let bytes: [UInt8]

        /// 64 lowercase hexadecimal digits, as `sha256sum` prints them.
        public var hexString: String {
            let digits = Array("0123456789abcdef".utf8)
            var out: [UInt8] = []
            out.reserveCapacity(64)
            for byte in bytes {
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: out, as: UTF8.self)
        }

        public var description: String { hexString }
    }

    /// H(0), FIPS 180-4 §5.3.3.
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// Bytes not yet hashed: fewer than one 64-byte block.
    private var pending: [UInt8] = []
    /// Every byte fed so far.
    private var length: UInt64 = 0

    /// A hasher with nothing fed yet.
    public init() { pending.reserveCapacity(64) }

    /// Feeds more message bytes.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let take = min(64 - pending.count, rest.count)
            pending.append(contentsOf: rest.prefix(take))
            rest = rest.dropFirst(take)
            guard pending.count == 64 else { return }
            compress(pending[...])
            pending.removeAll(keepingCapacity: true)
        }
        var schedule = [UInt32](repeating: 0, count: 64)
        let whole = Array(rest)
        var offset = 0
        while whole.count - offset >= 64 {
            Self.compress(whole[offset ..< offset + 64], state: &state, schedule: &schedule)
            offset += 64
        }
        pending.append(contentsOf: whole[offset...])
    }

    /// Pads the message (FIPS 180-4 §5.1.1: a 1 bit, zeros, the bit length as 64 bits) and
    /// returns the digest. The hasher must not be used afterwards.
    public mutating func finalize() -> Digest {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var schedule = [UInt32](repeating: 0, count: 64)
        for start in stride(from: 0, to: tail.count, by: 64) {
            Self.compress(tail[start ..< start + 64], state: &state, schedule: &schedule)
        }
        pending.removeAll()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in state {
            bytes.append(contentsOf: [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                                      UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)])
        }
        return Digest(bytes: bytes)
    }

    /// The digest of `bytes` in one call.
    public static func hash(_ bytes: some Collection<UInt8>) -> Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex(of bytes: some Collection<UInt8>) -> String { hash(bytes).hexString }

    private mutating func compress(_ block: ArraySlice<UInt8>) {
        var schedule = [UInt32](repeating: 0, count: 64)
        Self.compress(block, state: &state, schedule: &schedule)
    }

    /// One block of FIPS 180-4 §6.2.2: the message schedule W, then 64 rounds, then the sum.
    private static func compress(_ block: ArraySlice<UInt8>, state: inout [UInt32], schedule w: inout [UInt32]) {
        precondition(block.count == 64, "SHA256.compress: a block is 64 bytes, got \(block.count)")
        let base = block.startIndex
        for t in 0 ..< 16 {
            let i = base + 4 * t
            w[t] = UInt32(block[i]) << 24 | UInt32(block[i + 1]) << 16 | UInt32(block[i + 2]) << 8 | UInt32(block[i + 3])
        }
        for t in 16 ..< 64 {
            let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        for t in 0 ..< 64 {
            let sigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choose = (e & f) ^ (~e & g)
            let t1 = h &+ sigma1 &+ choose &+ roundConstants[t] &+ w[t]
            let sigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = sigma0 &+ majority
            h = g; g = f; f = e; e = d &+ t1
            d = c; c = b; b = a; a = t1 &+ t2
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// K, FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the
    /// first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}
