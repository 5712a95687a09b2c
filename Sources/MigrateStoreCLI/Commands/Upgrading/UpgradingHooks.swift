/// status, plan, migrate, verify, rollback.
enum UpgradingHooks {
    static let hooks: [String: CommandHook] = [
        "status": StatusCommand.run,
        "plan": PlanCommand.run,
        "migrate": MigrateCommand.run,
        "verify": VerifyCommand.run,
        "rollback": RollbackCommand.run,
    ]
}
