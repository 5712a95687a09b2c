import Foundation

// Writing RFC3339 dates straight into bytes, for the canonical writer (no `String` per date).

extension RFC3339 {
    /// The length of every formatted date: `2025-10-17T14:30:00.000Z`.
    static let formattedCount = 24

    /// The instant rounded to the nearest millisecond, as milliseconds since 1970.
    ///
    /// - Precondition: `date` lies within years 0000–9999; RFC 3339 has no form for others.
    static func roundedMilliseconds(_ date: Date) -> Int64 {
        let interval = date.timeIntervalSinceReferenceDate
        let rounded = (interval * 1000).rounded()
        let lower = Double(representable.lowerBound - referenceDateMilliseconds)
        let upper = Double(representable.upperBound - referenceDateMilliseconds)
        precondition(rounded >= lower && rounded <= upper, "RFC3339.format: \(date) is outside the years 0000–9999")
        return Int64(rounded) + referenceDateMilliseconds
    }

    /// Appends the canonical form of `date` (see ``format(_:)``), without quotes.
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        let milliseconds = roundedMilliseconds(date)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: formattedCount) { buffer in
            write(milliseconds: milliseconds, to: buffer)
            bytes.append(contentsOf: UnsafeBufferPointer(buffer))
        }
    }

    /// Writes the canonical form of `milliseconds` since 1970 (within ``representable``, so the
    /// year has four digits) into the first ``formattedCount`` bytes of `buffer`.
    static func write(milliseconds: Int64, to buffer: UnsafeMutableBufferPointer<UInt8>) {
        precondition(buffer.count >= formattedCount && representable.contains(milliseconds),
                     "RFC3339.write: \(milliseconds) ms is outside the years 0000–9999, or the buffer is short")
        let (days, msOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        /// Writes `value` as `width` decimal digits ending just before `end`, then `separator` at `end`.
        func put(_ value: Int64, _ width: Int, endingAt end: Int, _ separator: Unicode.Scalar) {
            var rest = value
            for position in stride(from: end - 1, through: end - width, by: -1) {
                buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            buffer[end] = UInt8(ascii: separator)
        }
        put(year, 4, endingAt: 4, "-")
        put(month, 2, endingAt: 7, "-")
        put(day, 2, endingAt: 10, "T")
        put(msOfDay / 3_600_000, 2, endingAt: 13, ":")
        put(msOfDay / 60_000 % 60, 2, endingAt: 16, ":")
        put(msOfDay / 1000 % 60, 2, endingAt: 19, ".")
        put(msOfDay % 1000, 3, endingAt: 23, "Z")
    }
}
