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
package enum JSONWriter {
    /// The canonical document bytes for `value`, ending with `\n`.
    ///
    /// - Parameter value: The value to write; usually an object.
    /// - Returns: UTF-8 bytes ready to be written to a file.
    package static func document(_ value: JSONValue) -> [UInt8] {
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
    package static func write(_ value: JSONValue, indentLevel: Int, into out: inout [UInt8]) {
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
    package static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Appends `2 * level` spaces, copied from a constant run of spaces (one `memcpy` for the
    /// usual depths instead of a generic `repeatElement` append).
    @inline(__always)
    package static func indent(_ level: Int, into out: inout [UInt8]) {
        var remaining = 2 * level
        while remaining > 0 {
            let count = min(remaining, spaces.utf8CodeUnitCount)
            out.append(contentsOf: UnsafeBufferPointer(start: spaces.utf8Start, count: count))
            remaining -= count
        }
    }

    /// 64 spaces: the indentation of 32 levels in one copy.
    static let spaces: StaticString = "                                                                "

    /// Writes `text` quoted. Escapes `"`, `\` and the C0 controls (`\b \f \n \r \t`, else
    /// `\u00xx` in lowercase hex); every other scalar, `/` and U+2028 included, is raw UTF-8.
    package static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text  // withUTF8 is mutating; it copies only a non-contiguous (bridged) string.
        text.withUTF8 { utf8 in
            // Copy the runs between escapes whole; most strings are a single run.
            var runStart = 0
            while let next = nextEscape(in: utf8, from: runStart) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<next]))
                appendEscaped(utf8[next], into: &out)
                runStart = next + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The index of the first byte at or after `start` that needs an escape, or nil.
    ///
    /// Eight bytes at a time (see ``escapeHits(_:)``); the loads stay inside `utf8` (only while
    /// `index + 8 <= count`), and the last bytes (fewer than 8) are tested one at a time.
    @inline(__always)
    static func nextEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = utf8.baseAddress else { return nil }
        let count = utf8.count
        var index = start
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let hits = escapeHits(UInt64(littleEndian: word))
            if hits != 0 { return index + hits.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < count {
            if needsEscape(base[index]) { return index }
            index += 1
        }
        return nil
    }

    /// The high bit of each byte of `word` that needs an escape (< 0x20, `"` or `\`), where
    /// byte 0 of the string is the least significant byte of `word`: zero when none does.
    ///
    /// The "has less / has zero byte" tricks (Hacker's Delight 6-1; Anderson, Bit Twiddling
    /// Hacks). A flag can also be set wrongly, but only in a byte above one that needs an escape
    /// (a borrow travels upward), so the lowest flag is always exact: the first byte to escape is
    /// byte `escapeHits(word).trailingZeroBitCount / 8`.
    @inline(__always)
    static func escapeHits(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        // Each test is `(x - k) & ~x & highs`; `~quote` and `~backslash` have the high bits of
        // `~word` (0x22 and 0x5C are below 0x80), so the three share one `& ~word & highs`.
        return ((word &- ones &* 0x20) | (quote &- ones) | (backslash &- ones)) & ~word & highs
    }

    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    static func appendEscaped(_ byte: UInt8, into out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longestEscape) { buffer in
            let count = writeEscape(byte, to: buffer.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The length of the longest escape, `\u00xx`.
    static let longestEscape = 6

    /// Writes the escape of `byte` (one that `needsEscape`) at `out`, which has room for
    /// ``longestEscape`` bytes, and returns its length (2 or 6).
    @inline(__always)
    static func writeEscape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
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
            let hex: StaticString = "0123456789abcdef"
            out[0] = UInt8(ascii: "\\"); out[1] = UInt8(ascii: "u"); out[2] = UInt8(ascii: "0"); out[3] = UInt8(ascii: "0")
            out[4] = hex.utf8Start[Int(byte >> 4)]
            out[5] = hex.utf8Start[Int(byte & 0xF)]
            return 6
        default:
            preconditionFailure("byte 0x\(String(byte, radix: 16)) needs no escape")
        }
        out[0] = UInt8(ascii: "\\")
        out[1] = escape
        return 2
    }
}
