import Foundation
import JSONStore

/// `migrate-store migrate <store> [--to N] [--backup-dir DIR | --no-backup]`.
///
/// Plans first (read-only); when nothing would change it says so and writes nothing at all.
/// Otherwise it takes a verified backup (unless `--no-backup`), then migrates under the lock
/// through every step of the chain up to the target in one pass (spec §6, §9):
/// idempotent, resumable, `store.json` written last.
struct MigrateCommand: Subcommand {
    static let backupDir = OptionSpec.string(
        "backup-dir", valueName: "dir",
        help: "Where to create the backup taken before the first write. The default is a new directory next to the store.")
    static let noBackup = OptionSpec.flag(
        "no-backup", help: "Don't take a backup. Use only when you have your own copy of the store.")
    static let allowBreaking = OptionSpec.flag(
        "allow-breaking",
        help:
            "Take a breaking step (--to \(MigrationChain.folderRenamingStep.to)): older app versions are refused afterwards. Needs a backup (not with --no-backup)."
    )

    private static let breaking = MigrationChain.folderRenamingStep

    static let spec = CommandSpec(
        name: "migrate", group: .upgrading,
        abstract: "Upgrade a store to a newer schema version.",
        discussion: """
            Takes a backup and verifies it before the first write (unless --no-backup is given), \
            migrates every document, and \
            writes store.json last. Without --to it goes to the newest version that every app \
            version the store admits can still read (along the rollback-safe steps, which only \
            add keys). If a \
            migration was interrupted, running 'migrate' again finishes it. On a store already at \
            the target version it only brings up to date what an older app version wrote since \
            (the reconcile 'plan' shows), if anything. A breaking step (v\(breaking.from) → \
            v\(breaking.to): older app versions are refused afterwards) runs only with \
            --to \(breaking.to) --allow-breaking, after a verified backup; 'migrate --to \
            \(breaking.from)' on a v\(breaking.to) store runs its exact inverse.
            """,
        arguments: [.store],
        options: [TargetVersion.option, allowBreaking, backupDir, noBackup],
        mutuallyExclusive: [[backupDir.name, noBackup.name], [allowBreaking.name, noBackup.name]])

    let path: String
    let backup: StoreUpgrade.BackupPolicy
    let target: Int?
    let breakingAllowed: Bool

    init(_ arguments: ParsedArguments) throws {
        target = try TargetVersion.read(arguments)
        breakingAllowed = arguments.flag(Self.allowBreaking)
        path = arguments.value(.store)
        backup = arguments.flag(Self.noBackup) ? .none : arguments.string(Self.backupDir).map(StoreUpgrade.BackupPolicy.folder) ?? .defaultFolder
    }

    func run(_ out: Output) throws -> ExitCode {
        if let target {
            let compatibility = try Store.classify(path)
            let from = compatibility.storeSchemaVersion
            // A store the reader rule refuses is refused as such (the library says so), whatever the target.
            if compatibility.refusal == nil {
                try TargetVersion.refuseGoingBack(target, from: from, store: path, command: Self.spec.name)
            }
            if compatibility.refusal == nil && StoreUpgrade.takesBreakingStep(from: from, to: target) && !breakingAllowed {
                throw UsageError(
                    "Can't migrate '\(path)' to schema version \(target) without --allow-breaking: "
                        + StoreUpgrade.breakingConsequence(from: from, to: target) + ". See every change first with '"
                        + ToolInfo.command("plan", path, "--to", String(target)) + "'. To proceed, run '"
                        + ToolInfo.command("migrate", path, "--to", String(target), "--allow-breaking")
                        + "' (a verified backup is taken first; '" + ToolInfo.command("migrate", path, "--to", String(target - 1))
                        + "' goes back exactly). Nothing was changed.", command: Self.spec.name)
            }
        }
        let progress = UpgradeProgress(out, store: path)
        let outcome = try StoreUpgrade.run(
            at: path, to: target, backup: backup, allowBreaking: breakingAllowed, tool: ToolInfo.name,
            version: ToolInfo.version
        ) { progress.show($0) }
        progress.finish()
        switch outcome {
        case .newerStore(let version):
            out.print("'\(path)' is at schema version \(version), newer than \(MigrationChain.newest): nothing to migrate.")
            out.emitJSON(["store": .string(path), "from": .int(version), "to": .int(version), "noop": .bool(true), "backup": .null, "files_changed": .int(0)])
        case .alreadyCurrent(let plan, let from):
            out.print("'\(path)' is already at version \(from): nothing to do, no document was changed.")
            out.emitJSON(
                ReportRendering.json(plan, documents: false).merging(["store": .string(path), "from": .int(from), "to": .int(from), "backup": .null]) { a, _ in
                    a
                })
        case .doneByAnotherProcess(let plan, let from, let to):
            out.print(
                "'\(path)' was migrated to version \(to) by another process while this one waited for the lock: nothing to do, no document was changed, no backup was taken."
            )
            out.emitJSON(
                ReportRendering.json(plan, documents: false).merging([
                    "store": .string(path), "from": .int(from), "to": .int(to), "backup": .null,
                    "done_by_another_process": .bool(true),
                ]) { a, _ in a })
        case .upgraded(let report, let from, let to, let backup):
            let steps = MigrationChain.steps(from: from, to: to)
            let how = steps.count > 1 ? " in \(steps.count) steps" : ""
            out.print("Migrated '\(path)' from schema version \(from) to \(to)\(how): " + ReportRendering.totals(report) + ".")
            var backupJSON: [String: JSONOutputValue] = [:]
            if let backup {
                out.print("Check it against the backup with: " + ToolInfo.command("verify", path, "--against", backup))
                backupJSON = BackupListRendering.describeAfterMigrate(backup: backup, store: path, out)
            }
            if StoreUpgrade.takesBreakingStep(from: from, to: to) {
                out.info(
                    "From now on only app \(ChainRendering.readers(at: to).replacingOccurrences(of: " only", with: "")) can open the store (older ones are refused); '\(ToolInfo.command("migrate", path, "--to", String(to - 1)))' goes back exactly."
                )
            } else if backup != nil {
                out.info(
                    "App \(ChainRendering.readers(at: to)) can read and write the migrated store as it is; 'migrate-store rollback' restores the old bytes exactly."
                )
            } else {
                out.info("App \(ChainRendering.readers(at: to)) can read and write the migrated store as it is. No backup was taken.")
            }
            out.emitJSON(
                ReportRendering.json(report, documents: false).merging([
                    "store": .string(path), "from": .int(from), "to": .int(to),
                    "steps": ChainRendering.stepsJSON(steps),
                    "backup": backup.map(JSONOutputValue.string) ?? .null,
                ]) { a, _ in a }
                .merging(backupJSON) { a, _ in a })
        }
        return .success
    }
}
