import Foundation

/// The keys one decoder reads from one kind of object (a message, a work stream), so that
/// `ObjectReader` can sort an object's members into slots in one pass over them, instead of
/// hashing every key it asks for and remembering the keys asked in a growing array.
///
/// Matching follows `String`'s `==`, as a dictionary lookup does: a member whose key is
/// canonically equivalent to a name fills that name's slot.
///
///     static let readerKeys = ObjectKeys(["id", "role", "text"])
final class ObjectKeys: Sendable {
    /// The names, in the order the decoder asks for them (a lookup tries the slot after the
    /// last one asked first).
    let names: [String]
    /// Per name: its UTF-8 length, first byte and last byte, packed (see `signature`).
    private let signatures: [UInt32]
    /// The UTF-8 of all names, one after another; name `i` starts at `starts[i]`.
    private let utf8: [UInt8]
    private let starts: [Int]
    private let namesAreASCII: Bool
    /// The name whose signature hashes to each of 64 buckets (-1: none), with a multiplier
    /// chosen so that no two names share a bucket.
    private let buckets: [Int8]
    private let multiplier: UInt32

    /// The most names a table holds: a reader keeps one bit per slot.
    static let capacity = 64

    /// No names: every key asked for is looked up in the object's dictionary.
    static let none = ObjectKeys([])

    init(_ names: [String]) {
        precondition(names.count <= Self.capacity, "ObjectKeys holds at most \(Self.capacity) names")
        for (index, name) in names.enumerated() {
            precondition(!names[..<index].contains(name), "ObjectKeys: '\(name)' is listed twice")
            precondition(!name.isEmpty && name.utf8.count < 0x10000, "ObjectKeys: bad name '\(name)'")
        }
        self.names = names
        var utf8: [UInt8] = []
        var starts: [Int] = []
        for name in names {
            starts.append(utf8.count)
            utf8.append(contentsOf: name.utf8)
        }
        self.utf8 = utf8
        self.starts = starts
        let signatures = names.map { name in name.utf8.withContiguousStorageIfAvailable(Self.signature) ?? 0 }
        self.signatures = signatures
        namesAreASCII = utf8.allSatisfy { $0 < 0x80 }
        // Odd multipliers are tried in turn until no two names share a bucket. Names with equal
        // signatures always share one; then (or after 1,000 tries) lookups scan all names.
        var chosen: (multiplier: UInt32, buckets: [Int8])?
        for attempt in 0..<1000 where chosen == nil {
            let multiplier = 0x9E37_79B1 &+ UInt32(attempt) &* 2
            var buckets = [Int8](repeating: -1, count: 64)
            var clash = false
            for (index, signature) in signatures.enumerated() {
                let bucket = Int((signature &* multiplier) >> 26)
                if buckets[bucket] >= 0 { clash = true; break }
                buckets[bucket] = Int8(index)
            }
            if !clash { chosen = (multiplier, buckets) }
        }
        multiplier = chosen?.multiplier ?? 0
        buckets = chosen?.buckets ?? []
    }

    /// Length (below 0x10000), first byte and last byte of non-empty UTF-8; 0 for empty.
    @inline(__always)
    private static func signature(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard let last = bytes.last, bytes.count < 0x10000 else { return 0 }
        return UInt32(bytes.count) | UInt32(bytes[0]) << 16 | UInt32(last) << 24
    }

    /// The slot of the name equal to `key` (`==`), or nil when no name is.
    func slot(of key: String) -> Int? {
        let found = key.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            let signature = Self.signature(bytes)
            if buckets.isEmpty {
                for index in signatures.indices where signatures[index] == signature && equalsName(index, bytes) {
                    return index
                }
            } else {
                let index = Int(buckets[Int((signature &* multiplier) >> 26)])
                if index >= 0, signatures[index] == signature, equalsName(index, bytes) { return index }
            }
            // Two ASCII strings are equal only when their bytes are: the key is no name.
            if namesAreASCII, !bytes.contains(where: { $0 >= 0x80 }) { return -1 }
            return -2
        }
        switch found {
        case -1: return nil
        case let index? where index >= 0: return index
        default: return names.firstIndex(of: key)   // not contiguous, or not ASCII: compare as Strings
        }
    }

    /// True when name `index` has the bytes `bytes`, of the same length (equal signatures).
    @inline(__always)
    private func equalsName(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.withUnsafeBufferPointer { names in
            memcmp(names.baseAddress! + starts[index], bytes.baseAddress!, bytes.count) == 0
        }
    }

    /// The slot of `key`, a key a decoder asks for, trying `guess` first; nil when it is not a name.
    @inline(__always)
    func slot(ofAsked key: String, guess: Int) -> Int? {
        if guess < names.count, names[guess] == key { return guess }
        return names.firstIndex(of: key)
    }
}
