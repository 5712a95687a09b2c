import JSONStore

/// `migrate-store restore <backup> <store> [--dry-run] [--force] [--migrate]` (see `Restore.run`).
///
/// A replaced store is kept next to it as `<store>.replaced-<yyyyMMdd'T'HHmmss'Z'>` (UTC).
/// Exit status: 0 restored (or, with --dry-run, would restore); 64 the backup does not exist or
/// is not a backup, or the store path is a file (`PathRole`); 69 the backup is corrupt; 65 it
/// is incompatible, or the store is not the one the backup was taken from and --other-store was
/// not given; 73 the store is not empty and --force was not given; 75 locked; 74 I/O.
struct RestoreCommand: Subcommand {
    static let dryRun = OptionSpec.flag("dry-run", help: "Show what would be restored, writing nothing.")
    static let force = OptionSpec.flag("force", help: "Replace the store if it already exists.")
    static let migrate = OptionSpec.flag(
        "migrate", help: "Migrate the restored store as 'migrate' without --to does, before it is put in place.")
    static let target = ArgumentSpec(name: "store", help: "The store directory to restore into.", role: .target(verb: "restore"))

    static let spec = CommandSpec(
        name: "restore", group: .backupAndRestore,
        abstract: "Restore a store from a backup.",
        discussion: """
            Verifies the backup, then copies it to the store directory and verifies the copy. An \
            existing store is replaced only with --force (exit status 73 without it), and only by \
            a backup of that store unless --other-store is given (exit status 65). The store it \
            replaces is kept next to it.
            """,
        arguments: [.backup, target],
        options: [dryRun, force, migrate, IdentityNote.flag])

    let backup: String, store: String
    let options: Restore.Options

    init(_ arguments: ParsedArguments) {
        (backup, store) = (arguments.value(.backup), arguments.value(Self.target))
        options = Restore.Options(
            force: arguments.flag(Self.force), migrate: arguments.flag(Self.migrate),
            dryRun: arguments.flag(Self.dryRun), otherStore: arguments.flag(IdentityNote.flag))
    }

    func run(_ out: Output) throws -> ExitCode {
        // On a terminal, after a second: "Verifying backup: 12/40 files", "Restoring: …", "Verifying copy: …".
        let progress = OperationProgress(out)
        let report = try Restore.run(
            backup: backup, target: store, tool: ToolInfo.name, version: ToolInfo.version,
            options: options
        ) { progress.show($0) }
        progress.finish()
        if let recovered = report.recovered { out.info(recovered.summary) }
        if let note = IdentityNote.line(report.identity, backup: backup, store: store) { out.info(note) }
        let manifest = report.manifest
        let would = report.dryRun ? "Would " : ""
        if report.dryRun { out.print("Dry run: nothing was written.") }
        if report.recoveryPending { out.print("Would first finish the interrupted restore into '\(store)' (its journal is next to it).") }
        out.print(
            "Verified the backup '\(backup)': \(counted(manifest.files.count, "file")) (\(manifest.totalBytes) bytes), "
                + "schema version \(manifest.storeSchemaVersion).")
        if let aside = report.aside {
            out.print("\(report.dryRun ? "Would move" : "Moved") the existing content of '\(store)' aside to '\(aside)'.")
        }
        let verb = report.dryRun ? "restore" : "Restored"
        out.print("\(would)\(verb) \(counted(manifest.files.count, "file")) into '\(store)'\(Self.targetNote(report.targetBefore)).")
        Self.printMigration(report, store: store, out: out)
        out.emitJSON(Self.json(report))
        if let refusal = report.refusal { throw refusal }
        return .success
    }

    private static func targetNote(_ state: TargetState) -> String {
        switch state {
        case .absent: " (a new folder)"
        case .emptyFolder: " (an empty folder)"
        case .folder: ""
        }
    }

    private static func printMigration(_ report: RestoreReport, store: String, out: Output) {
        let version = report.manifest.storeSchemaVersion
        if let migration = report.migration {
            let files = counted(migration.filesChanged, "file")
            out.print(
                report.dryRun
                    ? "Would migrate the restored store from schema version \(version) to \(DocumentVersion.current): \(files) would change."
                    : "Migrated the restored store from schema version \(version) to \(DocumentVersion.current): \(files) changed.")
        } else if version < DocumentVersion.current {
            out.info(
                "Note: the restored store has schema version \(version). To upgrade it, run "
                    + "'\(ToolInfo.command("migrate", store))' or restore with --migrate.")
        }
    }

    private static func json(_ report: RestoreReport) -> [String: JSONOutputValue] {
        let state: String =
            switch report.targetBefore {
            case .absent: "absent"
            case .emptyFolder: "empty"
            case .folder: "not_empty"
            }
        return [
            "backup": .string(report.backup), "store": .string(report.target), "dry_run": .bool(report.dryRun),
            "files": .int(report.manifest.files.count), "bytes": .int(Int(report.manifest.totalBytes)),
            "store_schema_version": .int(report.manifest.storeSchemaVersion), "target_before": .string(state),
            "replaced_store_kept_at": report.aside.map(JSONOutputValue.string) ?? .null,
            "migrated_files": report.migration.map { .int($0.filesChanged) } ?? .null,
            "recovered": report.recovered.map { .string($0.summary) } ?? .null,
            "store_identity": .string(IdentityNote.name(report.identity)),
        ]
    }
}
