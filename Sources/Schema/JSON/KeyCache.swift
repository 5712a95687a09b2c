import Foundation

/// The object keys a parser has made recently, so that a key that repeats (every message of
/// a work stream has the same dozen keys) is made into a `String` once per document.
///
/// Making a key cost about 300 instructions (and an allocation for keys over 15 bytes, such
/// as `server_timestamp`); a hit here is a hash of four numbers and a `memcmp`. The cache is
/// direct-mapped: a key that collides replaces the entry, which only costs a miss later.
/// Only ASCII keys of at most `maximumLength` bytes without escapes are cached, so an entry's
/// bytes are exactly its string's UTF-8.
final class KeyCache {
    static let slotCount = 128
    static let maximumLength = 32

    /// `slotCount` rows of `maximumLength` bytes: the UTF-8 of each entry's key.
    private let bytes: UnsafeMutablePointer<UInt8>
    /// Each entry's length in bytes, -1 for an empty slot.
    private let lengths: UnsafeMutablePointer<Int>
    /// Each entry's string (`""` for an empty slot). Raw storage, like the others: a class's
    /// `var` array is checked for exclusive access on every use (`swift_beginAccess`).
    private let strings: UnsafeMutablePointer<String>

    init() {
        bytes = .allocate(capacity: Self.slotCount * Self.maximumLength)
        bytes.initialize(repeating: 0, count: Self.slotCount * Self.maximumLength)
        lengths = .allocate(capacity: Self.slotCount)
        lengths.initialize(repeating: -1, count: Self.slotCount)
        strings = .allocate(capacity: Self.slotCount)
        strings.initialize(repeating: "", count: Self.slotCount)
    }

    deinit {
        bytes.deallocate()
        lengths.deallocate()
        strings.deinitialize(count: Self.slotCount)
        strings.deallocate()
    }

    /// The string for `utf8`, which must be ASCII, 1 to `maximumLength` bytes long.
    @inline(__always)
    func key(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        let count = utf8.count
        let start = utf8.baseAddress!
        let hash = count &* 29 &+ Int(start[0]) &* 7 &+ Int(start[count &- 1]) &* 13 &+ Int(start[count &>> 1]) &* 3
        let slot = hash & (Self.slotCount - 1)
        let row = bytes + slot * Self.maximumLength
        if lengths[slot] == count, memcmp(row, start, count) == 0 { return strings[slot] }
        let key = String(decoding: utf8, as: UTF8.self)
        row.update(from: start, count: count)
        lengths[slot] = count
        strings[slot] = key
        return key
    }
}
