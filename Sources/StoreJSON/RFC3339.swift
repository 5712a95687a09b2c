import Foundation

/// Reads and writes the store's dates: RFC 3339 date-times (STORE-FORMAT.md §2).
///
/// Written in UTC with exactly three fraction digits (`2025-10-17T14:30:00.000Z`); read
/// with or without a fraction and with any offset. Done by hand with days-from-civil
/// arithmetic (proleptic Gregorian calendar): `DateFormatter` is slow and, on some
/// Foundation versions, drops the milliseconds.
///
/// ```swift
/// let date = RFC3339.parse("2025-10-17T16:30:00.250+02:00")!
/// RFC3339.format(date) // "2025-10-17T14:30:00.250Z"
/// ```
package enum RFC3339 {
    /// Milliseconds from 1970-01-01 to 2001-01-01, `Date`'s reference date.
    static let referenceDateMilliseconds: Int64 = 978_307_200_000
    /// First and last millisecond of years 0000 through 9999, relative to 1970.
    static let representable: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999

    /// Parses an RFC 3339 date-time: `2025-10-17T14:30:00.000Z`, without fraction, any number of
    /// fraction digits (kept to the millisecond, truncated), `Z`/`z` or a `±HH:MM` offset, `T`/`t`.
    ///
    /// The form is `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with years 0000–9999. Fields are
    /// range-checked, including the length of February in leap years; a leap second (`:60`),
    /// spaces, a missing seconds field and a missing offset are rejected. Extra fraction digits
    /// are dropped, which moves the instant toward the past, also before 1970. The instant,
    /// once converted to UTC, must also fall within years 0000–9999 so that ``format(_:)`` can
    /// write it: `0000-01-01T00:30:00+01:00` is rejected.
    ///
    /// - Parameter text: The date-time string.
    /// - Returns: The instant, or nil when `text` is not a valid RFC 3339 date-time.
    package static func parse(_ text: String) -> Date? {
        let utf8 = text.utf8
        let ms =
            utf8.withContiguousStorageIfAvailable(milliseconds(from:))
            ?? Array(utf8).withUnsafeBufferPointer(milliseconds(from:))
        guard let ms else { return nil }
        return date(milliseconds: ms)
    }

    /// Formats in UTC with exactly three fraction digits: `2025-10-17T14:30:00.000Z`.
    ///
    /// The instant is rounded to the nearest millisecond, so a date made by ``parse(_:)``
    /// formats back to the same millisecond despite `Double` representation noise.
    ///
    /// - Parameter date: An instant in the years 0000 through 9999 (UTC).
    /// - Returns: The canonical string.
    /// - Precondition: `date` lies within years 0000–9999; RFC 3339 has no form for others.
    package static func format(_ date: Date) -> String {
        format(milliseconds: roundedMilliseconds(date))
    }

    /// The `Date` for milliseconds since 1970, with one rounding step only.
    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(milliseconds - referenceDateMilliseconds) / 1000)
    }

    /// Formats milliseconds since 1970 (within ``representable``).
    static func format(milliseconds: Int64) -> String {
        String(unsafeUninitializedCapacity: formattedCount) { buffer in
            write(milliseconds: milliseconds, to: buffer)
            return formattedCount
        }
    }

    /// Milliseconds since 1970 for an RFC 3339 date-time, or nil when it is not one.
    static func milliseconds(from text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var cursor = DigitCursor(text: text)
        guard let year = cursor.number(4), cursor.skip("-"), let month = cursor.number(2), cursor.skip("-"),
            let day = cursor.number(2), cursor.skip("T") || cursor.skip("t"),
            let hour = cursor.number(2), cursor.skip(":"), let minute = cursor.number(2), cursor.skip(":"),
            let second = cursor.number(2)
        else { return nil }
        var millisecond: Int64 = 0
        if cursor.skip(".") {
            guard let fraction = cursor.fractionMilliseconds() else { return nil }
            millisecond = fraction
        }
        var offsetMinutes: Int64 = 0
        if !(cursor.skip("Z") || cursor.skip("z")) {
            let sign: Int64 = cursor.skip("+") ? 1 : cursor.skip("-") ? -1 : 0
            guard sign != 0, let offsetHour = cursor.number(2), cursor.skip(":"), let offsetMinute = cursor.number(2),
                offsetHour <= 23, offsetMinute <= 59
            else { return nil }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        }
        guard cursor.atEnd, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let seconds = days(fromCivil: year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second
        let ms = seconds * 1000 + millisecond - offsetMinutes * 60_000
        return representable.contains(ms) ? ms : nil
    }
}
