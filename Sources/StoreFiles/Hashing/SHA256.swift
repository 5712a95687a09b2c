/// SHA-256 as specified in FIPS 180-4 (§4.1.2 functions, §4.2.2 constants, §5.1.1 padding,
/// §5.3.3 initial value, §6.2.2 computation), written here because the package takes no
/// dependencies (CryptoKit and swift-crypto are not available on every platform it builds on).
///
/// Incremental: feed bytes in any number of `update` calls, then call `finalize` once.
/// Tested against the FIPS 180-4 / NIST example vectors and against `sha256sum(1)`.
///
/// Whole blocks are hashed straight from the caller's contiguous bytes (see
/// `SHA256+Compress.swift`); only a partial block at the end of an `update` is copied, into a
/// fixed 64-byte buffer inside the hasher.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Array("abc".utf8))
/// hasher.finalize().hexString  // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// SHA256.hex(of: Array("abc".utf8))  // the same, in one call
/// ```
package struct SHA256: Sendable {
    /// A finished hash: 32 bytes.
    package struct Digest: Sendable, Hashable, CustomStringConvertible {
        /// The 32 digest bytes, most significant first.
        package let bytes: [UInt8]

        /// 64 lowercase hexadecimal digits, as `sha256sum` prints them.
        package var hexString: String {
            let digits: StaticString = "0123456789abcdef"
            return String(unsafeUninitializedCapacity: 2 * bytes.count) { out in
                digits.withUTF8Buffer { digit in
                    for (index, byte) in bytes.enumerated() {
                        out[2 * index] = digit[Int(byte >> 4)]
                        out[2 * index + 1] = digit[Int(byte & 0x0F)]
                    }
                }
                return 2 * bytes.count
            }
        }

        package var description: String { hexString }
    }

    /// The chaining value H, FIPS 180-4 §6.2.2; starts at H(0), §5.3.3.
    private var state = State.initial
    /// Bytes not yet hashed (the first `pendingCount` of these 64): always fewer than one block.
    private var pending = Block()
    private var pendingCount = 0
    /// Every byte fed so far.
    private var length: UInt64 = 0

    /// A hasher with nothing fed yet.
    package init() {}

    /// Feeds more message bytes. Contiguous collections (arrays, slices, `Data`) are read in place.
    package mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// Feeds the bytes of `raw`.
    package mutating func update(_ raw: UnsafeRawBufferPointer) {
        guard var start = raw.baseAddress, !raw.isEmpty else { return }
        var count = raw.count
        length &+= UInt64(count)
        if pendingCount > 0 {
            let take = min(64 - pendingCount, count)
            pending.store(start, count: take, at: pendingCount)
            pendingCount += take
            start += take
            count -= take
            guard pendingCount == 64 else { return }
            pending.compress(into: &state)
            pendingCount = 0
        }
        let whole = count / 64
        if whole > 0 {
            Self.compress(start, blocks: whole, into: &state)
            start += 64 * whole
            count -= 64 * whole
        }
        if count > 0 {
            pending.store(start, count: count, at: 0)
            pendingCount = count
        }
    }

    /// Pads the message (FIPS 180-4 §5.1.1: a 1 bit, zeros, the bit length as 64 bits) and
    /// returns the digest. The hasher must not be used afterwards.
    package mutating func finalize() -> Digest {
        let bitLength = length &* 8
        pending.fill(0x80, from: pendingCount, to: pendingCount + 1)
        if pendingCount + 1 > 56 {  // no room for the length: pad this block, the length goes in a next one
            pending.fill(0, from: pendingCount + 1, to: 64)
            pending.compress(into: &state)
            pending.fill(0, from: 0, to: 56)
        } else {
            pending.fill(0, from: pendingCount + 1, to: 56)
        }
        pending.storeBigEndian(bitLength, at: 56)
        pending.compress(into: &state)
        pendingCount = 0
        return Digest(bytes: state.bigEndianBytes)
    }

    /// The digest of `bytes` in one call.
    package static func hash(_ bytes: some Collection<UInt8>) -> Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    package static func hex(of bytes: some Collection<UInt8>) -> String { hash(bytes).hexString }
}

extension SHA256 {
    /// The eight working words of the chaining value, as plain stored properties (no array:
    /// no bounds checks, no heap allocation, and the compiler can keep them in registers).
    package struct State: Sendable {
        var h0, h1, h2, h3, h4, h5, h6, h7: UInt32

        package init(h0: UInt32, h1: UInt32, h2: UInt32, h3: UInt32, h4: UInt32, h5: UInt32, h6: UInt32, h7: UInt32) {
            (self.h0, self.h1, self.h2, self.h3) = (h0, h1, h2, h3)
            (self.h4, self.h5, self.h6, self.h7) = (h4, h5, h6, h7)
        }

        /// H(0), FIPS 180-4 §5.3.3.
        static let initial = State(
            h0: 0x6a09_e667, h1: 0xbb67_ae85, h2: 0x3c6e_f372, h3: 0xa54f_f53a,
            h4: 0x510e_527f, h5: 0x9b05_688c, h6: 0x1f83_d9ab, h7: 0x5be0_cd19)

        /// The digest: the words most significant byte first, H0 to H7.
        package var bigEndianBytes: [UInt8] {
            [h0, h1, h2, h3, h4, h5, h6, h7].flatMap { word in
                [
                    UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
                    UInt8(truncatingIfNeeded: word),
                ]
            }
        }
    }

    /// One 64-byte block held inside the hasher (a fixed-size tuple, no heap allocation): the
    /// partial block between `update` calls, and the padding in `finalize`.
    struct Block: Sendable {
        private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

        /// Copies `count` bytes from `source` to offset `offset`; the range must lie within the block.
        mutating func store(_ source: UnsafeRawPointer, count: Int, at offset: Int) {
            precondition(offset >= 0 && count >= 0 && offset + count <= 64, "SHA256.Block: \(count) bytes at \(offset) exceed 64")
            withUnsafeMutableBytes(of: &words) { block in
                (block.baseAddress! + offset).copyMemory(from: source, byteCount: count)
            }
        }

        /// Sets bytes `from ..< to` to `value`.
        mutating func fill(_ value: UInt8, from: Int, to: Int) {
            precondition(from >= 0 && from <= to && to <= 64, "SHA256.Block: fill \(from)..<\(to) exceeds 64")
            withUnsafeMutableBytes(of: &words) { block in
                for index in from..<to { block[index] = value }
            }
        }

        /// Writes `value` most significant byte first at `offset ..< offset + 8`.
        mutating func storeBigEndian(_ value: UInt64, at offset: Int) {
            precondition(offset >= 0 && offset + 8 <= 64, "SHA256.Block: 8 bytes at \(offset) exceed 64")
            withUnsafeMutableBytes(of: &words) { block in
                block.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt64.self)
            }
        }

        /// Hashes the whole block into `state`.
        func compress(into state: inout State) {
            withUnsafeBytes(of: words) { block in
                SHA256.compress(block.baseAddress!, blocks: 1, into: &state)
            }
        }
    }
}
