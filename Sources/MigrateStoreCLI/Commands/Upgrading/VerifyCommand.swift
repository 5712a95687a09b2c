import JSONStore

/// `migrate-store verify <store> [--against BACKUP]`: integrity and rollback checks (a)–(d).
struct VerifyCommand: Subcommand {
    static let against = OptionSpec.string(
        "against", valueName: "backup", help: "A backup of the store from before the migration to compare with.", role: .store)

    static let spec = CommandSpec(
        name: "verify", group: .upgrading,
        abstract: "Check a migrated store against older app versions.",
        discussion: """
            Checks every document: an older reader decodes it, sees the values it saw before the \
            migration (apart from the reported corrections), keeps the new keys when it rewrites the \
            document, and derives the same queue. With --against, the values are compared with that \
            backup. Exits with status 69 when a check fails.
            """,
        arguments: [.store],
        options: [against])

    static let checkNames: [(RollbackCheck.Check, String)] = [
        (.v1Decodes, "a v1 reader decodes every work stream"),
        (.valuesPreserved, "a v1 reader sees the pre-migration values"),
        (.v2KeysSurviveV1Write, "a v1 read-modify-write keeps the v2 keys"),
        (.mirrorMatchesQueue, "the queue a v1 reader derives equals queue.json"),
    ]

    let storePath: String
    let backupPath: String?

    init(_ arguments: ParsedArguments) {
        storePath = arguments.value(.store)
        backupPath = arguments.string(Self.against)
    }

    func run(_ out: Output) throws -> ExitCode {
        let store = try StoreArgument.openReadOnly(storePath)
        if case .needsMigration = store.compatibility {
            throw CommandError(.dataError, "'\(store.path)' is a schema v1 store: 'verify' checks a migrated store. Run '\(ToolInfo.command("migrate", store.path))' first.")
        }
        let backup = try backupPath.map { (path) throws(StoreError) in try Store.open(at: path, options: StoreArgument.options(readOnly: true)) }
        // On a terminal, after a second: "Verifying: 1200/10000 work streams".
        var line: ProgressLine?
        defer { line?.finish() }
        let result = try StoreVerifier(store: store, against: backup).verify { done, total in
            if line == nil { line = out.progress("Verifying", total: total) }
            line?.update(done, detail: "work streams")
        }
        line?.finish()
        out.print("Verifying '\(store.path)'" + (backup.map { " against the backup '\($0.path)'" } ?? "") + ":")
        out.print("  integrity: " + (result.unreadable.isEmpty && result.integrity.isEmpty ? "ok" : "\(result.unreadable.count + result.integrity.count) problem(s)"))
        for problem in result.unreadable { out.print("    - \(problem.message)") }
        for problem in result.integrity { out.print("    - \(problem)") }
        for (check, name) in Self.checkNames {
            let failures = result.failures.filter { $0.check == check }
            let covered = result.checked[check, default: 0]
            out.print("  (\(check.rawValue)) \(name): " + (failures.isEmpty ? "ok (\(covered) checked)" : "\(failures.count) failed"))
            for failure in failures.prefix(50) { out.print("    - \(failure.file): \(failure.reason)") }
        }
        if !result.comparedWithBackup {
            out.print("  Note: without --against, check (b) covers what the v2 store alone shows (the v2 keys are present as strings, every message names its work stream); give the pre-migration backup to compare every value.")
        }
        out.print(result.passed ? "Verified: a v1 program can read and write this store." : "Verification failed.")
        out.emitJSON([
            "store": .string(store.path),
            "against": backup.map { .string($0.path) } ?? .null,
            "passed": .bool(result.passed),
            "compared_with_backup": .bool(result.comparedWithBackup),
            "unreadable": ReportRendering.errorsJSON(result.unreadable),
            "integrity": .array(result.integrity.map(JSONOutputValue.string)),
            "checks": .object(Dictionary(uniqueKeysWithValues: Self.checkNames.map { check, name in
                (check.rawValue, JSONOutputValue.object(["name": .string(name), "checked": .int(result.checked[check, default: 0]),
                                                         "failed": .int(result.failures.filter { $0.check == check }.count)]))
            })),
            "failures": .array(result.failures.map { .object(["check": .string($0.check.rawValue), "file": .string($0.file), "reason": .string($0.reason)]) }),
        ])
        return result.passed ? .success : .verificationFailed
    }
}
