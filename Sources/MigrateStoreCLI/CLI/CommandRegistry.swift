/// The commands the tool knows, in the order the top-level help lists them.
///
/// ```swift
/// let tool = CommandLineTool(registry: CommandRegistry())   // every command of `all`
/// ```
struct CommandRegistry: Sendable {
    /// Every command type, in help order: the one list a new command is added to.
    static let all: [any Subcommand.Type] = [
        StatusCommand.self, PlanCommand.self, MigrateCommand.self, VerifyCommand.self, RollbackCommand.self,
        ListCommand.self, ShowCommand.self, QueueCommand.self, StatsCommand.self, SettingsCommand.self, ValidateCommand.self,
        BackupCommand.self, VerifyBackupCommand.self, RestoreCommand.self, ExportCommand.self, ImportCommand.self,
        ImportCoreDataCommand.self, ListBackupsCommand.self, PruneBackupsCommand.self,
    ]

    /// Every command, in help order.
    let commands: [Command]

    /// The commands of `types`, with the code of some replaced by `replacing[name]` (a seam for
    /// tests that exercise parsing and output only).
    ///
    /// - Precondition: command names are unique and aren't `help`, and every key of `replacing`
    ///   names a command. These are mistakes in the code, not in the command line.
    init(_ types: [any Subcommand.Type] = CommandRegistry.all, replacing hooks: [String: CommandHook] = [:]) {
        let names = types.map { $0.spec.name }
        precondition(Set(names).count == names.count, "two commands share a name: \(names)")
        precondition(!names.contains("help"), "'help' is built in and can't be a registered command")
        for name in hooks.keys {
            precondition(names.contains(name), "a replacement is given for '\(name)', which is no command")
        }
        var commands: [Command] = []
        for type in types {
            if let hook = hooks[type.spec.name] {
                commands.append(Command(spec: type.spec, run: hook))
            } else {
                commands.append(Command(type))
            }
        }
        self.commands = commands
    }

    /// The command with this exact name.
    func command(named name: String) -> Command? {
        commands.first { $0.spec.name == name }
    }

    /// Every name that can follow `migrate-store`, for "Did you mean" suggestions.
    var names: [String] { commands.map(\.spec.name) + ["help"] }
}
