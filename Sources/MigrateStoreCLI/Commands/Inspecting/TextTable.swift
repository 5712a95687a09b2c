import JSONStore

/// Aligned columns for people: a header row, then one row per item, columns separated by two
/// spaces, no trailing spaces.
///
/// ```swift
/// var table = TextTable(["POS", "ID"], rightAligned: [0])
/// table.append(["1", "ad9a22b8"])
/// table.render(indent: "  ")   // ["  POS  ID", "    1  ad9a22b8"]
/// ```
///
/// Widths count characters (grapheme clusters), which is right for the Latin, Greek and
/// Cyrillic text of the samples; wide East Asian characters take two cells on most terminals
/// and make their row a little longer. A cell is measured as ``TerminalText`` shows it (a
/// control character as `\u{1B}`), and a column with a maximum width cuts longer cells with an
/// ellipsis; the cells stay unescaped, for ``Output/printEscaping(_:)`` to escape.
struct TextTable {
    let headers: [String]
    /// Column indexes whose cells are right-aligned (numbers).
    let rightAligned: Set<Int>
    /// The widest a column's cells may be, by column index; a longer cell is cut with `…`.
    let maximumWidths: [Int: Int]
    private(set) var rows: [[String]] = []

    init(_ headers: [String], rightAligned: Set<Int> = [], maximumWidths: [Int: Int] = [:]) {
        self.headers = headers
        self.rightAligned = rightAligned
        self.maximumWidths = maximumWidths
    }

    /// Adds a row. - Precondition: it has one cell per header.
    mutating func append(_ row: [String]) {
        precondition(row.count == headers.count, "TextTable: \(row.count) cells for \(headers.count) columns")
        rows.append(
            row.enumerated().map { column, cell in
                maximumWidths[column].map { TerminalText.truncated(cell, width: $0) } ?? cell
            })
    }

    /// The header and the rows as lines, each starting with `indent`.
    func render(indent: String = "") -> [String] {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { TerminalText.width($0[column]) }.max() ?? 0 }
        return all.map { row in
            var line = indent
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - TerminalText.width(cell))
                if column > 0 { line += "  " }
                line += rightAligned.contains(column) ? padding + cell : cell + padding
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}

extension TextFormat {
    /// `text` in double quotes with newlines shown as `\n`, for one-line display.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}
