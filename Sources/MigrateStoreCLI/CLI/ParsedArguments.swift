/// The arguments of one command line, checked against its ``CommandSpec``.
///
/// Everything here has already been validated by ``ArgumentParser``: required
/// arguments are present, integers parse, choices are valid, defaults are filled
/// in. Asking for a name the spec doesn't declare is a programmer error and stops
/// the program.
///
/// ```swift
/// let store = arguments.argument("store")          // "/data/store"
/// let target = arguments.integer("to") ?? 2         // default already applied: 2
/// let locked = arguments.list("locked")             // ["a", "b"] for --locked a,b
/// if arguments.flag("force") { ... }
/// ```
struct ParsedArguments: Sendable, Equatable {
    /// The subcommand's name (`"migrate"`).
    let command: String
    /// Positional arguments by their spec name.
    private(set) var positionals: [String: String] = [:]
    /// Values of string, integer and choice options, including defaults, by option name.
    private(set) var values: [String: String] = [:]
    /// Values of list options, split at commas, in command-line order.
    private(set) var lists: [String: [String]] = [:]
    /// The flags that were given.
    private(set) var flags: Set<String> = []
    /// The options and flags written on the command line (defaults excluded).
    private(set) var given: Set<String> = []
    /// Every declared argument and option name, to catch typos in command code.
    private let declared: Set<String>

    init(spec: CommandSpec) {
        command = spec.name
        declared = Set(spec.arguments.map(\.name) + spec.allOptions.map(\.name))
    }

    /// True when `--json` was given: print one JSON object instead of text.
    var isJSON: Bool { flags.contains("json") }
    /// True when `--quiet` was given: no progress or information, only results and errors.
    var isQuiet: Bool { flags.contains("quiet") }

    /// The value of a positional argument. Positional arguments are always required, so
    /// the value is always there.
    func argument(_ name: String) -> String {
        checkDeclared(name)
        guard let value = positionals[name] else {
            preconditionFailure("'\(name)' is an option of '\(command)', not a positional argument")
        }
        return value
    }

    /// The value of a string or choice option, or its default, or nil when absent without default.
    func option(_ name: String) -> String? {
        checkDeclared(name)
        return values[name]
    }

    /// The value of an integer option, or its default, or nil when absent without default.
    func integer(_ name: String) -> Int? {
        option(name).map { text in
            guard let number = Int(text) else { preconditionFailure("--\(name) is not an integer option") }
            return number
        }
    }

    /// The values of a list option (`--locked a,b --locked c` → `["a", "b", "c"]`); empty when absent.
    func list(_ name: String) -> [String] {
        checkDeclared(name)
        return lists[name] ?? []
    }

    /// True when the flag was given.
    func flag(_ name: String) -> Bool {
        checkDeclared(name)
        return flags.contains(name)
    }

    /// True when the option or flag was written on the command line (a default doesn't count).
    func wasGiven(_ name: String) -> Bool {
        checkDeclared(name)
        return given.contains(name)
    }

    private func checkDeclared(_ name: String) {
        precondition(declared.contains(name), "'\(command)' declares no argument or option named '\(name)'")
    }

    // MARK: Building (used by ArgumentParser)

    mutating func setPositional(_ name: String, _ value: String) { positionals[name] = value }
    mutating func setDefault(_ name: String, _ value: String) { values[name] = value }
    mutating func setValue(_ name: String, _ value: String) { values[name] = value; given.insert(name) }
    mutating func appendList(_ name: String, _ items: [String]) { lists[name, default: []] += items; given.insert(name) }
    mutating func setFlag(_ name: String) { flags.insert(name); given.insert(name) }
}

// MARK: Typed access through the spec's own declarations

extension ParsedArguments {
    /// The value of a positional argument the command's spec declares (`arguments.value(.store)`).
    func value(_ argument: ArgumentSpec) -> String { self.argument(argument.name) }

    /// True when the flag was given.
    func flag(_ option: OptionSpec) -> Bool {
        precondition(option.kind == .flag, "--\(option.name) is not a flag")
        return flag(option.name)
    }

    /// The value of a string or choice option, or its default, or nil when absent without default.
    func string(_ option: OptionSpec) -> String? { self.option(option.name) }

    /// The value of an integer option, or its default, or nil when absent without default.
    func integer(_ option: OptionSpec) -> Int? { integer(option.name) }

    /// The values of a list option; empty when absent.
    func list(_ option: OptionSpec) -> [String] { list(option.name) }
}
