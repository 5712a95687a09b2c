import Foundation

// TEMPORARY: no command has an implementation yet, so every command fails with
// "Error: '<command>' is not implemented yet." and exit status 70. Add each
// implementation to `hooks` as it lands, e.g. `"status": StatusCommand.run`.
let registry = CommandRegistry(
    hooks: [
        "backup": BackupCommand.run, "verify-backup": VerifyBackupCommand.run, "restore": RestoreCommand.run,
        "export": ExportCommand.run, "import": ImportCommand.run,
    ],
    fallback: CommandRegistry.notImplemented)

let code = CommandLineTool(registry: registry)
    .run(Array(CommandLine.arguments.dropFirst()), output: Output(streams: .process))
exit(code.rawValue)
