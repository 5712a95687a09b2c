/// Small text formats shared by the validator's sentences and the command-line tool.
package enum TextFormat {
    /// `2841` → `2,841`: digits grouped by three with commas, the same in every locale.
    package static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    /// `1 work stream`, `2 work streams`.
    package static func plural(_ value: Int, _ singular: String, _ pluralForm: String? = nil) -> String {
        "\(count(value)) \(value == 1 ? singular : pluralForm ?? singular + "s")"
    }
}

extension TextFormat {
    /// `word` as one POSIX shell word: as it is when every character is one of
    /// `A-Za-z0-9_@%+=:,./-`, else in single quotes, each `'` written as `'\''`
    /// (POSIX.1 "Shell Command Language" §2.2.2: nothing inside single quotes is special).
    ///
    /// ```swift
    /// TextFormat.shellWord("/data/store")    // /data/store
    /// TextFormat.shellWord("/tmp/it's mine") // '/tmp/it'\''s mine'
    /// TextFormat.shellWord("")               // ''
    /// ```
    package static func shellWord(_ word: String) -> String {
        if !word.isEmpty, word.unicodeScalars.allSatisfy(isShellSafe) { return word }
        // By scalar, not by Character: a quote followed by a combining mark is one Character.
        var quoted = "'"
        for scalar in word.unicodeScalars {
            if scalar == "'" { quoted += "'\\''" } else { quoted.unicodeScalars.append(scalar) }
        }
        return quoted + "'"
    }

    private static func isShellSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "@", "%", "+", "=", ":", ",", ".", "/", "-": true
        default: false
        }
    }
}
