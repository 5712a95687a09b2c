/// status, plan, migrate, verify, rollback.
enum UpgradingHooks {
    static let hooks: [String: CommandHook] = [:]
}
