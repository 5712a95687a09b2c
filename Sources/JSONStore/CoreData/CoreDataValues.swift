import Foundation
import StoreJSON

/// Reading Core Data's column values into the store's types by their SQLite storage class
/// (`sqlite3_column_type`), never by SQLite's coercion (which reads '12abc' as 12, 'yesterday' as
/// 0 and 1e30 as Int64.max). Every value that is not what its attribute's type allows is
/// reported by row and column (`CoreDataFindings`) with what was taken instead, or refused:
///
/// - A date (REAL or INTEGER seconds since 2001) stored as text or a blob: no date can be read
///   from it honestly, but the rest of the row is sound. An optional date is taken as empty; a
///   required one as the time of the import, like an empty one (`wrong_type`).
/// - An integer stored as a fraction (3.7), a number beyond 64 bits (1e30), text or a blob: taken
///   as the attribute's default (`wrong_type`). Rounding or reading leading digits would invent a
///   number; the defaults are the app's own "not known yet" values (counts are recounted on the
///   next sync, a `nextSeq` or `seq` of 0 means "from the start"). A whole REAL is taken as is.
/// - A boolean stored as text or a blob ('yes'): refused (`.invalidDocument`, exit 65). It decides
///   whether the work stream is queued, deleted or shown, 'yes' reads as true to a person and 0 to
///   SQLite, and either guess changes what the user sees; fix the row in a copy and import that.
/// - Text that is not UTF-8 (or a blob or number where text belongs): each invalid byte sequence
///   becomes U+FFFD (`invalid_text`) and the rest of the user's words are kept.
struct CoreDataValues {
    let row: SQLiteRow
    /// The time of the import, taken for a required date that is empty.
    let now: Date

    /// Milliseconds since 1970 of 0000-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z: the dates RFC 3339 writes.
    static let writable: ClosedRange<Double> = -62_167_219_200_000...253_402_300_799_999

