// Literals, numbers and strings for JSONByteParser.

extension JSONByteParser {
    static let trueBytes: [UInt8] = Array("true".utf8)
    static let falseBytes: [UInt8] = Array("false".utf8)
    static let nullBytes: [UInt8] = Array("null".utf8)

    /// Consumes `literal` (`true`, `false` or `null`) at `pos`; the first byte already matched.
    mutating func parseLiteral(_ literal: [UInt8]) throws(JSONSyntaxError) {
        for k in 1..<literal.count where pos + k >= bytes.count || bytes[pos + k] != literal[k] {
            let word = String(decoding: literal, as: UTF8.self)
            throw error(at: pos + k, "invalid literal, expected '\(word)', found \(describe(at: pos + k))")
        }
        pos += literal.count
    }

    @inline(__always)
    func isDigit(at index: Int) -> Bool {
        index < bytes.count && bytes[index] >= ASCII.zero && bytes[index] <= ASCII.nine
    }

    /// Consumes a run of digits and returns how many there were.
    @inline(__always)
    mutating func skipDigits() -> Int {
        let start = pos
        while isDigit(at: pos) { pos += 1 }
        return pos - start
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = pos
        if bytes[pos] == ASCII.minus { pos += 1 }
        if peek(is: ASCII.zero) {
            pos += 1
            if isDigit(at: pos) { throw error(at: pos - 1, "leading zero in number") }
        } else if skipDigits() == 0 {
            throw error(at: pos, "expected a digit after '-' in number, found \(describe(at: pos))")
        }
        if peek(is: ASCII.dot) {
            pos += 1
            if skipDigits() == 0 {
                throw error(at: pos, "expected a digit after '.' in number, found \(describe(at: pos))")
            }
        }
        if peek(is: UInt8(ascii: "e")) || peek(is: UInt8(ascii: "E")) {
            pos += 1
            if peek(is: ASCII.plus) || peek(is: ASCII.minus) { pos += 1 }
            if skipDigits() == 0 {
                throw error(at: pos, "expected a digit in the exponent of number, found \(describe(at: pos))")
            }
        }
        let literal = UnsafeBufferPointer(rebasing: bytes[start..<pos])
        return JSONNumber(uncheckedLiteral: String(decoding: literal, as: UTF8.self))
    }

    /// Parses the string whose opening quote is at `pos`.
    ///
    /// Fast path: scan to the closing quote, then build the `String` in one go (validating
    /// UTF-8 only when a non-ASCII byte was seen). A backslash switches to the slow path.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = pos + 1
        let count = bytes.count
        var i = start
        var highBits: UInt8 = 0
        while i < count {
            let b = bytes[i]
            if b == ASCII.quote {
                let content = UnsafeBufferPointer(rebasing: bytes[start..<i])
                pos = i + 1
                if highBits < 0x80 { return String(decoding: content, as: UTF8.self) }
                return try validatedString(content, input: start..<i)
            }
            if b == ASCII.backslash {
                return try parseEscapedString(contentStart: start, firstEscape: i, highBits: highBits)
            }
            if b < 0x20 {
                if highBits >= 0x80 { try checkUTF8(start..<i) }
                throw controlCharacterError(at: i)
            }
            highBits |= b
            i += 1
        }
        if highBits >= 0x80 { try checkUTF8(start..<count) }
        throw error(at: count, "unexpected end of input inside a string")
    }

    /// The slow path for a string with escapes. The raw runs between escapes are copied into
    /// `scratch` and validated as UTF-8 once at the end: escapes decode to valid UTF-8 and
    /// split the input only at ASCII bytes, so `scratch` is valid exactly when the input is.
    /// Before throwing any other error, the raw input up to it is checked, so that the first
    /// problem in the input is the one reported.
    mutating func parseEscapedString(
        contentStart: Int, firstEscape: Int, highBits prefixHighBits: UInt8
    ) throws(JSONSyntaxError) -> String {
        scratch.removeAll(keepingCapacity: true)
        let count = bytes.count
        var highBits = prefixHighBits
        var i = firstEscape
        var segment = contentStart
        while i < count {
            let b = bytes[i]
            if b == ASCII.quote || b == ASCII.backslash || b < 0x20 {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segment..<i]))
                if b == ASCII.quote {
                    pos = i + 1
                    if highBits < 0x80 { return String(decoding: scratch, as: UTF8.self) }
                    return try validatedString(scratch, input: contentStart..<i)
                }
                do throws(JSONSyntaxError) {
                    if b < 0x20 { throw controlCharacterError(at: i) }
                    i = try appendEscape(at: i)
                    segment = i
                } catch {
                    if highBits >= 0x80 { try checkUTF8(contentStart..<i) }
                    throw error
                }
            } else {
                highBits |= b
                i += 1
            }
        }
        if highBits >= 0x80 { try checkUTF8(contentStart..<count) }
        throw error(at: count, "unexpected end of input inside a string")
    }

    /// The string for `utf8`, which holds non-ASCII bytes; throws at the first invalid
    /// sequence in `input`, the raw string content `utf8` was made from.
    ///
    /// `String(validating:as:)` validates and copies in one pass, but needs macOS 15 / iOS 18;
    /// before that, the bytes are checked here first and then copied.
    func validatedString(_ utf8: some Collection<UInt8>, input: Range<Int>) throws(JSONSyntaxError) -> String {
        if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
            if let text = String(validating: utf8, as: UTF8.self) { return text }
            try checkUTF8(input)
            preconditionFailure("String(validating:) and checkUTF8 disagree on bytes \(input)")
        } else {
            try checkUTF8(input)
            return String(decoding: utf8, as: UTF8.self)
        }
    }

    /// Decodes the escape whose backslash is at `index` into `scratch`; returns the offset after it.
    mutating func appendEscape(at index: Int) throws(JSONSyntaxError) -> Int {
        guard index + 1 < bytes.count else {
            throw error(at: bytes.count, "unexpected end of input inside a string")
        }
        let simple: UInt8
        switch bytes[index + 1] {
        case ASCII.quote: simple = ASCII.quote
        case ASCII.backslash: simple = ASCII.backslash
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): return try appendUnicodeEscape(at: index)
        default: throw invalidEscapeError(at: index)
        }
        scratch.append(simple)
        return index + 2
    }

    /// Decodes `\uXXXX`, or a surrogate pair `\uD83D\uDE00`, at `index`.
    mutating func appendUnicodeEscape(at index: Int) throws(JSONSyntaxError) -> Int {
        let unit = try hex4(at: index + 2)
        var scalar = UInt32(unit)
        var end = index + 6
        if (0xDC00...0xDFFF).contains(unit) { throw loneSurrogateError(at: index) }
        if (0xD800...0xDBFF).contains(unit) {
            let pairFollows = end + 1 < bytes.count && bytes[end] == ASCII.backslash && bytes[end + 1] == UInt8(ascii: "u")
            guard pairFollows else { throw loneSurrogateError(at: index) }
            let low = try hex4(at: end + 2)
            guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogateError(at: index) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            end += 6
        }
        appendUTF8(scalar)
        return end
    }

    /// Appends the UTF-8 encoding of a Unicode scalar value (never a surrogate).
    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Reads four hex digits at `index`.
    func hex4(at index: Int) throws(JSONSyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for k in index..<index + 4 {
            guard k < bytes.count, let digit = JSONByteParser.hexValue(bytes[k]) else {
                throw error(at: k, "invalid \\u escape: expected 4 hex digits, found \(describe(at: k))")
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case ASCII.zero...ASCII.nine: b - ASCII.zero
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
