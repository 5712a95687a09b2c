/// Writes JSON values in the store's canonical form (STORE-FORMAT.md §2).
///
/// The canonical form is pretty-printed with two-space indentation, one array element or
/// object member per line, `"key": value`, keys sorted by their UTF-8 bytes, `[]` and `{}`
/// for empty containers, number literals exactly as kept, and strings with only the escapes
/// JSON requires (every string is written with its exact scalars, never normalized). The
/// same value always gives the same bytes, so documents diff cleanly.
///
/// ```swift
/// let bytes = JSONWriter.document(.object(["b": .null, "a": .array([])]))
/// // {\n  "a": [],\n  "b": null\n}\n
/// ```
public enum JSONWriter {
    /// The canonical document bytes for `value`, ending with `\n`.
    ///
    /// - Parameter value: The value to write; usually an object.
    /// - Returns: UTF-8 bytes ready to be written to a file.
    public static func document(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(value, indentLevel: 0, into: &out)
        out.append(0x0A)
        return out
    }

    /// Appends the canonical form of `value` to `out`, for embedding in a larger document.
    ///
    /// The value starts at the current position of `out` (no indentation is written before
    /// it). Lines inside a container are indented by `2 * (indentLevel + 1)` spaces, and its
    /// closing bracket by `2 * indentLevel` spaces. No final newline is written.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - indentLevel: The nesting level the value sits at; 0 for a top-level value.
    ///   - out: The buffer to append to.
    public static func write(_ value: JSONValue, indentLevel: Int, into out: inout [UInt8]) {
        // Open containers live on this explicit stack, not the call stack, so the depth of a
        // value costs heap only (a recursive writer overflowed a 512 KB thread in debug builds).
        var open: [OpenContainer] = []
        var next = value
        while true {
            if let container = writeScalarOrOpen(next, into: &out) { open.append(container) }
            // Find the next value to write, closing the containers that are done.
            while let top = open.indices.last, open[top].next == open[top].values.count {
                out.append(0x0A)
                indent(indentLevel + top, into: &out)
                out.append(open[top].keys == nil ? UInt8(ascii: "]") : UInt8(ascii: "}"))
                open.removeLast()
            }
            guard let top = open.indices.last else { return }
            let index = open[top].next
            out.append(contentsOf: index == 0 ? "\n".utf8 : ",\n".utf8)
            indent(indentLevel + top + 1, into: &out)
            if let keys = open[top].keys {
                writeString(keys[index], into: &out)
                out.append(contentsOf: ": ".utf8)
            }
            next = open[top].values[index]
            open[top].next += 1
        }
    }

    /// An array or object being written: its elements (members in key order) and the next one.
    struct OpenContainer {
        var keys: [String]?
        var values: [JSONValue]
        var next = 0
    }

    /// Writes a scalar or an empty container whole; writes the opening bracket of any other
    /// container and returns it for the caller to fill.
    static func writeScalarOrOpen(_ value: JSONValue, into out: inout [UInt8]) -> OpenContainer? {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .number(let number): out.append(contentsOf: number.literal.utf8)
        case .string(let text): writeString(text, into: &out)
        case .array(let elements) where elements.isEmpty: out.append(contentsOf: "[]".utf8)
        case .object(let members) where members.isEmpty: out.append(contentsOf: "{}".utf8)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            return OpenContainer(keys: nil, values: elements)
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let sorted = members.sorted { utf8Precedes($0.key, $1.key) }
            return OpenContainer(keys: sorted.map(\.key), values: sorted.map(\.value))
        }
        return nil
    }

    /// Byte-wise order of the UTF-8 encodings (which is also Unicode scalar order).
    /// `String`'s own `<` compares canonically equivalent forms as equal, which is not a total
    /// order on bytes, so it is not used.
    static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Appends `2 * level` spaces, copied from a constant run of spaces (one `memcpy` for the
    /// usual depths instead of a generic `repeatElement` append).
    @inline(__always)
    static func indent(_ level: Int, into out: inout [UInt8]) {
        var remaining = 2 * level
        while remaining > 0 {
            let count = min(remaining, spaces.utf8CodeUnitCount)
            out.append(contentsOf: UnsafeBufferPointer(start: spaces.utf8Start, count: count))
            remaining -= count
        }
    }

    /// 64 spaces: the indentation of 32 levels in one copy.
    private static let spaces: StaticString = "                                                                "

    /// Writes `text` quoted. Escapes `"`, `\` and the C0 controls (`\b \f \n \r \t`, else
    /// `\u00xx` in lowercase hex); every other scalar, `/` and U+2028 included, is raw UTF-8.
    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text // withUTF8 is mutating; it copies only a non-contiguous (bridged) string.
        text.withUTF8 { utf8 in
            // Copy the runs between escapes whole; most strings are a single run.
            var runStart = 0
            var index = 0
            while let next = nextEscape(in: utf8, from: index) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<next]))
                appendEscaped(utf8[next], into: &out)
                runStart = next + 1
                index = next + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The index of the first byte at or after `start` that needs an escape, or nil.
    ///
    /// Eight bytes at a time: a word is loaded (unaligned, only while `start + 8 <= count`, so
    /// never past the buffer) and tested for any byte < 0x20, == `"` or == `\` with the
    /// "has less / has zero byte" bit tricks (Hacker's Delight 6-1; Anderson, Bit Twiddling
    /// Hacks). Each test is exact for the word as a whole; a word that has a hit is then
    /// scanned byte by byte, so the exact index comes from the plain test.
    @inline(__always)
    static func nextEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = utf8.baseAddress else { return nil }
        let count = utf8.count
        var index = start
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
            let control = (word &- ones &* 0x20) & ~word
            let hits = (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs
            if hits != 0 { break }
            index += 8
        }
        while index < count {
            if needsEscape(base[index]) { return index }
            index += 1
        }
        return nil
    }

    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    static func appendEscaped(_ byte: UInt8, into out: inout [UInt8]) {
        let escape: UInt8
        switch byte {
        case UInt8(ascii: "\""): escape = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
        case 0x08: escape = UInt8(ascii: "b")
        case 0x0C: escape = UInt8(ascii: "f")
        case 0x0A: escape = UInt8(ascii: "n")
        case 0x0D: escape = UInt8(ascii: "r")
        case 0x09: escape = UInt8(ascii: "t")
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: "\\u00".utf8)
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
            return
        default:
            preconditionFailure("byte 0x\(String(byte, radix: 16)) needs no escape")
        }
        out.append(UInt8(ascii: "\\"))
        out.append(escape)
    }
}
