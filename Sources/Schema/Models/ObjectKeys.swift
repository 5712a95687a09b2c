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
    /// The indices of the names sorted by UTF-8 length: those of length `n` are
    /// `byLength[lengthStarts[n]..<lengthStarts[n + 1]]`, for `n` up to `longest`.
    private let byLength: [Int]
    private let lengthStarts: [Int]
    private let longest: Int
    private let namesAreASCII: Bool
    /// The UTF-8 of all names, one after another; name `i` starts at `starts[i]`.
    private let utf8: [UInt8]
    private let starts: [Int]

    /// The most names a table holds: a reader keeps one bit per slot.
    static let capacity = 64

    /// No names: every key asked for is looked up in the object's dictionary.
    static let none = ObjectKeys([])

    init(_ names: [String]) {
        precondition(names.count <= Self.capacity, "ObjectKeys holds at most \(Self.capacity) names")
        for (index, name) in names.enumerated() {
            precondition(!names[..<index].contains(name), "ObjectKeys: '\(name)' is listed twice")
        }
        self.names = names
        longest = names.map(\.utf8.count).max() ?? 0
        byLength = names.indices.sorted { (names[$0].utf8.count, $0) < (names[$1].utf8.count, $1) }
        lengthStarts = (0...longest + 1).map { length in names.filter { $0.utf8.count < length }.count }
        namesAreASCII = names.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
        utf8 = names.flatMap(\.utf8)
        starts = names.indices.map { index in names[..<index].map(\.utf8.count).reduce(0, +) }
    }

    /// The slot of the name equal to `key` (`==`), or nil when no name is.
    ///
    /// Only the names with as many UTF-8 bytes as `key` are compared: for a key of up to 15
    /// bytes with `==` (two equal small ASCII strings have the same bits, compared inline), for
    /// a longer one byte by byte. Strings of different lengths, or with different bytes, can
    /// still be canonically equivalent, but only when one of them is not ASCII: such a key is
    /// compared with every name by `==`.
    func slot(of key: String) -> Int? {
        let length = key.utf8.count
        guard length <= longest else { return slotComparingAll(key) }
        let candidates = lengthStarts[length]..<lengthStarts[length + 1]
        if length <= 15 {
            for position in candidates where names[byLength[position]] == key { return byLength[position] }
            return slotComparingAll(key)
        }
        let found = key.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            utf8.withUnsafeBufferPointer { names in
                for position in candidates {
                    let index = byLength[position]
                    if memcmp(names.baseAddress! + starts[index], bytes.baseAddress!, length) == 0 { return index }
                }
                return nil
            }
        }
        if let index = found ?? nil { return index }
        return slotComparingAll(key)
    }

    /// The slot of `key` when no name has its bytes: nil for an ASCII key if all names are
    /// ASCII, else the first name equal to it.
    private func slotComparingAll(_ key: String) -> Int? {
        if namesAreASCII {
            let ascii = key.utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains { $0 >= 0x80 } }
            if ascii ?? key.utf8.allSatisfy({ $0 < 0x80 }) { return nil }
        }
        return names.firstIndex(of: key)
    }

    /// The slot of `key`, a key a decoder asks for, trying `guess` first; nil when it is not a name.
    @inline(__always)
    func slot(ofAsked key: String, guess: Int) -> Int? {
        if guess < names.count, names[guess] == key { return guess }
        return names.firstIndex(of: key)
    }
}
