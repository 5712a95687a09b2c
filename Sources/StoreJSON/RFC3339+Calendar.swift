// Calendar arithmetic and scanning for RFC3339, proleptic Gregorian calendar.
// days(fromCivil:) and civil(fromDays:) follow Howard Hinnant, "chrono-Compatible Low-Level
// Date Algorithms" (https://howardhinnant.github.io/date_algorithms.html).

extension RFC3339 {
    /// Days from 1970-01-01 to the given date.
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Quotient rounded toward negative infinity, and the non-negative remainder.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// Reads fixed-width fields left to right.
    struct DigitCursor {
        let text: UnsafeBufferPointer<UInt8>
        var index = 0

        var atEnd: Bool { index == text.count }

        /// Consumes `character` if it is next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < text.count, text[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        func digit(at position: Int) -> Int64? {
            guard position < text.count, text[position] >= UInt8(ascii: "0"), text[position] <= UInt8(ascii: "9") else {
                return nil
            }
            return Int64(text[position] - UInt8(ascii: "0"))
        }

        /// Consumes exactly `width` digits.
        mutating func number(_ width: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<width {
                guard let d = digit(at: index) else { return nil }
                value = value * 10 + d
                index += 1
            }
            return value
        }

        /// Consumes one or more fraction digits; returns the first three as milliseconds.
        mutating func fractionMilliseconds() -> Int64? {
            var value: Int64 = 0
            var count = 0
            while let d = digit(at: index) {
                if count < 3 { value = value * 10 + d }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { value *= 10 }
            return value
        }
    }
}
