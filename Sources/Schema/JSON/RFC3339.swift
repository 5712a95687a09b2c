import Foundation

// PLACEHOLDER: replaced by the real codec on branch json-codec.
public enum RFC3339 {
    /// Parses an RFC 3339 date-time: `2025-10-17T14:30:00.000Z`, without fraction, any number of
    /// fraction digits (kept to the millisecond, truncated), `Z`/`z` or a `±HH:MM` offset, `T`/`t`.
    public static func parse(_ text: String) -> Date? { fatalError("placeholder") }

    /// Formats in UTC with exactly three fraction digits: `2025-10-17T14:30:00.000Z`.
    public static func format(_ date: Date) -> String { fatalError("placeholder") }
}
