import Foundation

/// Writes canonical JSON (STORE-FORMAT.md §2) straight into bytes, for documents whose keys are
/// known in advance: no `JSONValue` tree, no dictionary per object, no sort per object.
///
/// A model lists its keys once in a ``KeyLayout`` (sorted by UTF-8 bytes when the layout is
/// built, with each member line's leading bytes precomputed), then writes its members in that
/// order. The object's unknown keys are merged in at their sorted places and their values written
/// with `JSONWriter`, so the bytes are exactly those of `JSONWriter.document(model.json)`; the
/// tests compare the two over generated stores, the samples and random models.
///
/// ```swift
/// var w = CanonicalWriter(capacity: 256)
/// var object = w.openObject(Self.layout, unknown: unknown)
/// for member in Self.layout.members {
///     w.member(member, of: &object)
///     switch member.field { case .id: w.uuid(id) /* … */ }
/// }
/// w.close(&object)
/// ```
struct CanonicalWriter {
    var bytes: [UInt8]

    /// - Parameter capacity: The expected size in bytes; a good estimate avoids regrowing.
    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The finished document: the bytes written so far and the final newline.
    consuming func document() -> [UInt8] {
        bytes.append(0x0A)
        return bytes
    }

    // MARK: Scalars

    mutating func string(_ text: String) { JSONWriter.writeString(text, into: &bytes) }

    mutating func bool(_ flag: Bool) { ascii(flag ? "true" : "false") }

    mutating func null() { ascii("null") }

    /// An integer as `String(value)` spells it (the literal of `JSONNumber(value)`).
    mutating func integer<I: FixedWidthInteger>(_ value: I) {
        // Digits are made right to left in a 20-byte stack buffer: UInt64.max has 20 digits.
        var magnitude = UInt64(value.magnitude)
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A double as `JSONNumber(value)` spells it: Swift's shortest round-trip `description`.
    mutating func double(_ value: Double) {
        precondition(value.isFinite, "JSON has no literal for \(value)")
        bytes.append(contentsOf: value.description.utf8)
    }

    /// A quoted lowercase UUID, as `UUID.lowercased`.
    mutating func uuid(_ id: UUID) {
        bytes.append(UInt8(ascii: "\""))
        UUIDText.append(id, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A quoted RFC 3339 date, as `RFC3339.format`.
    mutating func date(_ date: Date) {
        bytes.append(UInt8(ascii: "\""))
        RFC3339.append(date, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A date, or `null` for nil (as `ObjectWriter.set(_:_: Date?)`).
    mutating func date(_ date: Date?) {
        if let date { self.date(date) } else { null() }
    }

    /// Any value, with `JSONWriter`, at the nesting level `level`.
    mutating func value(_ value: JSONValue, level: Int) {
        JSONWriter.write(value, indentLevel: level, into: &bytes)
    }

    private mutating func ascii(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    // MARK: Arrays

    /// An array at nesting level `level`, each element written by `element` at level `level + 1`;
    /// `[]` when empty.
    mutating func array<C: Collection>(_ elements: C, level: Int, _ element: (inout CanonicalWriter, C.Element) -> Void) {
        guard !elements.isEmpty else { return ascii("[]") }
        bytes.append(UInt8(ascii: "["))
        var first = true
        for item in elements {
            if first { first = false } else { bytes.append(UInt8(ascii: ",")) }
            bytes.append(0x0A)
            JSONWriter.indent(level + 1, into: &bytes)
            element(&self, item)
        }
        bytes.append(0x0A)
        JSONWriter.indent(level, into: &bytes)
        bytes.append(UInt8(ascii: "]"))
    }
}
