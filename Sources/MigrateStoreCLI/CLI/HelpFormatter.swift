import Foundation

/// The help texts, in swift-argument-parser's layout:
///
/// ```
/// OVERVIEW: <abstract>
///
/// USAGE: migrate-store <command> <store> [options]
///
/// ARGUMENTS:
///   <store>                 The store directory.
///
/// OPTIONS:
///   --json                  Print one JSON object on standard output instead of text.
/// ```
///
/// Labels start at column 2; help text starts at column 26 and wraps at column 80.
/// Every text ends with a newline.
enum HelpFormatter {
    /// The column where help text starts.
    static let helpColumn = 26
    /// The widest line, in characters.
    static let width = 80
    /// The help topic that lists exit statuses: `migrate-store help exit-codes`.
    static let exitCodesTopic = "exit-codes"

    /// The help of one command: `migrate-store help <command>` or `<command> --help`.
    static func help(for spec: CommandSpec) -> String {
        var sections = ["OVERVIEW: \(spec.abstract)"]
        if !spec.discussion.isEmpty { sections.append(paragraphs(spec.discussion)) }
        sections.append("USAGE: \(spec.usage)")
        if !spec.arguments.isEmpty {
            sections.append(section("ARGUMENTS", spec.arguments.map { ("<\($0.name)>", $0.help) }))
        }
        sections.append(section("OPTIONS", spec.allOptions.map { (label(for: $0), help(for: $0)) }))
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The top-level help: `migrate-store help`, `--help`.
    static func toolHelp(_ registry: CommandRegistry) -> String {
        var sections = [
            "OVERVIEW: \(ToolInfo.overview)",
            paragraphs(ToolInfo.discussion),
            "USAGE: \(ToolInfo.name) <command> [options]",
        ]
        for group in CommandGroup.allCases {
            let rows = registry.commands.filter { $0.spec.group == group }.map { ($0.spec.name, $0.spec.abstract) }
            if !rows.isEmpty { sections.append(section(group.rawValue.uppercased(), rows)) }
        }
        sections.append(section("HELP TOPICS", [(exitCodesTopic, "What each exit status means.")]))
        sections.append(section("OPTIONS", OptionSpec.globals.map { (label(for: $0), $0.help) }))
        sections.append("See '\(ToolInfo.name) help <command>' for detailed help.")
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `migrate-store help exit-codes`.
    static func exitCodesHelp() -> String {
        let rows = ExitCode.allCases.map { (String($0.rawValue), $0.summary) }
        return [
            "OVERVIEW: The exit statuses of \(ToolInfo.name).",
            section("EXIT CODES", rows),
            paragraphs(exitCodesNote),
        ].joined(separator: "\n\n") + "\n"
    }

    /// The paragraph under the table of exit statuses (here and in the generated reference).
    static let exitCodesNote =
        "The values follow BSD sysexits.h. With --json, a failed command still prints "
        + "one JSON object, with an \"error\" member holding \"exit_code\" and \"message\"."

    // MARK: Layout

    /// `--backup-dir <dir>`, `-h, --help`.
    static func label(for option: OptionSpec) -> String {
        guard let short = option.shortName else { return option.synopsis }
        return "-\(short), \(option.synopsis)"
    }

    /// The option's help followed by its choices and default, when it has them.
    static func help(for option: OptionSpec) -> String {
        var notes: [String] = []
        if case .choice(let choices) = option.kind { notes.append("values: " + choices.joined(separator: ", ")) }
        if let value = option.defaultValue { notes.append("default: \(value)") }
        return notes.isEmpty ? option.help : option.help + " (" + notes.joined(separator: "; ") + ")"
    }

    /// `TITLE:` followed by one row per item.
    static func section(_ title: String, _ rows: [(label: String, help: String)]) -> String {
        ([title + ":"] + rows.map { row($0.label, $0.help) }).joined(separator: "\n")
    }

    /// `  label<spaces>help`, the help wrapped and indented to ``helpColumn``. A label too wide
    /// for its column puts the help on the next line.
    static func row(_ label: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: helpColumn)
        let lines = wrap(help, width: width - helpColumn)
        var head = "  " + label
        if head.count + 1 >= helpColumn {
            head += "\n" + indent
        } else {
            head += String(repeating: " ", count: helpColumn - head.count)
        }
        return head + lines.joined(separator: "\n" + indent)
    }

    /// Paragraphs separated by blank lines, each wrapped to ``width``.
    static func paragraphs(_ text: String) -> String {
        text.components(separatedBy: "\n\n")
            .map { wrap($0, width: width).joined(separator: "\n") }
            .joined(separator: "\n\n")
    }

    /// Greedy word wrap. A word longer than `width` gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        return lines + [line]
    }
}
