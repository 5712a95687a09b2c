/// ls, show, queue, stats, validate: read-only commands (the store is opened with
/// `Store.Options.readOnly`: no lock file, no temp-file sweep, nothing written).
enum InspectingHooks {
    static let hooks: [String: CommandHook] = [
        "ls": { try ListCommand.run($0, $1) },
        "show": { try ShowCommand.run($0, $1) },
        "queue": { try QueueCommand.run($0, $1) },
        "stats": { try StatsCommand.run($0, $1) },
        "validate": { try ValidateCommand.run($0, $1) },
    ]
}
