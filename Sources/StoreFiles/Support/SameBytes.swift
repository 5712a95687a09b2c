import Foundation

/// True when `a` and `b` hold the same bytes. One `memcmp`: `Array.==` compares element by
/// element through generic code, about 7 instructions per byte (210,000 for the
/// 30 KB document of an update, more than the rest of the comparison-free update path).
package func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { x in
        b.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
    }
}
