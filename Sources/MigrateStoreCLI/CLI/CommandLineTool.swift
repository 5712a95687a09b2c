/// The whole command-line tool: parses the words after `migrate-store`, prints help or
/// the version, dispatches to a command, and turns what happened into an exit status.
///
/// Accepted shapes:
///
/// ```
/// migrate-store [--json] [--quiet] <command> <arguments and options>
/// migrate-store help [<command> | exit-codes]
/// migrate-store <command> --help | -h
/// migrate-store --version | --help | -h
/// migrate-store help --markdown | --man     (hidden: the reference files, see CommandReference)
/// ```
///
/// Errors are printed as `Error: <message>`; usage errors add `Usage: ...` and
/// `See 'migrate-store help <command>'.` and exit with 64. With `--json`, standard output
/// always gets exactly one JSON object: the command's, or `{"error": {...}}` on failure,
/// or a bare `{"command": ..., "format_version": 1}` when a successful command wrote none.
struct CommandLineTool {
    let registry: CommandRegistry

    /// Runs the tool and returns the exit status. Never throws and never exits the process.
    ///
    /// - Parameters:
    ///   - words: The command line without the program name (`CommandLine.arguments.dropFirst()`).
    ///   - output: Where to print; its JSON and quiet modes are set from `words`.
    func run(_ words: [String], output: Output) -> ExitCode {
        let optionWords = words.prefix { $0 != "--" }
        output.isJSON = optionWords.contains("--json")
        output.isQuiet = optionWords.contains("--quiet")
        let code: ExitCode
        do {
            code = try dispatch(words.drop { $0 == "--json" || $0 == "--quiet" }, output: output)
        } catch {
            code = report(error, output: output)
        }
        if output.isJSON && !output.hasEmittedJSON && code == .success { output.emitJSON([:]) }
        return code
    }

    private func dispatch(_ words: ArraySlice<String>, output: Output) throws -> ExitCode {
        guard let first = words.first else { throw UsageError("Missing command.") }
        let rest = Array(words.dropFirst())
        switch first {
        case "--version":
            return printVersion(output)
        case "--help", "-h", "help":
            output.command = "help"
            return try printHelp(topics: first == "help" ? rest : [], output: output)
        case _ where first.hasPrefix("-") && first != "-":
            let names = OptionSpec.globals.map(\.name)
            let bare = String(first.drop { $0 == "-" })
            throw UsageError("Unknown option '\(first)'." + Suggestion.didYouMean(bare, in: names, prefix: "--"))
        default:
            guard let command = registry.command(named: first) else { throw unknownCommand(first) }
            output.command = command.spec.name
            return try run(command, rest, output: output)
        }
    }

    private func run(_ command: Command, _ words: [String], output: Output) throws -> ExitCode {
        switch ArgumentParser.requestedInformation(in: words) {
        case .help: return show(HelpFormatter.help(for: command.spec), output: output)
        case .version: return printVersion(output)
        case nil: break
        }
        let arguments = try ArgumentParser(spec: command.spec).parse(words)
        return try command.run(arguments, output)
    }

    // MARK: Help and version

    private func printHelp(topics words: [String], output: Output) throws -> ExitCode {
        let ignored: Set = ["--json", "--quiet", "--help", "-h"]
        let formats = CommandReference.Format.allCases.filter { words.contains($0.option) }
        let topics = words.filter { !ignored.contains($0) && CommandReference.Format(option: $0) == nil }
        if let option = topics.first(where: { $0.hasPrefix("-") }) {
            throw UsageError("Unknown option '\(option)'.", command: "help")
        }
        if let format = formats.first {
            // Hidden options: the reference files are written from them (CommandReference).
            guard formats.count == 1 else {
                throw UsageError(
                    "Options \(ArgumentParser.quotedList(formats.map(\.option), conjunction: "and")) "
                        + "cannot be used together.", command: "help")
            }
            if let topic = topics.first { throw UsageError("Unexpected argument '\(topic)'.", command: "help") }
            return show(CommandReference.text(format, registry: registry), output: output)
        }
        guard let topic = topics.first else { return show(HelpFormatter.toolHelp(registry), output: output) }
        guard topics.count == 1 else { throw UsageError("Unexpected argument '\(topics[1])'.", command: "help") }
        if topic == HelpFormatter.exitCodesTopic { return show(HelpFormatter.exitCodesHelp(), output: output) }
        guard let command = registry.command(named: topic) else { throw unknownCommand(topic, topics: true) }
        return show(HelpFormatter.help(for: command.spec), output: output)
    }

    /// Help text goes to standard output; with `--json`, inside the JSON object as `help`.
    private func show(_ help: String, output: Output) -> ExitCode {
        output.print(help.hasSuffix("\n") ? String(help.dropLast()) : help)
        output.emitJSON(["help": .string(help)])
        return .success
    }

    private func printVersion(_ output: Output) -> ExitCode {
        output.command = "version"
        output.print(ToolInfo.versionLine)
        output.emitJSON(["name": .string(ToolInfo.name), "version": .string(ToolInfo.version)])
        return .success
    }

    private func unknownCommand(_ name: String, topics: Bool = false) -> UsageError {
        let candidates = registry.names + (topics ? [HelpFormatter.exitCodesTopic] : [])
        return UsageError(
            "Unknown command '\(name)'." + Suggestion.didYouMean(name, in: candidates),
            command: topics ? "help" : nil)
    }

    // MARK: Errors

    /// Prints `error` and returns its exit status.
    private func report(_ error: any Error, output: Output) -> ExitCode {
        let (code, message): (ExitCode, String)
        if let known = error as? any ExitCodeError {
            (code, message) = (known.exitCode, known.printedMessage)
        } else {
            (code, message) = (.internalError, "Internal error: \(String(describing: error))")
        }
        output.error(message)
        if let usageError = error as? UsageError { printUsage(for: usageError.command, output: output) }
        if !output.hasEmittedJSON {
            output.emitJSON(["error": ["exit_code": .int(Int(code.rawValue)), "message": .string(message)]])
        }
        return code
    }

    /// `Usage: ...` and `See 'migrate-store help <command>'.` on standard error.
    private func printUsage(for name: String?, output: Output) {
        if let name, name != "help", let spec = registry.command(named: name)?.spec {
            output.streams.standardError("Usage: \(spec.usage)\nSee '\(ToolInfo.name) help \(name)'.\n")
        } else if name == "help" {
            output.streams.standardError("Usage: \(ToolInfo.name) help [<command>]\nSee '\(ToolInfo.name) help'.\n")
        } else {
            output.streams.standardError("Usage: \(ToolInfo.name) <command> [options]\nSee '\(ToolInfo.name) help'.\n")
        }
    }
}
