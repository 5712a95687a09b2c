import Foundation

// Writing RFC3339 dates straight into bytes, for the canonical writer (no `String` per date).

extension RFC3339 {
    /// The length of every formatted date: `2025-10-17T14:30:00.000Z`.
    package static let formattedCount = 24

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

    /// Writes the canonical form of `milliseconds` since 1970 (within ``representable``, so the
    /// year has four digits) into the first ``formattedCount`` bytes of `buffer`.
    package static func write(milliseconds: Int64, to buffer: UnsafeMutableBufferPointer<UInt8>) {
        precondition(
            buffer.count >= formattedCount && representable.contains(milliseconds),
            "RFC3339.write: \(milliseconds) ms is outside the years 0000–9999, or the buffer is short")
        let (days, msOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        /// Writes `value` (0...99) as two digits at `position`, from a table of the pairs 00–99.
        func pair(_ value: Int64, at position: Int) {
            let digits = twoDigits.utf8Start + 2 * Int(value)
            buffer[position] = digits[0]
            buffer[position + 1] = digits[1]
        }
        /// Writes `value` (0...99) as two digits ending just before `end`, then `separator` at `end`.
        func put(_ value: Int64, endingAt end: Int, _ separator: Unicode.Scalar) {
            pair(value, at: end - 2)
            buffer[end] = UInt8(ascii: separator)
        }
        pair(year / 100, at: 0)
        put(year % 100, endingAt: 4, "-")
        put(month, endingAt: 7, "-")
        put(day, endingAt: 10, "T")
        put(msOfDay / 3_600_000, endingAt: 13, ":")
        put(msOfDay / 60_000 % 60, endingAt: 16, ":")
        put(msOfDay / 1000 % 60, endingAt: 19, ".")
        let millisecond = msOfDay % 1000
        buffer[20] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: millisecond / 100)
        put(millisecond % 100, endingAt: 23, "Z")
    }

    /// "00", "01", … "99": two digits per table entry.
    private static let twoDigits: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
}
