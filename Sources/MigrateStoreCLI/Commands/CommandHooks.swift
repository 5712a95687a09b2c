/// The implementations of every command, by name, gathered from the command groups.
enum CommandHooks {
    static var all: [String: CommandHook] {
        UpgradingHooks.hooks
            .merging(InspectingHooks.hooks) { a, _ in a }
            .merging(BackupHooks.hooks) { a, _ in a }
    }
}
