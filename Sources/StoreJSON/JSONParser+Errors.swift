// Error construction for JSONByteParser: positions, reasons, and UTF-8 diagnosis.
// Nothing here runs unless the input is bad, so clarity wins over speed.

extension JSONByteParser {
    /// An error at `offset` with its 1-based line and byte column (lines end at `\n`).
    func error(at offset: Int, _ reason: String) -> JSONSyntaxError {
        var line = 1
        var lineStart = 0
        for k in 0..<min(offset, bytes.count) where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        return JSONSyntaxError(offset: offset, line: line, column: offset - lineStart + 1, reason: reason)
    }

    /// The byte at `index` for a message: `'x'`, `'é' (U+00E9)`, `byte 0x0A`,
    /// `invalid UTF-8 byte 0xFF`, or `end of input`.
    func describe(at index: Int) -> String {
        guard index < bytes.count else { return "end of input" }
        let b = bytes[index]
        if b >= 0x20, b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b < 0x80 { return "byte 0x\(Self.hex(b))" }
        guard case .valid(let length) = utf8Sequence(at: index, end: bytes.count) else {
            return "invalid UTF-8 byte 0x\(Self.hex(b))"
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + length]), as: UTF8.self)
        return "'\(text)' (\(Self.codePoints(text)))"
    }

    func expectedValueError() -> JSONSyntaxError {
        error(at: pos, "expected a value, found \(describe(at: pos))")
    }

    func depthError() -> JSONSyntaxError {
        error(at: pos, "nesting deeper than \(maxDepth) levels")
    }

    func trailingCommaError(in container: String) -> JSONSyntaxError {
        let expected = container == "array" ? "a value" : "a string key"
        return error(at: pos, "expected \(expected) after ',' in \(container), found \(describe(at: pos)) (trailing comma)")
    }

    func expectedKeyError(afterComma: Bool) -> JSONSyntaxError {
        let expected = afterComma ? "a string key after ','" : "a string key or '}'"
        return error(at: pos, "expected \(expected) in object, found \(describe(at: pos))")
    }

    func duplicateKeyError(_ key: String, earlier: String, at offset: Int) -> JSONSyntaxError {
        if key.utf8.elementsEqual(earlier.utf8) {
            return error(at: offset, "duplicate key '\(Self.brief(key))' in object")
        }
        return error(
            at: offset,
            "duplicate key '\(Self.brief(key))' in object: canonically equivalent to "
                + "the earlier key '\(Self.brief(earlier))' (\(Self.codePoints(key)) vs \(Self.codePoints(earlier)))")
    }

    func controlCharacterError(at index: Int) -> JSONSyntaxError {
        error(at: index, "control character U+00\(Self.hex(bytes[index])) must be escaped in a string")
    }

    func invalidEscapeError(at index: Int) -> JSONSyntaxError {
        let b = bytes[index + 1]
        if b > 0x20, b < 0x7F {
            return error(at: index, "invalid escape '\\\(Character(Unicode.Scalar(b)))' in string")
        }
        return error(at: index, "invalid escape in string: '\\' followed by \(describe(at: index + 1))")
    }

    func loneSurrogateError(at index: Int) -> JSONSyntaxError {
        let escape = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + 6]), as: UTF8.self)
        return error(at: index, "lone surrogate \(escape) in string")
    }

    /// Throws a positioned error for the first invalid UTF-8 sequence in `range`.
    func checkUTF8(_ range: Range<Int>) throws(JSONSyntaxError) {
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] < 0x80 { i += 1; continue }
            switch utf8Sequence(at: i, end: range.upperBound) {
            case .valid(let length):
                i += length
            case .invalidLead:
                throw error(at: i, "invalid UTF-8 byte 0x\(Self.hex(bytes[i])) in string")
            case .badContinuation(let j) where j == range.upperBound || bytes[j] < 0x80:
                throw error(at: i, "incomplete UTF-8 sequence \(hexBytes(i..<j)) in string")
            case .badContinuation(let j):
                throw error(at: i, "invalid UTF-8 sequence \(hexBytes(i..<j + 1)) in string\(Self.hint(bytes[i], bytes[i + 1]))")
            }
        }
    }

    enum UTF8Sequence {
        case valid(length: Int)
        case invalidLead
        case badContinuation(at: Int)
    }

    /// Classifies the UTF-8 sequence starting at `index` (a byte >= 0x80), per RFC 3629 §4.
    func utf8Sequence(at index: Int, end: Int) -> UTF8Sequence {
        let lead = bytes[index]
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        let continuations: Int
        switch lead {
        case 0xC2...0xDF: continuations = 1
        case 0xE0: continuations = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: continuations = 2
        case 0xED: continuations = 2; high = 0x9F
        case 0xF0: continuations = 3; low = 0x90
        case 0xF1...0xF3: continuations = 3
        case 0xF4: continuations = 3; high = 0x8F
        default: return .invalidLead
        }
        for k in 1...continuations {
            let j = index + k
            guard j < end, bytes[j] >= low, bytes[j] <= high else { return .badContinuation(at: j) }
            low = 0x80; high = 0xBF
        }
        return .valid(length: continuations + 1)
    }

    /// Why a two-byte prefix is invalid, when it is for a named reason.
    static func hint(_ lead: UInt8, _ next: UInt8) -> String {
        switch (lead, next) {
        case (0xE0, 0x80..<0xA0), (0xF0, 0x80..<0x90): " (overlong encoding)"
        case (0xED, 0xA0...0xBF): " (an encoded UTF-16 surrogate)"
        case (0xF4, 0x90...0xBF): " (beyond U+10FFFF)"
        default: ""
        }
    }

    func hexBytes(_ range: Range<Int>) -> String {
        range.map { "0x" + Self.hex(bytes[$0]) }.joined(separator: " ")
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }

    /// `U+0065 U+0301`, for at most 8 scalars.
    static func codePoints(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(8).map { scalar in
            let digits = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        return shown.joined(separator: " ") + (text.unicodeScalars.count > 8 ? " …" : "")
    }

    /// A key for a message: at most 40 characters, control characters shown as `\u{A}`.
    static func brief(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(40) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > 40 ? out + "…" : out
    }
}
