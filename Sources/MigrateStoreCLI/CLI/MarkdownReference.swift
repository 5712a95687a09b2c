/// `migrate-store help --markdown`: the reference as GitHub-flavoured Markdown (`docs/commands.md`).
///
/// Help texts are prose, not Markdown: every character Markdown would read as markup is escaped,
/// so a text renders as the help prints it. Labels and usage lines are code.
struct MarkdownReference {
    let registry: CommandRegistry

    var text: String {
        var blocks = [
            "<!-- \(CommandReference.provenance(.markdown)) -->",
            "# \(ToolInfo.name) command reference",
            Self.escape(ToolInfo.overview),
        ]
        blocks += CommandReference.paragraphs(ToolInfo.discussion).map(Self.escape)
        blocks.append(Self.codeBlock(CommandReference.invocations.map(Self.plain)))
        blocks.append(contents)
        for (group, specs) in CommandReference.groups(registry) {
            blocks.append("## \(Self.escape(group.rawValue))")
            blocks += specs.map(command)
        }
        blocks.append("## Global options")
        blocks.append("Every command accepts these.")
        blocks.append(Self.table(["Option", "Description"], OptionSpec.globals.map(Self.optionRow)))
        blocks.append(exitCodes)
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// The table of contents: each group with its commands and their abstracts.
    private var contents: String {
        var lines = ["## Contents", ""]
        for (group, specs) in CommandReference.groups(registry) {
            lines.append("- [\(Self.escape(group.rawValue))](#\(Self.anchor(group.rawValue)))")
            for spec in specs {
                lines.append("  - [`\(spec.name)`](#\(Self.anchor(spec.name))): \(Self.escape(spec.abstract))")
            }
        }
        lines.append("- [Global options](#global-options)")
        lines.append("- [Exit codes](#exit-codes)")
        return lines.joined(separator: "\n")
    }

    /// One command: its abstract, usage, discussion, arguments, options and exclusions.
    private func command(_ spec: CommandSpec) -> String {
        var blocks = [
            "### `\(spec.name)`",
            Self.escape(spec.abstract),
            Self.codeBlock([Self.plain(CommandReference.synopsis(of: spec))]),
        ]
        blocks += CommandReference.paragraphs(spec.discussion).map(Self.escape)
        if !spec.arguments.isEmpty {
            blocks.append(
                Self.table(
                    ["Argument", "Description"],
                    spec.arguments.map {
                        ("`<\($0.name)>`", Self.escape($0.help))
                    }))
        }
        if !spec.options.isEmpty {
            blocks.append(Self.table(["Option", "Description"], spec.options.map(Self.optionRow)))
        }
        blocks += CommandReference.exclusions(of: spec).map(Self.escape)
        blocks.append("The [global options](#global-options) apply too. Exit statuses: [Exit codes](#exit-codes).")
        return blocks.joined(separator: "\n\n")
    }

    /// The exit statuses and the note `help exit-codes` prints under them.
    private var exitCodes: String {
        let rows = ExitCode.allCases.map { (String($0.rawValue), Self.escape($0.summary)) }
        return [
            "## Exit codes",
            Self.table(["Code", "Meaning"], rows),
            Self.escape(HelpFormatter.exitCodesNote),
        ].joined(separator: "\n\n")
    }

    // MARK: Markdown

    /// `--to <version>` as code, with its help, choices and default as the help prints them.
    private static func optionRow(_ option: OptionSpec) -> (String, String) {
        (
            "`" + HelpFormatter.label(for: option).replacingOccurrences(of: "|", with: "\\|") + "`",
            escape(HelpFormatter.help(for: option))
        )
    }

    /// A synopsis as the help prints it: placeholders in angle brackets, optional parts in square
    /// brackets, `[options]` as it is.
    static func plain(_ words: [CommandReference.Word]) -> String {
        CommandReference.render(words, literal: { $0 }, placeholder: { "<\($0)>" }, text: { $0 }, options: "[options]")
    }

    private static func codeBlock(_ lines: [String]) -> String {
        (["```"] + lines + ["```"]).joined(separator: "\n")
    }

    private static func table(_ header: [String], _ rows: [(String, String)]) -> String {
        let lines =
            [
                "| " + header.joined(separator: " | ") + " |",
                "|" + header.map { _ in "---" }.joined(separator: "|") + "|",
            ]
            + rows.map { "| \($0.0) | \($0.1) |" }
        return lines.joined(separator: "\n")
    }

    /// GitHub's anchor for a heading: lower case, spaces as hyphens, other punctuation but
    /// hyphens and underscores dropped.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
                return nil
            })
    }

    /// Prose on one line, every character Markdown reads as markup escaped with a backslash, and
    /// a start that would open a heading, list or quote neutralised.
    static func escape(_ text: String) -> String {
        let markup: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", ">", "|", "&", "#", "~"]
        var escaped = ""
        for character in text {
            if character == "\n" { escaped.append(" "); continue }
            if markup.contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        if let first = escaped.first, "+-=".contains(first) { escaped.insert("\\", at: escaped.startIndex) }
        // `1. ` or `1) ` at the start would open an ordered list.
        let digits = escaped.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, let mark = escaped.dropFirst(digits.count).first, mark == "." || mark == ")" {
            escaped.insert("\\", at: escaped.index(escaped.startIndex, offsetBy: digits.count))
        }
        return escaped
    }
}
