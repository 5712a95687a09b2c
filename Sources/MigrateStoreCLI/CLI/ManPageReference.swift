/// `migrate-store help --man`: the reference as a man page in roff with the `man` macros
/// (`docs/migrate-store.1`; read it with `man -l docs/migrate-store.1`).
///
/// Every text line goes through ``escape(_:)``, so help texts can hold backslashes, leading dots
/// and apostrophes, hyphens and non-ASCII characters; the page itself is pure ASCII, so it needs
/// no input encoding (`groff -man` reads it as it is, without `preconv`).
struct ManPageReference {
    let registry: CommandRegistry

    var text: String {
        var lines = [
            #".\" "# + CommandReference.provenance(.man),
            ".TH "
                + [ToolInfo.name.uppercased(), "1", "", ToolInfo.versionLine, "User Commands"]
                .map(Self.argument).joined(separator: " "),
            // No hyphenation and a ragged right margin: an option name is never split or stretched.
            ".nh",
            ".ad l",
            ".SH NAME",
            Self.escape("\(ToolInfo.name) - \(Self.nameLine(ToolInfo.overview))"),
            ".SH SYNOPSIS",
        ]
        lines += CommandReference.invocations.map(Self.synopsis).joined(separator: [".br"])
        lines.append(".SH DESCRIPTION")
        lines += Self.paragraphs([ToolInfo.overview] + CommandReference.paragraphs(ToolInfo.discussion))
        lines += [
            ".PP",
            Self.escape(
                "'\(ToolInfo.name) help <command>' and '\(ToolInfo.name) <command> --help' "
                    + "print the help of one command, as it is given below."),
        ]
        lines.append(".SH COMMANDS")
        for (group, specs) in CommandReference.groups(registry) {
            lines.append(".SS " + Self.argument(group.rawValue))
            for spec in specs { lines += command(spec) }
        }
        lines.append(".SH OPTIONS")
        lines.append(Self.escape("Every command accepts these."))
        lines += OptionSpec.globals.flatMap(Self.option)
        lines.append(".SH EXIT STATUS")
        for code in ExitCode.allCases { lines += [".TP", Self.escape(String(code.rawValue)), Self.escape(code.summary)] }
        lines += [".PP", Self.escape(HelpFormatter.exitCodesNote)]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One command: its usage as the tag, then its abstract and discussion, and its arguments,
    /// options and exclusions indented below.
    private func command(_ spec: CommandSpec) -> [String] {
        var lines = [".TP", Self.synopsis(CommandReference.synopsis(of: spec)).joined(separator: " ")]
        lines += Self.paragraphs([spec.abstract] + CommandReference.paragraphs(spec.discussion), separator: ".IP")
        lines.append(".RS")
        if !spec.arguments.isEmpty {
            lines += [".PP", "Arguments:"]
            for argument in spec.arguments {
                lines += [".TP", Self.font("I", argument.name), Self.escape(argument.help)]
            }
        }
        if !spec.options.isEmpty {
            lines += [".PP", "Options:"]
            lines += spec.options.flatMap(Self.option)
        }
        for exclusion in CommandReference.exclusions(of: spec) { lines += [".PP", Self.escape(exclusion)] }
        lines += [".PP", Self.escape("The global options (OPTIONS) apply too.")]
        lines.append(".RE")
        return lines
    }

    /// `.TP`, the option's label in bold with its value in italics, and its help.
    private static func option(_ option: OptionSpec) -> [String] {
        var label = font("B", "--\(option.name)")
        if let short = option.shortName { label = font("B", "-\(short)") + ", " + label }
        if option.kind != .flag { label += " " + font("I", option.valueName) }
        return [".TP", label, escape(HelpFormatter.help(for: option))]
    }

    /// A synopsis line: literals in bold, placeholders in italics, one text line.
    private static func synopsis(_ words: [CommandReference.Word]) -> [String] {
        [
            CommandReference.render(
                words, literal: { font("B", $0) }, placeholder: { font("I", $0) }, text: { escape($0, atLineStart: false) },
                options: "[" + font("I", "options") + "]")
        ]
    }

    /// Paragraphs, `separator` between them (`.PP`, or `.IP` to stay in a `.TP` body).
    private static func paragraphs(_ texts: [String], separator: String = ".PP") -> [String] {
        texts.map { [escape($0)] }.joined(separator: [separator]).map { $0 }
    }

    /// `\fBtext\fR`: `text` in the font `name` (`B` bold, `I` italic), escaped.
    static func font(_ name: String, _ text: String) -> String {
        #"\f"# + name + escape(text, atLineStart: false) + #"\fR"#
    }

    /// `Upgrade, inspect ... store.` → `upgrade, inspect ... store` for the NAME line.
    private static func nameLine(_ overview: String) -> String {
        let sentence = overview.hasSuffix(".") ? String(overview.dropLast()) : overview
        return sentence.prefix(1).lowercased() + sentence.dropFirst()
    }

    /// A macro argument in double quotes; a quote inside is `\(dq`.
    static func argument(_ text: String) -> String {
        "\"" + escape(text, atLineStart: false).replacingOccurrences(of: "\"", with: #"\(dq"#) + "\""
    }

    /// Text for one roff line: a backslash as `\e`, a hyphen as `\-` (so that options copied from
    /// the page are typed with ASCII hyphens), any non-ASCII character as `\[uXXXX]`, line breaks as
    /// spaces; at the start of a line, `\&` before a `.` or `'`, which roff would read as a request.
    static func escape(_ text: String, atLineStart: Bool = true) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += #"\e"#
            case "-": escaped += #"\-"#
            case "\n": escaped += " "
            case _ where !scalar.isASCII:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += #"\[u"# + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        if atLineStart, let first = escaped.first, first == "." || first == "'" { escaped = #"\&"# + escaped }
        return escaped
    }
}
