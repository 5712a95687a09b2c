import Foundation

/// The object keys a parser has made recently, so that a key that repeats (every message of
/// a work stream has the same dozen keys) is made into a `String` once per document, and is
/// recognised in the input without scanning it first.
///
/// Making a key cost about 300 instructions (and an allocation for keys over 15 bytes, such
/// as `server_timestamp`); a hit here is one 8-byte load, a hash and a `memcmp`. The cache is
/// direct-mapped on the key's first eight bytes: a key that collides replaces the entry,
/// which only costs a miss later. Only ASCII keys of 1 to `maximumLength` bytes without
/// escapes are cached, so an entry's bytes are exactly its string's UTF-8, and contain no
/// quote, backslash or control character.
final class KeyCache {
    static let slotCount = 128
    static let maximumLength = 32

    /// Made by the first key (a parser that meets no object key allocates nothing), as one
    /// block: `slotCount` lengths, `slotCount` strings, then `slotCount` rows of
    /// `maximumLength` bytes. Raw storage: a class's `var` array is checked for exclusive
    /// access on every use (`swift_beginAccess`).
    ///
    /// Each entry's length in bytes, 0 for an empty slot.
    private var lengths: UnsafeMutablePointer<Int>?
    /// Each entry's string, initialized exactly where `lengths[slot]` is not 0.
    private var strings: UnsafeMutablePointer<String>?
    /// The UTF-8 of each entry's key: the first `lengths[slot]` bytes of its row.
    private var bytes: UnsafeMutablePointer<UInt8>?

    deinit {
        guard let lengths, let strings else { return }
        for slot in 0..<Self.slotCount where lengths[slot] != 0 { (strings + slot).deinitialize(count: 1) }
        UnsafeMutableRawPointer(lengths).deallocate()
    }

    /// Allocates the block (see `lengths`).
    private func allocate() {
        let stringsOffset = Self.slotCount * MemoryLayout<Int>.stride
        let bytesOffset = stringsOffset + Self.slotCount * MemoryLayout<String>.stride
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: bytesOffset + Self.slotCount * Self.maximumLength,
            alignment: max(MemoryLayout<Int>.alignment, MemoryLayout<String>.alignment))
        lengths = block.initializeMemory(as: Int.self, repeating: 0, count: Self.slotCount)
        strings = (block + stringsOffset).bindMemory(to: String.self, capacity: Self.slotCount)
        bytes = (block + bytesOffset).bindMemory(to: UInt8.self, capacity: Self.slotCount * Self.maximumLength)
    }

    /// The slot of a key whose first `min(length, 8)` bytes, zero-extended, are `prefix`.
    @inline(__always)
    private static func slot(prefix: UInt64) -> Int {
        Int(truncatingIfNeeded: (prefix &* 0x9E37_79B9_7F4A_7C15) >> 57)  // the top 7 bits: 128 slots
    }

    /// The first `min(utf8.count, 8)` bytes of `utf8` as a little-endian word, zero-extended.
    @inline(__always)
    private static func prefix(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var word: UInt64 = 0
        for index in 0..<min(utf8.count, 8) { word |= UInt64(utf8[index]) << (8 * UInt64(index)) }
        return word
    }

    /// The cached key that starts at `start` in `input` (just after its opening quote) and the
    /// offset of its closing quote; nil when the key there is not in the cache.
    ///
    /// A hit needs the input bytes to equal an entry's and a quote right after them. Entries
    /// hold no quote, backslash or control character, so that quote closes the key and the
    /// key is exactly the entry.
    @inline(__always)
    func cachedKey(in input: UnsafeBufferPointer<UInt8>, at start: Int) -> (key: String, end: Int)? {
        guard let lengths, let strings, let bytes else { return nil }
        guard start >= 0, start + 8 <= input.count, let base = input.baseAddress else { return nil }
        // An unaligned 8-byte load entirely inside the input (`start + 8 <= count`).
        let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
        // The high bit of each byte that is a quote, exactly: `(b & 0x7F) + 0x7F` stays below
        // 0x100, and has its high bit set, or-ed with `b`, exactly when `b` is not zero.
        let notQuote = word ^ 0x2222_2222_2222_2222
        let quotes = ~(((notQuote & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | notQuote) & 0x8080_8080_8080_8080
        let slot: Int
        if quotes != 0 {
            // A key shorter than 8 bytes: its bytes are those before the first quote.
            let length = quotes.trailingZeroBitCount >> 3
            guard length > 0 else { return nil }
            slot = Self.slot(prefix: word & (UInt64.max >> (64 - 8 * UInt64(length))))
            guard lengths[slot] == length else { return nil }
        } else {
            slot = Self.slot(prefix: word)
            guard lengths[slot] >= 8 else { return nil }
        }
        let length = lengths[slot]
        guard start + length < input.count, base[start + length] == ASCII.quote,
            memcmp(bytes + slot * Self.maximumLength, base + start, length) == 0
        else { return nil }
        return (strings[slot], start + length)
    }

    /// The string for `utf8`, which must be ASCII without quote, backslash or control
    /// character, 1 to `maximumLength` bytes long; cached for `cachedKey`.
    @inline(__always)
    func key(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        if lengths == nil { allocate() }
        guard let lengths, let strings, let bytes else { preconditionFailure("KeyCache: no storage") }
        let count = utf8.count
        let start = utf8.baseAddress!
        let slot = Self.slot(prefix: Self.prefix(utf8))
        let row = bytes + slot * Self.maximumLength
        if lengths[slot] == count, memcmp(row, start, count) == 0 { return strings[slot] }
        let key = String(decoding: utf8, as: UTF8.self)
        row.initialize(from: start, count: count)
        if lengths[slot] == 0 { (strings + slot).initialize(to: key) } else { strings[slot] = key }
        lengths[slot] = count
        return key
    }
}
