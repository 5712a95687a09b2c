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
