import JSONStore

/// `migrate-store plan <store> [--to 2]`: the dry run. Opens the store read-only and writes nothing.
enum PlanCommand {
    static func run(_ args: ParsedArguments, _ out: Output) throws -> ExitCode {
        try TargetVersion.check(args)
        let store = try StoreArgument.openReadOnly(args)
        let from = StatusCommand.versions(try store.manifest()).0
        let report = try StoreMigrator(store: store).plan(toolVersion: ToolInfo.version)
        if report.isNoop {
            out.print("'\(store.path)' is already at version 2: a migration would change nothing.")
        } else {
            out.print("Plan for '\(store.path)': schema version \(from) → 2. Nothing has been written.\n")
            out.print(ReportRendering.human(report))
            out.print("\n" + ReportRendering.totals(report) + ".")
            out.print("Run 'migrate-store migrate \(store.path)' to make exactly these changes (a verified backup is taken first).")
        }
        out.emitJSON(ReportRendering.json(report).merging(["store": .string(store.path), "from": .int(from), "to": .int(2)]) { a, _ in a })
        return .success
    }
}

/// `--to`: this tool migrates to version 2 only.
enum TargetVersion {
    static func check(_ args: ParsedArguments) throws {
        let target = args.integer("to") ?? 2
        guard target == 2 else {
            throw UsageError("This version of \(ToolInfo.name) migrates to schema version 2 only; '--to \(target)' is not supported.", command: args.command)
        }
    }
}
