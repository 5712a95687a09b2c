import JSONStore

/// `migrate-store rollback <store> --from-backup BACKUP`: the exact pre-migration bytes back.
///
/// A restore with `--force` (see `Restore.run`): the backup is verified first, the restore is
/// crash-safe, and the migrated store is kept next to it as `<store>.replaced-<time>`, so
/// nothing written since the migration is lost. Rarely needed: a v1 program reads and writes a
/// v2 store as it is (`min_reader_version` 1). A backup of another store is refused (65,
/// nothing written) unless `--other-store` is given; see `Restore.checkIdentity`.
struct RollbackCommand: Subcommand {
    static let fromBackup = OptionSpec.string(
        "from-backup", valueName: "backup", help: "The backup taken before the migration.", required: true, role: .backup)

    /// `<store>`: a store, or the path of a restore that did not finish (this command finishes it first).
    static let target = ArgumentSpec(name: "store", help: "The store directory.", role: .replacedStore)

    static let spec = CommandSpec(
        name: "rollback", group: .upgrading,
        abstract: "Put back the store from its pre-migration backup.",
        discussion: """
            Rarely needed after a rollback-safe migration, as the app's older versions read the \
            migrated store as it is (after the breaking step, 'migrate --to \(MigrationChain.folderRenamingStep.from)' goes back \
            exactly). Use this to undo a migration completely. The backup is verified before the \
            store is touched, and must be a backup of this store unless --other-store is given. \
            The store it replaces is kept next to it.
            """,
        arguments: [target],
        options: [fromBackup, IdentityNote.flag])

    let store: String
    let backup: String
    let otherStore: Bool

    init(_ arguments: ParsedArguments) {
        store = arguments.value(Self.target)
        backup = arguments.string(Self.fromBackup)!  // a required option: the parser refuses a command line without it
        otherStore = arguments.flag(IdentityNote.flag)
    }

    func run(_ out: Output) throws -> ExitCode {
        // As `restore` shows it: "Verifying backup: …", "Restoring: …", "Verifying copy: …", and a lock wait.
        let progress = OperationProgress(out)
        let report = try Restore.run(
            backup: backup, target: store, tool: ToolInfo.name, version: ToolInfo.version,
            options: Restore.Options(force: true, otherStore: otherStore)
        ) { progress.show($0) }
        progress.finish()
        if let recovered = report.recovered { out.info(recovered.summary) }
        if let note = IdentityNote.line(report.identity, backup: backup, store: store) { out.info(note) }
        let version = report.manifest.storeSchemaVersion
        out.print(
            "Rolled back '\(store)' to the backup '\(backup)': \(report.manifest.files.count) files, schema version \(version), verified before and after.")
        if let aside = report.aside {
            out.print("The store it replaced is kept at '\(aside)': anything written since the backup is still there.")
        }
        out.info("Note: a v1 app can also run on a migrated store as it is; 'migrate' later upgrades what it wrote.")
        out.emitJSON([
            "store": .string(store),
            "backup": .string(backup),
            "schema_version": .int(version),
            "files": .int(report.manifest.files.count),
            "replaced_store_kept_at": report.aside.map(JSONOutputValue.string) ?? .null,
            "store_identity": .string(IdentityNote.name(report.identity)),
        ])
        return .success
    }
}
