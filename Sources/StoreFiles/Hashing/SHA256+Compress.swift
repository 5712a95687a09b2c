/// The SHA-256 block function, FIPS 180-4 §6.2.2, written for speed: a backup hashes every byte
/// of the store, and this loop was 58 % of a backup's instructions when it kept the message
/// schedule in an `Array` (bounds checks, a heap buffer) and assembled words byte by byte.
///
/// What makes it fast, and why it is still exactly §6.2.2:
/// - The 16 message words are loaded as big-endian `UInt32`s straight from the caller's bytes
///   (one unaligned load and a byte swap each).
/// - The schedule W is a rolling window of 16 local variables: W(t) for t ≥ 16 only needs
///   W(t-2), W(t-7), W(t-15) and W(t-16), which are the slots t+14, t+9, t+1 and t (mod 16).
/// - The 64 rounds are written out, with the round constants K(t) as literals: no loop, no
///   table look-up, no bounds check.
/// - The eight working variables are not shifted every round: each round is written with its
///   arguments rotated instead (the usual "renaming" unroll), so a round only updates d and h.
extension SHA256 {
    /// Hashes `blocks` consecutive 64-byte blocks starting at `start` into `state`.
    ///
    /// The caller guarantees that `start ..< start + 64 * blocks` is readable; nothing else is
    /// read. Loads are unaligned (`loadUnaligned`), so any byte address is fine.
    static func compress(_ start: UnsafeRawPointer, blocks: Int, into state: inout State) {
        if Accelerated.isAvailable {
            Accelerated.compress(start, blocks: blocks, into: &state)
        } else {
            compressPortable(start, blocks: blocks, into: &state)
        }
    }

