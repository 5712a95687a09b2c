import JSONStore

/// `migrate-store plan <store> [--to N]`: the dry run. Opens the store read-only and writes nothing.
struct PlanCommand: Subcommand {
    static let spec = CommandSpec(
        name: "plan", group: .upgrading,
        abstract: "Show what a migration would change; write nothing.",
        discussion: """
            Lists the steps of the version chain the migration would take, each with its kind \
            (rollback-safe: older app versions still read and write the store; breaking: they are \
            refused), then every change: keys added to each work stream, message session ids \
            corrected, queue positions renumbered, cursors reset, and the queue.json it would \
            write. Running 'migrate' with the same target afterwards makes exactly these changes.
            """,
        arguments: [.store],
        options: [TargetVersion.option])

    let storePath: String
    let target: Int?

    init(_ arguments: ParsedArguments) throws {
        target = try TargetVersion.read(arguments)
        storePath = arguments.value(.store)
    }

    func run(_ out: Output) throws -> ExitCode {
        let store = try StoreArgument.openReadOnly(storePath)
        if case .superseded(let version, _) = store.compatibility {
            // Newer than this tool, which may read it (the reader rule) but has no step to take it anywhere.
            out.print("'\(store.path)' is at schema version \(version), newer than \(MigrationChain.newest): this tool has nothing to plan for it.")
            out.emitJSON(["store": .string(store.path), "from": .int(version), "to": .int(version), "noop": .bool(true), "steps": .array([])])
            return .success
        }
        let from = try store.manifest().schemaVersion
        let migrator = StoreMigrator(store: store)
        let to = target ?? migrator.defaultTarget
        try TargetVersion.refuseGoingBack(to, from: from, store: store.path, command: Self.spec.name)
        // On a terminal, after a second: "Validating: 1200/10000 work streams".
        let progress = OperationProgress(out)
        let report = try migrator.plan(to: to, toolVersion: ToolInfo.version) { progress.show($0) }
        progress.finish()
        let steps = MigrationChain.steps(from: from, to: to)
        if report.isNoop {
            out.print("'\(store.path)' is already at version \(to): a migration would change nothing.")
        } else {
            let onlyLeftover = Set(report.totals.keys) == ["leftover_folder_removed"]
            let sameVersion =
                onlyLeftover
                ? "no change of version (finishing an interrupted layout change)"
                : "no change of version (a reconcile after an older app wrote, spec §7)"
            let stepCount = steps.isEmpty ? sameVersion : TextFormat.plural(steps.count, "step")
            out.print("Plan for '\(store.path)': schema version \(from) → \(to), \(stepCount). Nothing has been written.")
            for line in ChainRendering.stepLines(steps) { out.print("  " + line) }
            out.print("App versions that can read the store after it: \(ChainRendering.readers(at: to)).\n")
            out.print(ReportRendering.human(report))
            out.print("\n" + ReportRendering.totals(report) + ".")
            let breaking = StoreUpgrade.takesBreakingStep(from: from, to: to)
            if breaking { out.print("\nBreaking: " + StoreUpgrade.breakingConsequence(from: from, to: to) + ".") }
            let command =
                target.map { ToolInfo.command("migrate", store.path, "--to", String($0)) + (breaking ? " --allow-breaking" : "") }
                ?? ToolInfo.command("migrate", store.path)
            out.print(
                "Run '\(command)' to make exactly these changes"
                    + (onlyLeftover
                        ? " (the leftover folder holds the store's own work streams at the other layout's version; no backup is taken of it)."
                        : " (a verified backup is taken first)."))
        }
        out.emitJSON(
            ReportRendering.json(report).merging([
                "store": .string(store.path), "from": .int(from), "to": .int(to),
                "steps": ChainRendering.stepsJSON(steps),
            ]) { a, _ in a })
        return .success
    }
}

/// `--to`: the version to migrate to; without it, the newest every reader the store admits can read (spec §9).
enum TargetVersion {
    /// `--to <version>`: the schema version to upgrade to.
    static let option = OptionSpec.integer(
        "to", valueName: "version",
        help:
            "The schema version to migrate to (\(MigrationChain.oldest) to \(MigrationChain.newest)). The default is the newest version that every app version the store admits can still read.",
        minimum: 1)

    /// The version asked for, or nil for the default.
    /// - Throws: `UsageError` for a version this tool does not know.
    static func read(_ args: ParsedArguments) throws -> Int? {
        guard let target = args.integer(option) else { return nil }
        guard (MigrationChain.oldest...MigrationChain.newest).contains(target) else {
            throw UsageError(
                "This version of \(ToolInfo.name) knows schema versions \(MigrationChain.oldest) to \(MigrationChain.newest); '--to \(target)' is not one of them.",
                command: args.command)
        }
        return target
    }

    /// A usage error (64) for a target below the store's version: a migration never goes back.
    static func refuseGoingBack(_ target: Int, from: Int, store: String, command: String) throws {
        // The one way back a migration has: the exact inverse of the breaking step (spec §9, §11).
        if let inverse = MigrationChain.steps(from: target, to: from).last?.inverse, target == inverse.to, from == inverse.from { return }
        guard target < from else { return }
        throw UsageError(
            "Can't migrate '\(store)' to schema version \(target): the store is at version \(from) already, and a migration never goes back. To go back, restore the backup taken before the upgrade ('\(ToolInfo.command("rollback", store, "--from-backup", "BACKUP"))').",
            command: command)
    }
}