    /// A 16-byte UUID blob (Core Data's `UUID` attribute), or its 36-character text.
    func uuid(_ column: Int32) -> UUID? {
        if row.type(column) == SQLiteLibrary.typeText { return row.text(column).flatMap(UUID.init(uuidString:)) }
        guard row.type(column) == SQLiteLibrary.typeBlob, let bytes = row.blob(column), bytes.count == 16 else { return nil }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// The stored value as the report shows it: `the text 'yes'`, `the number 3.7`, `a blob of 4 bytes`.
    func shown(_ column: Int32) -> String {
        switch row.type(column) {
        case SQLiteLibrary.typeText:
            let text = String(decoding: row.textBytes(column) ?? [], as: UTF8.self)
            return "the text '\(text.count > 40 ? String(text.prefix(40)) + "…" : text)'"
        case SQLiteLibrary.typeBlob: return "a blob of \(row.blob(column)?.count ?? 0) bytes"
        case SQLiteLibrary.typeFloat: return "the number \(row.double(column) ?? 0)"
        default: return "the number \(row.int64(column) ?? 0)"
        }
    }

    private var isNumber: (Int32) -> Bool {
        { [row] in row.type($0) == SQLiteLibrary.typeInteger || row.type($0) == SQLiteLibrary.typeFloat }
    }

    /// A Core Data date (seconds since 2001-01-01 00:00 UTC), or nil for NULL, text or a blob
    /// (reported) and for a value outside what RFC 3339 can write (reported).
    func date(_ column: Int32, _ name: String, _ findings: inout CoreDataFindings, required: Bool = false) -> Date? {
        if row.isNull(column) { return nil }
        guard isNumber(column), let seconds = row.double(column) else {
            findings.add(
                .wrongType,
                "\(name) is \(shown(column)), not a date; taken as empty"
                    + (required ? ", so set to the time of the import, \(RFC3339.format(now))" : ""))
            return nil
        }
        let milliseconds = (seconds * 1000).rounded() + 978_307_200_000
        guard seconds.isFinite, CoreDataValues.writable.contains(milliseconds) else {
            findings.add(.outOfRange, "\(name) is \(seconds) seconds since 2001, outside the years 0000–9999; taken as empty")
            return nil
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// A required date: an empty one becomes the import's time, reported.
    func requiredDate(_ column: Int32, _ name: String, _ findings: inout CoreDataFindings) -> Date {
        let wasNull = row.isNull(column)
        if let date = date(column, name, &findings, required: true) { return date }
        if wasNull { findings.add(.missingDate, "\(name) is empty; set to the time of the import, \(RFC3339.format(now))") }
        return now
    }

    /// Text, its invalid UTF-8 replaced by U+FFFD (reported); `value` when NULL (reported).
    func string(_ column: Int32, _ name: String, default value: String, _ findings: inout CoreDataFindings) -> String {
        guard let text = optionalString(column, name, &findings) else {
            findings.add(.missingValue, "\(name) is empty; taken as \(value.isEmpty ? "\"\"" : "'\(value)'")")
            return value
        }
        return text
    }

    /// Text or nil for NULL; a number or blob is taken as its text, and invalid UTF-8 replaced, both reported.
    func optionalString(_ column: Int32, _ name: String, _ findings: inout CoreDataFindings) -> String? {
        let type = row.type(column)
        guard type != SQLiteLibrary.typeNull else { return nil }
        let bytes = (type == SQLiteLibrary.typeBlob ? row.blob(column) : row.textBytes(column)) ?? []
        if type != SQLiteLibrary.typeText { findings.add(.wrongType, "\(name) is \(shown(column)), not text; taken as its bytes read as UTF-8 text") }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let text = String(decoding: bytes, as: UTF8.self)
        findings.add(
            .invalidText,
            "\(name) holds bytes that are not UTF-8 (\(bytes.count) bytes in all); each invalid sequence "
                + "taken as U+FFFD, the rest as it is")
        return text
    }

    /// 0 or 1; another integer is true (reported); NULL is false (reported).
    ///
    /// - Throws: `.invalidDocument` for text, a blob or a fraction, which has no honest truth value.
    func bool(_ column: Int32, _ name: String, _ findings: inout CoreDataFindings) throws(StoreError) -> Bool {
        guard !row.isNull(column) else {
            findings.add(.missingValue, "\(name) is empty; taken as false")
            return false
        }
        guard let value = integer(column) else {
            let file = findings.source
            throw StoreError(
                .invalidDocument,
                "Can't import '\(file)': \(findings.table) Z_PK \(findings.primaryKey)"
                    + "\(findings.id.map { " (id \($0))" } ?? ""): \(name) is \(shown(column)), not 0 or 1 (false or true). "
                    + "Whether it means true or false decides what the app shows, so it is not guessed: correct the row in a "
                    + "copy of the file and import the copy. Nothing was written.", path: file)
        }
        if value != 0 && value != 1 { findings.add(.outOfRange, "\(name) is \(value), not 0 or 1; taken as true") }
        return value != 0
    }

    /// An INTEGER, or a REAL that is a whole number within 64 bits; nil for anything else.
    private func integer(_ column: Int32) -> Int64? {
        switch row.type(column) {
        case SQLiteLibrary.typeInteger: return row.int64(column)
        case SQLiteLibrary.typeFloat:
            guard let x = row.double(column), x.rounded() == x, x >= -9.223_372_036_854_775_808e18, x < 9.223_372_036_854_775_808e18 else { return nil }
            return Int64(x)
        default: return nil
        }
    }

    /// An integer, or nil with the finding said: empty (NULL) or not an integer.
    private func integer(_ column: Int32, _ name: String, default value: String, _ findings: inout CoreDataFindings) -> Int64? {
        if row.isNull(column) {
            findings.add(.missingValue, "\(name) is empty; taken as \(value)")
            return nil
        }
        guard let raw = integer(column) else {
            findings.add(.wrongType, "\(name) is \(shown(column)), not an integer; taken as \(value)")
            return nil
        }
        return raw
    }

    func int32(_ column: Int32, _ name: String, in range: ClosedRange<Int32>, default value: Int32, _ findings: inout CoreDataFindings) -> Int32 {
        guard let raw = integer(column, name, default: "\(value)", &findings) else { return value }
        let clamped = min(max(raw, Int64(range.lowerBound)), Int64(range.upperBound))
        if clamped != raw { findings.add(.outOfRange, "\(name) is \(raw), outside \(range.lowerBound)…\(range.upperBound); taken as \(clamped)") }
        return Int32(clamped)
    }

    /// A counter (int64 ≥ 0): a negative value becomes 0, reported.
    func counter(_ column: Int32, _ name: String, _ findings: inout CoreDataFindings) -> Int64 {
        guard let raw = integer(column, name, default: "0", &findings) else { return 0 }
        if raw < 0 { findings.add(.outOfRange, "\(name) is \(raw), below 0; taken as 0") }
        return max(raw, 0)
    }

    func double(_ column: Int32, _ name: String, _ findings: inout CoreDataFindings) -> Double {
        if row.isNull(column) {
            findings.add(.missingValue, "\(name) is empty; taken as 0")
            return 0
        }
        guard isNumber(column), let raw = row.double(column) else {
            findings.add(.wrongType, "\(name) is \(shown(column)), not a number; taken as 0")
            return 0
        }
        if !raw.isFinite { findings.add(.outOfRange, "\(name) is \(raw), which JSON can't hold; taken as 0") }
        return raw.isFinite ? raw : 0
    }
}
