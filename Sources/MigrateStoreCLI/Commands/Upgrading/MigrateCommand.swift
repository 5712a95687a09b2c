import Foundation
import JSONStore

/// `migrate-store migrate <store> [--to 2] [--backup-dir DIR | --no-backup]`.
///
/// Plans first (read-only); when nothing would change it says so and writes nothing at all.
/// Otherwise it takes a verified backup (unless `--no-backup`), then migrates under the lock
/// (spec §6): idempotent, resumable, `store.json` written last.
struct MigrateCommand: Subcommand {
    static let backupDir = OptionSpec.string(
        "backup-dir", valueName: "dir",
        help: "Where to create the backup taken before the first write. The default is a new directory next to the store.")
    static let noBackup = OptionSpec.flag(
        "no-backup", help: "Don't take a backup. Use only when you have your own copy of the store.")

    static let spec = CommandSpec(
        name: "migrate", group: .upgrading,
        abstract: "Upgrade a store to a newer schema version.",
        discussion: """
            Takes a backup and verifies it before the first write, migrates every document, and \
            writes store.json last. If a migration was interrupted, running 'migrate' again \
            finishes it. Migrating a store that is already at the target version changes nothing.

            The app's older versions can still read the migrated store: schema version 2 only adds keys.
            """,
        arguments: [.store],
        options: [TargetVersion.option, backupDir, noBackup],
        mutuallyExclusive: [[backupDir.name, noBackup.name]])

    let path: String
    /// Where to back up first; nil with `--no-backup` (the default folder when `backup-dir` is absent).
    let backup: BackupChoice

    enum BackupChoice: Sendable { case none, defaultFolder, folder(String) }

    init(_ arguments: ParsedArguments) throws {
        try TargetVersion.check(arguments)
        path = arguments.value(.store)
        backup = arguments.flag(Self.noBackup) ? .none : arguments.string(Self.backupDir).map(BackupChoice.folder) ?? .defaultFolder
    }

    func run(_ out: Output) throws -> ExitCode {
        let reader = try Store.open(at: path, options: StoreArgument.options(readOnly: true))
        switch reader.compatibility {
        case .superseded(let version, _):
            out.print("'\(path)' is at schema version \(version), newer than 2: nothing to migrate.")
            out.emitJSON(["store": .string(path), "from": .int(version), "to": .int(2), "noop": .bool(true), "backup": .null, "files_changed": .int(0)])
            return .success
        case .refused:
            throw CommandError(.dataError, "Can't migrate '\(path)': \(reader.compatibility.refusal!).")
        case .current, .needsMigration:
            break
        }
        let from = StatusCommand.versions(try reader.manifest()).0
        // A v1 store always changes. A v2 store changes only after a v1 writer touched it (§7):
        // find out read-only first, so that an up-to-date store gets no backup and no write at all.
        if from >= 2, case let plan = try StoreMigrator(store: reader).plan(toolVersion: ToolInfo.version), plan.isNoop {
            if try StoreMigrator(store: reader).hasLeftoverTemporaryFiles() {
                // An earlier run was interrupted after its last rename: opening for writing sweeps its temp files.
                _ = try Store.open(at: path, options: StoreArgument.options(readOnly: false))
            }
            out.print("'\(path)' is already at version 2: nothing to do, no file was changed.")
            out.emitJSON(ReportRendering.json(plan).merging(["store": .string(path), "from": .int(from), "to": .int(2), "backup": .null]) { a, _ in a })
            return .success
        }
        // Read and validate every document before the first write (a v2 store was just planned):
        // bad input changes nothing, not even the lock file.
        if from < 2 { try StoreMigrator(store: reader).validate() }
        let store = try Store.open(at: path, options: StoreArgument.options(readOnly: false))
        for warning in store.warnings { out.warning(warning) }
        // One lock for the backup and the migration: no writer can slip in between them.
        let lock = try StoreLock(store: path, tool: ToolInfo.name, version: ToolInfo.version)
        defer { lock.release() }
        let backup = try MigrationBackup.take(backup, store: path, holding: lock, out: out)
        let report = try out.withProgress("Migrating", total: nil) { progress in
            try StoreMigrator(store: store).migrate(toolVersion: ToolInfo.version, holding: lock, keepingDocuments: false) { done, total in
                progress.update(done, detail: "\(done)/\(total) work streams")
            }
        }
        out.print("Migrated '\(path)' from schema version \(from) to 2: " + ReportRendering.totals(report) + ".")
        if let backup {
            out.print("Check it against the backup with: migrate-store verify \(path) --against \(backup)")
        }
        out.info("A v1 app can read and write the migrated store as it is; 'migrate-store rollback' restores the old bytes exactly.")
        out.emitJSON(ReportRendering.json(report).merging(["store": .string(path), "from": .int(from), "to": .int(2),
                                                           "backup": backup.map(JSONOutputValue.string) ?? .null]) { a, _ in a })
        return .success
    }
}
