// Literals, numbers and strings for JSONByteParser.

import Foundation

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
    /// Fast path: find the closing quote eight bytes at a time, then make the `String` in one
    /// copy (checking UTF-8 only when a byte of 0x80 or above was seen). A backslash switches
    /// to the slow path.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = pos + 1
        var highBits: UInt8 = 0
        let end = endOfPlainRun(from: start, highBits: &highBits)
        if end < bytes.count, bytes[end] == ASCII.quote {
            pos = end + 1
            if let text = Self.exactString(UnsafeBufferPointer(rebasing: bytes[start..<end]), highBits: highBits) {
                return text
            }
            throw invalidUTF8Error(in: start..<end)
        }
        if end < bytes.count, bytes[end] == ASCII.backslash {
            return try parseEscapedString(contentStart: start, firstEscape: end, highBits: highBits)
        }
        if highBits >= 0x80 { try checkUTF8(start..<end) }
        if end < bytes.count { throw controlCharacterError(at: end) }
        throw error(at: end, "unexpected end of input inside a string")
    }

    /// The slow path for a string with escapes. The raw runs between escapes are copied into
    /// `scratch` and validated as UTF-8 once at the end: escapes decode to valid UTF-8 and
    /// split the input only at ASCII bytes, so `scratch` is valid exactly when the input is.
    /// Before throwing any other error, the raw input up to it is checked, so that the first
    /// problem in the input is the one reported.
    mutating func parseEscapedString(
        contentStart: Int, firstEscape: Int, highBits prefixHighBits: UInt8
    ) throws(JSONSyntaxError) -> String {
        scratch.removeAll()
        let count = bytes.count
        var highBits = prefixHighBits
        var segment = contentStart
        var i = firstEscape
        // At the top of the loop, `i` is a quote, a backslash, a control character or the end.
        while i < count {
            scratch.append(UnsafeBufferPointer(rebasing: bytes[segment..<i]))
            let b = bytes[i]
            if b == ASCII.quote {
                pos = i + 1
                if let text = Self.exactString(scratch.bytes, highBits: highBits) { return text }
                throw invalidUTF8Error(in: contentStart..<i)
            }
            if b == ASCII.backslash, i + 1 < count, let simple = Self.simpleEscape(bytes[i + 1]) {
                // `\n`, `\"` and the like, decoded here: a message text has dozens of `\n`.
                scratch.append(simple)
                i += 2
            } else {
                do throws(JSONSyntaxError) {
                    if b < 0x20 { throw controlCharacterError(at: i) }
                    i = try appendEscape(at: i)
                } catch {
                    if highBits >= 0x80 { try checkUTF8(contentStart..<i) }
                    throw error
                }
            }
            segment = i
            i = endOfPlainRun(from: i, highBits: &highBits)
        }
        if highBits >= 0x80 { try checkUTF8(contentStart..<count) }
        throw error(at: count, "unexpected end of input inside a string")
    }

    /// The string whose UTF-8 is `utf8`, or nil when `utf8` is not valid UTF-8. `highBits` is
    /// the or of (at least) every byte of `utf8`: below 0x80, the bytes are ASCII.
    ///
    /// Long, mostly ASCII text is made by `SparseUTF8`. Otherwise `String(decoding:)` validates
    /// as it copies and replaces each invalid sequence with U+FFFD, so its bytes equal the
    /// input exactly when the input is valid UTF-8; comparing them (`memcmp`) costs less than
    /// `String(validating:)`, which is generic, runs unspecialized (about 750 instructions more
    /// per call) and needs macOS 15.
    @inline(__always)
    static func exactString(_ utf8: UnsafeBufferPointer<UInt8>, highBits: UInt8) -> String? {
        if highBits < 0x80 { return String(decoding: utf8, as: UTF8.self) }
        switch SparseUTF8.string(utf8) {
        case .string(let text): return text
        case .invalid: return nil
        case .notSparse: break
        }
        let text = String(decoding: utf8, as: UTF8.self)
        let same =
            text.utf8.withContiguousStorageIfAvailable { decoded in
                decoded.count == utf8.count
                    && (utf8.isEmpty || memcmp(decoded.baseAddress!, utf8.baseAddress!, utf8.count) == 0)
            } ?? text.utf8.elementsEqual(utf8)
        return same ? text : nil
    }

    /// The error for the first invalid UTF-8 sequence in `input`, raw string content that
    /// `exactString` found invalid (the two agree: both follow RFC 3629).
    func invalidUTF8Error(in input: Range<Int>) -> JSONSyntaxError {
        do throws(JSONSyntaxError) {
            try checkUTF8(input)
        } catch {
            return error
        }
        preconditionFailure("String(decoding:) and checkUTF8 disagree on bytes \(input)")
    }

    /// The byte an escape of one character stands for (`n` in `\n`: 0x0A); nil for `u` and
    /// for characters that do not follow a backslash in JSON.
    @inline(__always)
    static func simpleEscape(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "n"): 0x0A
        case ASCII.quote, ASCII.backslash, UInt8(ascii: "/"): character
        case UInt8(ascii: "t"): 0x09
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        default: nil
        }
    }

    /// Decodes the escape whose backslash is at `index` into `scratch`; returns the offset after it.
    mutating func appendEscape(at index: Int) throws(JSONSyntaxError) -> Int {
        guard index + 1 < bytes.count else {
            throw error(at: bytes.count, "unexpected end of input inside a string")
        }
        if let simple = Self.simpleEscape(bytes[index + 1]) {
            scratch.append(simple)
            return index + 2
        }
        guard bytes[index + 1] == UInt8(ascii: "u") else { throw invalidEscapeError(at: index) }
        return try appendUnicodeEscape(at: index)
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
