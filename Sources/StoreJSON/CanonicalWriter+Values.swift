import Foundation

// Values of the canonical writer: the spellings of JSONWriter and ObjectWriter, byte for byte.

extension CanonicalWriter {
    package mutating func bool(_ flag: Bool) { append(flag ? "true" : "false") }

    package mutating func null() { append("null") }

    /// An integer as `String(value)` spells it (the literal of `JSONNumber(value)`).
    package mutating func integer<I: FixedWidthInteger>(_ value: I) {
        var magnitude = UInt64(value.magnitude)
        var digits = 1
        var rest = magnitude
        while rest >= 10 { rest /= 10; digits += 1 }
        let sign = value < 0 ? 1 : 0
        let out = reserve(sign + digits)
        if sign == 1 { out[0] = UInt8(ascii: "-") }
        for position in stride(from: sign + digits - 1, through: sign, by: -1) {
            out[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
        advance(sign + digits)
    }

    /// A double as `JSONNumber(value)` spells it: Swift's shortest round-trip `description`.
    package mutating func double(_ value: Double) {
        precondition(value.isFinite, "JSON has no literal for \(value)")
        var text = value.description
        text.withUTF8 { append($0) }
    }

    /// A quoted lowercase UUID, as `UUID.lowercased`.
    package mutating func uuid(_ id: UUID) {
        let out = reserve(UUIDText.spelledCount + 2)
        out[0] = UInt8(ascii: "\"")
        UUIDText.write(id, to: UnsafeMutableBufferPointer(start: out + 1, count: UUIDText.spelledCount))
        out[UUIDText.spelledCount + 1] = UInt8(ascii: "\"")
        advance(UUIDText.spelledCount + 2)
    }

    /// A quoted RFC 3339 date, as `RFC3339.format`.
    package mutating func date(_ date: Date) {
        let milliseconds = RFC3339.roundedMilliseconds(date)
        let out = reserve(RFC3339.formattedCount + 2)
        out[0] = UInt8(ascii: "\"")
        RFC3339.write(milliseconds: milliseconds, to: UnsafeMutableBufferPointer(start: out + 1, count: RFC3339.formattedCount))
        out[RFC3339.formattedCount + 1] = UInt8(ascii: "\"")
        advance(RFC3339.formattedCount + 2)
    }

    /// A date, or `null` for nil (as `ObjectWriter.set(_:_: Date?)`).
    package mutating func date(_ date: Date?) {
        if let date { self.date(date) } else { null() }
    }

    /// Any value at the nesting level `level`, as `JSONWriter.write` writes it: scalars here,
    /// containers by `JSONWriter` itself.
    package mutating func value(_ value: JSONValue, level: Int) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number):
            var literal = number.literal
            literal.withUTF8 { append($0) }
        case .string(let text): string(text)
        case .array, .object:
            var bytes: [UInt8] = []
            JSONWriter.write(value, indentLevel: level, into: &bytes)
            append(bytes)
        }
    }

    /// `2 * level` spaces.
    package mutating func indent(_ level: Int) {
        var remaining = 2 * level
        while remaining > 0 {
            let count = min(remaining, JSONWriter.spaces.utf8CodeUnitCount)
            append(UnsafeBufferPointer(start: JSONWriter.spaces.utf8Start, count: count))
            remaining -= count
        }
    }

    /// An array of `count` elements at nesting level `level`, element `i` written by
    /// `element(&writer, i)` at level `level + 1`; `[]` when empty.
    package mutating func array(count: Int, level: Int, _ element: (inout CanonicalWriter, Int) -> Void) {
        guard count > 0 else { return append("[]") }
        append(UInt8(ascii: "["))
        for index in 0..<count {
            append(index == 0 ? "\n" : ",\n")
            indent(level + 1)
            element(&self, index)
        }
        append(UInt8(ascii: "\n"))
        indent(level)
        append(UInt8(ascii: "]"))
    }
}