    /// `compress` in Swift, on every processor (the one `Accelerated` is checked against).
    package static func compressPortable(_ start: UnsafeRawPointer, blocks: Int, into state: inout State) {
        var a = state.h0, b = state.h1, c = state.h2, d = state.h3
        var e = state.h4, f = state.h5, g = state.h6, h = state.h7
        var block = start
        for _ in 0..<blocks {
            var w0 = word(block, 0), w1 = word(block, 1), w2 = word(block, 2), w3 = word(block, 3)
            var w4 = word(block, 4), w5 = word(block, 5), w6 = word(block, 6), w7 = word(block, 7)
            var w8 = word(block, 8), w9 = word(block, 9), w10 = word(block, 10), w11 = word(block, 11)
            var w12 = word(block, 12), w13 = word(block, 13), w14 = word(block, 14), w15 = word(block, 15)
            let (a0, b0, c0, d0, e0, f0, g0, h0) = (a, b, c, d, e, f, g, h)
            // Rounds 0…63 with K(t) of §4.2.2 as literals (in order: the first 32 bits of the
            // fractional parts of the cube roots of the first 64 primes). From round 16 on, W(t)
            // replaces W(t-16) in slot t mod 16 just before its round.
            round(a, b, c, &d, e, f, g, &h, 0x428a_2f98 &+ w0)
            round(h, a, b, &c, d, e, f, &g, 0x7137_4491 &+ w1)
            round(g, h, a, &b, c, d, e, &f, 0xb5c0_fbcf &+ w2)
            round(f, g, h, &a, b, c, d, &e, 0xe9b5_dba5 &+ w3)
            round(e, f, g, &h, a, b, c, &d, 0x3956_c25b &+ w4)
            round(d, e, f, &g, h, a, b, &c, 0x59f1_11f1 &+ w5)
            round(c, d, e, &f, g, h, a, &b, 0x923f_82a4 &+ w6)
            round(b, c, d, &e, f, g, h, &a, 0xab1c_5ed5 &+ w7)
            round(a, b, c, &d, e, f, g, &h, 0xd807_aa98 &+ w8)
            round(h, a, b, &c, d, e, f, &g, 0x1283_5b01 &+ w9)
            round(g, h, a, &b, c, d, e, &f, 0x2431_85be &+ w10)
            round(f, g, h, &a, b, c, d, &e, 0x550c_7dc3 &+ w11)
            round(e, f, g, &h, a, b, c, &d, 0x72be_5d74 &+ w12)
            round(d, e, f, &g, h, a, b, &c, 0x80de_b1fe &+ w13)
            round(c, d, e, &f, g, h, a, &b, 0x9bdc_06a7 &+ w14)
            round(b, c, d, &e, f, g, h, &a, 0xc19b_f174 &+ w15)
            expand(&w0, w14, w9, w1); round(a, b, c, &d, e, f, g, &h, 0xe49b_69c1 &+ w0)
            expand(&w1, w15, w10, w2); round(h, a, b, &c, d, e, f, &g, 0xefbe_4786 &+ w1)
            expand(&w2, w0, w11, w3); round(g, h, a, &b, c, d, e, &f, 0x0fc1_9dc6 &+ w2)
            expand(&w3, w1, w12, w4); round(f, g, h, &a, b, c, d, &e, 0x240c_a1cc &+ w3)
            expand(&w4, w2, w13, w5); round(e, f, g, &h, a, b, c, &d, 0x2de9_2c6f &+ w4)
            expand(&w5, w3, w14, w6); round(d, e, f, &g, h, a, b, &c, 0x4a74_84aa &+ w5)
            expand(&w6, w4, w15, w7); round(c, d, e, &f, g, h, a, &b, 0x5cb0_a9dc &+ w6)
            expand(&w7, w5, w0, w8); round(b, c, d, &e, f, g, h, &a, 0x76f9_88da &+ w7)
            expand(&w8, w6, w1, w9); round(a, b, c, &d, e, f, g, &h, 0x983e_5152 &+ w8)
            expand(&w9, w7, w2, w10); round(h, a, b, &c, d, e, f, &g, 0xa831_c66d &+ w9)
            expand(&w10, w8, w3, w11); round(g, h, a, &b, c, d, e, &f, 0xb003_27c8 &+ w10)
            expand(&w11, w9, w4, w12); round(f, g, h, &a, b, c, d, &e, 0xbf59_7fc7 &+ w11)
            expand(&w12, w10, w5, w13); round(e, f, g, &h, a, b, c, &d, 0xc6e0_0bf3 &+ w12)
            expand(&w13, w11, w6, w14); round(d, e, f, &g, h, a, b, &c, 0xd5a7_9147 &+ w13)
            expand(&w14, w12, w7, w15); round(c, d, e, &f, g, h, a, &b, 0x06ca_6351 &+ w14)
            expand(&w15, w13, w8, w0); round(b, c, d, &e, f, g, h, &a, 0x1429_2967 &+ w15)
            expand(&w0, w14, w9, w1); round(a, b, c, &d, e, f, g, &h, 0x27b7_0a85 &+ w0)
            expand(&w1, w15, w10, w2); round(h, a, b, &c, d, e, f, &g, 0x2e1b_2138 &+ w1)
            expand(&w2, w0, w11, w3); round(g, h, a, &b, c, d, e, &f, 0x4d2c_6dfc &+ w2)
            expand(&w3, w1, w12, w4); round(f, g, h, &a, b, c, d, &e, 0x5338_0d13 &+ w3)
            expand(&w4, w2, w13, w5); round(e, f, g, &h, a, b, c, &d, 0x650a_7354 &+ w4)
            expand(&w5, w3, w14, w6); round(d, e, f, &g, h, a, b, &c, 0x766a_0abb &+ w5)
            expand(&w6, w4, w15, w7); round(c, d, e, &f, g, h, a, &b, 0x81c2_c92e &+ w6)
            expand(&w7, w5, w0, w8); round(b, c, d, &e, f, g, h, &a, 0x9272_2c85 &+ w7)
            expand(&w8, w6, w1, w9); round(a, b, c, &d, e, f, g, &h, 0xa2bf_e8a1 &+ w8)
            expand(&w9, w7, w2, w10); round(h, a, b, &c, d, e, f, &g, 0xa81a_664b &+ w9)
            expand(&w10, w8, w3, w11); round(g, h, a, &b, c, d, e, &f, 0xc24b_8b70 &+ w10)
            expand(&w11, w9, w4, w12); round(f, g, h, &a, b, c, d, &e, 0xc76c_51a3 &+ w11)
            expand(&w12, w10, w5, w13); round(e, f, g, &h, a, b, c, &d, 0xd192_e819 &+ w12)
            expand(&w13, w11, w6, w14); round(d, e, f, &g, h, a, b, &c, 0xd699_0624 &+ w13)
            expand(&w14, w12, w7, w15); round(c, d, e, &f, g, h, a, &b, 0xf40e_3585 &+ w14)
            expand(&w15, w13, w8, w0); round(b, c, d, &e, f, g, h, &a, 0x106a_a070 &+ w15)
            expand(&w0, w14, w9, w1); round(a, b, c, &d, e, f, g, &h, 0x19a4_c116 &+ w0)
            expand(&w1, w15, w10, w2); round(h, a, b, &c, d, e, f, &g, 0x1e37_6c08 &+ w1)
            expand(&w2, w0, w11, w3); round(g, h, a, &b, c, d, e, &f, 0x2748_774c &+ w2)
            expand(&w3, w1, w12, w4); round(f, g, h, &a, b, c, d, &e, 0x34b0_bcb5 &+ w3)
            expand(&w4, w2, w13, w5); round(e, f, g, &h, a, b, c, &d, 0x391c_0cb3 &+ w4)
            expand(&w5, w3, w14, w6); round(d, e, f, &g, h, a, b, &c, 0x4ed8_aa4a &+ w5)
            expand(&w6, w4, w15, w7); round(c, d, e, &f, g, h, a, &b, 0x5b9c_ca4f &+ w6)
            expand(&w7, w5, w0, w8); round(b, c, d, &e, f, g, h, &a, 0x682e_6ff3 &+ w7)
            expand(&w8, w6, w1, w9); round(a, b, c, &d, e, f, g, &h, 0x748f_82ee &+ w8)
            expand(&w9, w7, w2, w10); round(h, a, b, &c, d, e, f, &g, 0x78a5_636f &+ w9)
            expand(&w10, w8, w3, w11); round(g, h, a, &b, c, d, e, &f, 0x84c8_7814 &+ w10)
            expand(&w11, w9, w4, w12); round(f, g, h, &a, b, c, d, &e, 0x8cc7_0208 &+ w11)
            expand(&w12, w10, w5, w13); round(e, f, g, &h, a, b, c, &d, 0x90be_fffa &+ w12)
            expand(&w13, w11, w6, w14); round(d, e, f, &g, h, a, b, &c, 0xa450_6ceb &+ w13)
            expand(&w14, w12, w7, w15); round(c, d, e, &f, g, h, a, &b, 0xbef9_a3f7 &+ w14)
            expand(&w15, w13, w8, w0); round(b, c, d, &e, f, g, h, &a, 0xc671_78f2 &+ w15)
            a &+= a0; b &+= b0; c &+= c0; d &+= d0
            e &+= e0; f &+= f0; g &+= g0; h &+= h0
            block += 64
        }
        state = State(h0: a, h1: b, h2: c, h3: d, h4: e, h5: f, h6: g, h7: h)
    }

