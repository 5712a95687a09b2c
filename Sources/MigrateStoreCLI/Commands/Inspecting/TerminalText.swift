/// Text from a store, made safe to print for people.
///
/// A name in a store is whatever a client or a hand edit wrote: `ESC [31m` would recolour the
/// terminal, a newline would forge a table row, U+202E would print the rest of the line right
/// to left (the "Trojan Source" trick, CVE-2021-42574). The human output of `ls`, `show` and
/// `queue` shows each such character as `\u{1B}`, with one note line saying so; `--json` keeps
/// the exact text (JSON escaping only).
///
/// ```swift
/// TerminalText.escaped("a\u{1B}[31mb")     // a\u{1B}[31mb (as 12 visible characters)
/// TerminalText.truncated(String(repeating: "x", count: 60), width: 10)   // xxxxxxxxx…
/// ```
enum TerminalText {
    /// The note printed once after output in which anything was escaped.
    static let note = "Note: control and bidirectional characters in names and texts are shown as \\u{…}; --json gives the exact text."

    /// The widest a name column of a table (`ls`, `queue`) gets; `show` prints names whole.
    static let nameWidth = 48

    /// True for a scalar printed as `\u{…}`: the C0 and C1 controls and DEL (general category
    /// Cc), the line and paragraph separators, and the bidirectional marks, embeddings,
    /// overrides and isolates (Unicode UAX #9: U+061C, U+200E–200F, U+202A–202E, U+2066–2069).
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// True when `text` holds a scalar that ``escaped(_:)`` rewrites.
    static func needsEscaping(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isEscaped)
    }

    /// `text` with every ``isEscaped(_:)`` scalar written as `\u{XX}` (hexadecimal, upper case).
    static func escaped(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        return pieces(text).joined()
    }

    /// The number of characters `text` takes once escaped.
    static func width(_ text: String) -> Int {
        needsEscaping(text) ? pieces(text).reduce(0) { $0 + $1.count } : text.count
    }

    /// `text` cut to at most `width` characters once escaped, the last one an ellipsis when
    /// anything was cut. Cuts fall between characters and never inside an escape.
    /// Returns unescaped text: the escaping happens when the line is printed.
    static func truncated(_ text: String, width: Int) -> String {
        precondition(width >= 1, "TerminalText.truncated: width \(width) < 1")
        guard self.width(text) > width else { return text }
        var kept = "", used = 0
        for character in text {
            let cost = needsEscaping(String(character)) ? pieces(String(character)).reduce(0) { $0 + $1.count } : 1
            if used + cost > width - 1 { break }
            kept.append(character)
            used += cost
        }
        return kept + "…"
    }

    /// The displayed units of `text`: each character as it is, or, for a character holding an
    /// escaped scalar, its scalars one by one (escaped ones as `\u{XX}`).
    private static func pieces(_ text: String) -> [String] {
        var pieces: [String] = []
        for character in text {
            guard character.unicodeScalars.contains(where: isEscaped) else {
                pieces.append(String(character))
                continue
            }
            for scalar in character.unicodeScalars {
                pieces.append(isEscaped(scalar) ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : String(scalar))
            }
        }
        return pieces
    }
}

extension Output {
    /// Prints lines for people with ``TerminalText`` escaping, then ``TerminalText/note`` once
    /// if anything was escaped. Dropped in JSON mode, as ``print(_:)`` is.
    func printEscaping(_ lines: [String]) {
        var escapedAny = false
        for line in lines {
            if TerminalText.needsEscaping(line) {
                escapedAny = true
                print(TerminalText.escaped(line))
            } else {
                print(line)
            }
        }
        if escapedAny { print(TerminalText.note) }
    }
}
