/// backup, verify-backup, restore, export, import.
enum BackupHooks {
    static let hooks: [String: CommandHook] = [
        "backup": BackupCommand.run,
        "verify-backup": VerifyBackupCommand.run,
        "restore": RestoreCommand.run,
        "export": ExportCommand.run,
        "import": ImportCommand.run,
    ]
}
