import Foundation
import StoreJSON

/// Reading Core Data's column values into the store's types, reporting every value that is not
/// what the attribute's type allows (`CoreDataFindings`) with what was taken instead.
struct CoreDataValues {
    let row: SQLiteRow
    /// The time of the import, taken for a required date that is empty.
    let now: Date

    /// Milliseconds since 1970 of 0000-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z: the dates RFC 3339 writes.
    static let writable: ClosedRange<Double> = -62_167_219_200_000...253_402_300_799_999

    /// A 16-byte UUID blob (Core Data's `UUID` attribute), or its 36-character text.
    func uuid(_ column: Int32) -> UUID? {
        if row.type(column) == SQLiteLibrary.typeText { return row.text(column).flatMap(UUID.init(uuidString:)) }
        guard let bytes = row.blob(column), bytes.count == 16 else { return nil }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// A Core Data date (seconds since 2001-01-01 00:00 UTC), or nil for NULL. A value outside what
    /// RFC 3339 can write is reported and read as nil.
    func date(_ column: Int32, _ name: String, _ findings: inout CoreDataFindings) -> Date? {
        guard let seconds = row.double(column) else { return nil }
        let milliseconds = (seconds * 1000).rounded() + 978_307_200_000
        guard seconds.isFinite, CoreDataValues.writable.contains(milliseconds) else {
            findings.add(.outOfRange, "\(name) is \(seconds) seconds since 2001, outside the years 0000–9999; taken as empty")
            return nil
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// A required date: an empty one becomes the import's time, reported.
    func requiredDate(_ column: Int32, _ name: String, _ findings: inout CoreDataFindings) -> Date {
        if let date = date(column, name, &findings) { return date }
        findings.add(.missingDate, "\(name) is empty; set to the time of the import, \(RFC3339.format(now))")
        return now
    }

    func string(_ column: Int32, _ name: String, default value: String, _ findings: inout CoreDataFindings) -> String {
        if let text = row.text(column) { return text }
        findings.add(.missingValue, "\(name) is empty; taken as \(value.isEmpty ? "\"\"" : "'\(value)'")")
        return value
    }

    func bool(_ column: Int32, _ name: String, _ findings: inout CoreDataFindings) -> Bool {
        guard let value = row.int64(column) else {
            findings.add(.missingValue, "\(name) is empty; taken as false")
            return false
        }
        if value != 0 && value != 1 { findings.add(.outOfRange, "\(name) is \(value), not 0 or 1; taken as true") }
        return value != 0
    }

    func int32(_ column: Int32, _ name: String, in range: ClosedRange<Int32>, default value: Int32, _ findings: inout CoreDataFindings) -> Int32 {
        guard let raw = row.int64(column) else {
            findings.add(.missingValue, "\(name) is empty; taken as \(value)")
            return value
        }
        let clamped = min(max(raw, Int64(range.lowerBound)), Int64(range.upperBound))
        if clamped != raw { findings.add(.outOfRange, "\(name) is \(raw), outside \(range.lowerBound)…\(range.upperBound); taken as \(clamped)") }
        return Int32(clamped)
    }

    /// A counter (int64 ≥ 0): a negative value becomes 0, reported.
    func counter(_ column: Int32, _ name: String, _ findings: inout CoreDataFindings) -> Int64 {
        guard let raw = row.int64(column) else {
            findings.add(.missingValue, "\(name) is empty; taken as 0")
            return 0
        }
        if raw < 0 { findings.add(.outOfRange, "\(name) is \(raw), below 0; taken as 0") }
        return max(raw, 0)
    }

    func double(_ column: Int32, _ name: String, _ findings: inout CoreDataFindings) -> Double {
        guard let raw = row.double(column) else {
            findings.add(.missingValue, "\(name) is empty; taken as 0")
            return 0
        }
        if !raw.isFinite { findings.add(.outOfRange, "\(name) is \(raw), which JSON can't hold; taken as 0") }
        return raw.isFinite ? raw : 0
    }
}
