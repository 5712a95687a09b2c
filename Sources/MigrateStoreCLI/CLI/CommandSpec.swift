/// The declaration of one subcommand: its name, help text, arguments and options.
///
/// A spec is data only. The parser reads it to turn a command line into
/// ``ParsedArguments``, the help formatter reads it to print help, and the
/// ``CommandRegistry`` pairs it with the hook that runs the command.
///
/// ```swift
/// CommandSpec(
///     name: "plan", group: .upgrading,
///     abstract: "Show what a migration would change, without writing anything.",
///     arguments: [.store],
///     options: [.integer("to", valueName: "version", help: "The target schema version.", default: 2)])
/// ```
struct CommandSpec: Sendable {
    /// The word users type after `migrate-store`.
    var name: String
    /// The section of the top-level help that lists the command.
    var group: CommandGroup
    /// One line, ending with a period: shown in the command list and as `OVERVIEW:`.
    var abstract: String
    /// A paragraph or two shown under the overview in the command's help. The default is empty.
    var discussion: String = ""
    /// The positional arguments, all required, in order.
    var arguments: [ArgumentSpec] = []
    /// The command's own options. The global options (``OptionSpec/globals``) are added by the parser.
    var options: [OptionSpec] = []
    /// Groups of option names of which at most one may be given.
    var mutuallyExclusive: [[String]] = []

    /// The command's options followed by the global ones: everything the parser accepts.
    var allOptions: [OptionSpec] { options + OptionSpec.globals }

    /// The option with this name (without dashes), among ``allOptions``.
    func option(named name: String) -> OptionSpec? {
        allOptions.first { $0.name == name }
    }

    /// The usage line: `migrate-store rollback <store> --from-backup <backup> [options]`.
    var usage: String {
        let parts =
            [ToolInfo.name, name]
            + arguments.map { "<\($0.name)>" }
            + options.filter(\.isRequired).map(\.synopsis)
            + ["[options]"]
        return parts.joined(separator: " ")
    }
}

/// A section of the top-level help.
enum CommandGroup: String, Sendable, CaseIterable {
    case upgrading = "Upgrading"
    case inspecting = "Inspecting"
    case backupAndRestore = "Backup and restore"
}

/// A required positional argument.
struct ArgumentSpec: Sendable, Equatable {
    /// The name shown in angle brackets (`<store>`) and the key for ``ParsedArguments/argument(_:)``.
    var name: String
    /// One line of help.
    var help: String
    /// What the path must name, checked before the command runs (see ``PathRole``). The default is none.
    var role: PathRole? = nil

    /// `<store>`: an existing store directory, the first argument of the commands that read or
    /// change one in place (those that restore or create a store declare their own).
    static let store = ArgumentSpec(name: "store", help: "The store directory.", role: .store)
    /// `<backup>`: a backup made by `migrate-store backup` or by `migrate`.
    static let backup = ArgumentSpec(
        name: "backup", help: "A backup directory made by '\(ToolInfo.name) backup' or 'migrate'.", role: .backup)
}

/// A named option: `--name`, `--name VALUE` or `--name=VALUE`.
struct OptionSpec: Sendable, Equatable {
    /// What kind of value the option takes.
    enum Kind: Sendable, Equatable {
        /// No value; present or absent (`--force`).
        case flag
        /// Any string (`--backup-dir DIR`).
        case string
        /// A base-10 integer, at least `minimum` when one is given (`--messages 5`).
        case integer(minimum: Int?)
        /// One of a fixed set of words (`--sort name`).
        case choice([String])
        /// Comma-separated values; the option may be repeated and the values add up (`--locked A,B`).
        case list
    }

    /// The long name without the leading dashes.
    var name: String
    var kind: Kind
    /// The placeholder shown in help and usage (`<dir>`). Unused for flags.
    var valueName: String = "value"
    /// One line of help, ending with a period.
    var help: String
    /// When true, the command line must contain the option. The default is `false`.
    var isRequired: Bool = false
    /// The value used when the option is absent, as it would be typed. The default is none.
    var defaultValue: String? = nil
    /// A single-letter alias without the dash (only `h` for `--help` today).
    var shortName: Character? = nil
    /// For a path, what it must name, checked before the command runs (see ``PathRole``). The default is none.
    var role: PathRole? = nil

    /// `--name` for flags, `--name <value>` otherwise.
    var synopsis: String {
        kind == .flag ? "--\(name)" : "--\(name) <\(valueName)>"
    }

    /// A flag: `--force`.
    static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, help: help)
    }

    /// A string option: `--backup-dir <dir>`.
    static func string(_ name: String, valueName: String, help: String, required: Bool = false, role: PathRole? = nil) -> OptionSpec {
        OptionSpec(name: name, kind: .string, valueName: valueName, help: help, isRequired: required, role: role)
    }

    /// An integer option: `--to <version>`.
    static func integer(
        _ name: String, valueName: String, help: String, minimum: Int? = nil, default value: Int? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, kind: .integer(minimum: minimum), valueName: valueName, help: help,
            defaultValue: value.map(String.init))
    }

    /// An option whose value is one of `choices`: `--sort <order>`.
    static func choice(_ name: String, valueName: String, choices: [String], help: String, default value: String)
        -> OptionSpec
    {
        precondition(choices.contains(value), "default '\(value)' of --\(name) is not one of its choices")
        return OptionSpec(name: name, kind: .choice(choices), valueName: valueName, help: help, defaultValue: value)
    }

    /// A repeatable, comma-separated list option: `--locked <id,...>`.
    static func list(_ name: String, valueName: String, help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .list, valueName: valueName, help: help)
    }

    /// The options every command accepts.
    static let globals: [OptionSpec] = [
        .flag("json", help: "Print one JSON object on standard output."),
        .flag("quiet", help: "Print only results and errors: no progress or info."),
        .flag("version", help: "Print the version and exit."),
        OptionSpec(name: "help", kind: .flag, help: "Show help information.", shortName: "h"),
    ]
}
