import JSONStore

/// `migrate-store plan <store> [--to 2]`: the dry run. Opens the store read-only and writes nothing.
struct PlanCommand: Subcommand {
    static let spec = CommandSpec(
        name: "plan", group: .upgrading,
        abstract: "Show what a migration would change; write nothing.",
        discussion: """
            Lists every change the migration would make: keys added to each work stream, message \
            session ids corrected, queue positions renumbered, and the queue.json it would write. \
            Running 'migrate' afterwards makes exactly these changes.
            """,
        arguments: [.store],
        options: [TargetVersion.option])

    let storePath: String

    init(_ arguments: ParsedArguments) throws {
        try TargetVersion.check(arguments)
        storePath = arguments.value(.store)
    }

    func run(_ out: Output) throws -> ExitCode {
        let store = try StoreArgument.openReadOnly(storePath)
        let from = try store.manifest().schemaVersion
        let report = try StoreMigrator(store: store).plan(toolVersion: ToolInfo.version)
        if report.isNoop {
            out.print("'\(store.path)' is already at version 2: a migration would change nothing.")
        } else {
            out.print("Plan for '\(store.path)': schema version \(from) → 2. Nothing has been written.\n")
            out.print(ReportRendering.human(report))
            out.print("\n" + ReportRendering.totals(report) + ".")
            out.print("Run '\(ToolInfo.command("migrate", store.path))' to make exactly these changes (a verified backup is taken first).")
        }
        out.emitJSON(ReportRendering.json(report).merging(["store": .string(store.path), "from": .int(from), "to": .int(2)]) { a, _ in a })
        return .success
    }
}

/// `--to`: this tool migrates to version 2 only.
enum TargetVersion {
    /// `--to <version>`: the schema version to upgrade to.
    static let option = OptionSpec.integer(
        "to", valueName: "version", help: "The schema version to upgrade to.", minimum: 1, default: 2)

    static func check(_ args: ParsedArguments) throws {
        let target = args.integer(option) ?? 2
        guard target == 2 else {
            throw UsageError("This version of \(ToolInfo.name) migrates to schema version 2 only; '--to \(target)' is not supported.", command: args.command)
        }
    }
}