    /// Message word `index` (0…15) of the block at `block`, read big-endian (FIPS 180-4 §3.1).
    @inline(__always)
    private static func word(_ block: UnsafeRawPointer, _ index: Int) -> UInt32 {
        UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
    }

    /// One round of §6.2.2 step 3 on the renamed variables: T1 = h + Σ1(e) + Ch(e, f, g) + K(t) + W(t),
    /// T2 = Σ0(a) + Maj(a, b, c); then d += T1 and h = T1 + T2. After the round the caller's
    /// (h, a, b, c, d, e, f, g) are the standard's new (a, b, c, d, e, f, g, h).
    ///
    /// The same functions as §4.1.2, factored to need fewer instructions:
    /// Σ1(e) = ROTR⁶(ROTR⁵(ROTR¹⁴(e) ⊕ e) ⊕ e) = ROTR⁶(e) ⊕ ROTR¹¹(e) ⊕ ROTR²⁵(e), and likewise
    /// Σ0(a) = ROTR²(ROTR¹¹(ROTR⁹(a) ⊕ a) ⊕ a); Ch(e, f, g) = g ⊕ (e ∧ (f ⊕ g));
    /// Maj(a, b, c) = b ⊕ ((a ⊕ b) ∧ (b ⊕ c)), where b ⊕ c is the previous round's a ⊕ b (the
    /// compiler reuses it).
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
        _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32
    ) {
        let sigma1 = rotr(rotr(rotr(e, 14) ^ e, 5) ^ e, 6)
        let choose = g ^ (e & (f ^ g))
        let t1 = h &+ sigma1 &+ choose &+ kw
        let sigma0 = rotr(rotr(rotr(a, 9) ^ a, 11) ^ a, 2)
        let majority = b ^ ((a ^ b) & (b ^ c))
        d &+= t1
        h = t1 &+ sigma0 &+ majority
    }

    /// One step of the message schedule: `w` (W(t-16)) becomes W(t), given W(t-2), W(t-7), W(t-15).
    /// σ0(x) = ROTR⁷(x) ⊕ ROTR¹⁸(x) ⊕ SHR³(x) and σ1(x) = ROTR¹⁷(x) ⊕ ROTR¹⁹(x) ⊕ SHR¹⁰(x), §4.1.2.
    @inline(__always)
    private static func expand(_ w: inout UInt32, _ w2: UInt32, _ w7: UInt32, _ w15: UInt32) {
        let s0 = rotr(rotr(w15, 11) ^ w15, 7) ^ (w15 >> 3)
        let s1 = rotr(rotr(w2, 2) ^ w2, 17) ^ (w2 >> 10)
        w = w &+ s1 &+ w7 &+ s0
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
