// A fast path for the one form the store writes, `2025-10-17T14:30:00.000Z`: every message
// has two dates, and the general reader (`milliseconds(from:)`) steps through each field.

import Foundation

extension RFC3339 {
    /// The instant of `text` when it is exactly in the canonical form (24 bytes, `T`, three
    /// fraction digits, `Z`) and valid; nil otherwise, including for every other form that
    /// `parse(_:)` accepts. For canonical text the two agree: same fields, same checks.
    package static func canonicalDate(_ text: String) -> Date? {
        guard let ms = text.utf8.withContiguousStorageIfAvailable(canonicalMilliseconds) ?? nil else { return nil }
        return date(milliseconds: ms)
    }

    /// Milliseconds since 1970 of canonical text, or nil.
    package static func canonicalMilliseconds(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard text.count == 24, let p = text.baseAddress, p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-"),
            p[10] == UInt8(ascii: "T"), p[13] == UInt8(ascii: ":"), p[16] == UInt8(ascii: ":"),
            p[19] == UInt8(ascii: "."), p[23] == UInt8(ascii: "Z")
        else { return nil }
        /// The two digits at `index`, or nil.
        func two(_ index: Int) -> Int64? {
            let high = p[index] &- UInt8(ascii: "0"), low = p[index + 1] &- UInt8(ascii: "0")
            guard high < 10, low < 10 else { return nil }
            return Int64(high) * 10 + Int64(low)
        }
        let last = p[22] &- UInt8(ascii: "0")
        guard let century = two(0), let yearOfCentury = two(2), let month = two(5), let day = two(8),
            let hour = two(11), let minute = two(14), let second = two(17), let centiseconds = two(20), last < 10
        else { return nil }
        let year = century * 100 + yearOfCentury
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let seconds = days(fromCivil: year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second
        let ms = seconds * 1000 + centiseconds * 10 + Int64(last)
        return representable.contains(ms) ? ms : nil
    }
}
