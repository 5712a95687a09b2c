import Foundation

/// Turns the words after the command name into ``ParsedArguments``, following
/// swift-argument-parser's conventions.
///
/// - `--name VALUE` and `--name=VALUE` set an option; `--flag` sets a flag.
/// - A list option takes comma-separated values and may be repeated: `--locked a,b --locked c`.
/// - `--` ends the options: every later word is a positional argument, even `--json`.
/// - `-` alone is a positional argument (standard input or output).
/// - Defaults from the spec are filled in for options that weren't given.
///
/// `--help`, `-h` and `--version` are found before parsing by ``requestedInformation(in:)``,
/// so that `migrate-store migrate --help` shows help even though `<store>` is missing.
///
/// ```swift
/// let parsed = try ArgumentParser(spec: migrateSpec).parse(["/data/store", "--to=2"])
/// parsed.integer("to")   // 2
/// ```
struct ArgumentParser {
    /// The command whose arguments are parsed.
    let spec: CommandSpec

    /// What `--help`, `-h` or `--version` asks for instead of running the command.
    enum Information: Equatable { case help, version }

    /// The first `--help`, `-h` or `--version` before any `--`, if any.
    static func requestedInformation(in words: [String]) -> Information? {
        for word in words {
            switch word {
            case "--": return nil
            case "--help", "-h": return .help
            case "--version": return .version
            default: continue
            }
        }
        return nil
    }

    /// Parses `words` (the command line after the command name).
    ///
    /// - Throws: ``UsageError`` naming the first problem: an unknown option (with a
    ///   suggestion when one is close), a missing or malformed value, a missing or
    ///   unexpected argument, a missing required option, or exclusive options together.
    func parse(_ words: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(spec: spec)
        var positionals: [String] = []
        var remaining = words[...]
        var optionsEnded = false
        while let word = remaining.popFirst() {
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
            } else if word == "--" {
                optionsEnded = true
            } else {
                try parseOption(word, rest: &remaining, into: &parsed)
            }
        }
        try assign(positionals, to: &parsed)
        try checkRequiredAndExclusive(parsed)
        for option in spec.allOptions where !parsed.wasGiven(option.name) {
            if let value = option.defaultValue { parsed.setDefault(option.name, value) }
        }
        return parsed
    }

    // MARK: Options

    private func parseOption(
        _ word: String, rest: inout ArraySlice<String>, into parsed: inout ParsedArguments
    ) throws(UsageError) {
        let (written, inline) = split(word)
        guard written.hasPrefix("--"), let option = spec.option(named: String(written.dropFirst(2))) else {
            throw unknownOption(written)
        }
        if option.kind == .flag {
            guard inline == nil else { throw usage("Flag '--\(option.name)' doesn't take a value.") }
            parsed.setFlag(option.name)
            return
        }
        let value = try takeValue(for: option, inline: inline, rest: &rest)
        if option.kind == .list {
            parsed.appendList(option.name, Self.splitList(value))
            return
        }
        guard !parsed.wasGiven(option.name) else {
            throw usage("Option '--\(option.name)' was given more than once.")
        }
        try validate(value, for: option)
        parsed.setValue(option.name, value)
    }

    /// `--name=value` → (`--name`, `value`); `--name` → (`--name`, nil).
    private func split(_ word: String) -> (name: String, value: String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    private func takeValue(
        for option: OptionSpec, inline: String?, rest: inout ArraySlice<String>
    ) throws(UsageError) -> String {
        let missing = usage("Missing value for '\(option.synopsis)'.")
        if let inline {
            // `--locked=` is an explicit empty list; `--to=` is a mistake.
            guard !inline.isEmpty || option.kind == .list else { throw missing }
            return inline
        }
        guard let next = rest.first, !next.hasPrefix("--") else { throw missing }
        return rest.removeFirst()
    }

    private func validate(_ value: String, for option: OptionSpec) throws(UsageError) {
        switch option.kind {
        case .integer(let minimum):
            guard let number = Int(value) else {
                throw usage("--\(option.name) expects an integer, got '\(value)'.")
            }
            if let minimum, number < minimum {
                throw usage("--\(option.name) expects an integer of at least \(minimum), got '\(value)'.")
            }
        case .choice(let choices):
            guard choices.contains(value) else {
                let list = Self.quotedList(choices, conjunction: "or")
                throw usage(
                    "--\(option.name) expects one of \(list), got '\(value)'."
                        + Suggestion.didYouMean(value, in: choices))
            }
        case .flag, .string, .list:
            break
        }
    }

    private func unknownOption(_ written: String) -> UsageError {
        let bare = String(written.drop { $0 == "-" })
        let names = spec.allOptions.map(\.name)
        return usage("Unknown option '\(written)'." + Suggestion.didYouMean(bare, in: names, prefix: "--"))
    }

    /// `"a, b,,c"` → `["a", "b", "c"]`: split at commas, trim spaces, drop empty items.
    static func splitList(_ value: String) -> [String] {
        value.split(separator: ",", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    // MARK: Positionals and constraints

    private func assign(_ positionals: [String], to parsed: inout ParsedArguments) throws(UsageError) {
        for (index, argument) in spec.arguments.enumerated() {
            guard index < positionals.count else {
                throw usage("Missing expected argument '<\(argument.name)>'.")
            }
            parsed.setPositional(argument.name, positionals[index])
        }
        if positionals.count > spec.arguments.count {
            throw usage("Unexpected argument '\(positionals[spec.arguments.count])'.")
        }
    }

    private func checkRequiredAndExclusive(_ parsed: ParsedArguments) throws(UsageError) {
        for option in spec.options where option.isRequired && !parsed.wasGiven(option.name) {
            throw usage("Missing required option '\(option.synopsis)'.")
        }
        for group in spec.mutuallyExclusive {
            let given = group.filter { parsed.wasGiven($0) }
            if given.count > 1 {
                let list = Self.quotedList(given.map { "--\($0)" }, conjunction: "and")
                throw usage("Options \(list) cannot be used together.")
            }
        }
    }

    private func usage(_ message: String) -> UsageError {
        UsageError(message, command: spec.name)
    }

    /// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
    static func quotedList(_ items: [String], conjunction: String) -> String {
        let quoted = items.map { "'\($0)'" }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
