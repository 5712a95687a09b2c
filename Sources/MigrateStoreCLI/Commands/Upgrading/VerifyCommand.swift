import JSONStore

/// `migrate-store verify <store> [--against BACKUP]`: integrity and rollback checks (a)–(d).
struct VerifyCommand: Subcommand {
    static let against = OptionSpec.string(
        "against", valueName: "backup", help: "A backup of the store from before the migration to compare with.", role: .store)

    static let spec = CommandSpec(
        name: "verify", group: .upgrading,
        abstract: "Check a migrated store against older app versions.",
        discussion: """
            Checks every document as each older app version the store admits (a v3 store: as a \
            v1 reader and as a v2 reader): it decodes the document, sees the values it saw before \
            the migration (apart from the reported corrections), keeps every newer key when it \
            rewrites the document, and derives the same queue. With --against, the values are \
            compared with that backup, across the whole chain. Exits with status 69 when a check fails.
            """,
        arguments: [.store],
        options: [against])

    /// The name of each check as reader `reader` of a store of `storeVersion`.
    static func checkNames(reader: Int, storeVersion: Int) -> [(RollbackCheck.Check, String)] {
        let newer = (reader + 1...max(reader + 1, storeVersion)).map { "v\($0)" }
        let keys = newer.count == 1 ? "the \(newer[0]) keys" : "the " + newer.dropLast().joined(separator: ", ") + " and \(newer.last!) keys"
        return [
            (.v1Decodes, "a v\(reader) reader decodes every work stream"),
            (.valuesPreserved, "a v\(reader) reader sees the pre-migration values"),
            (.v2KeysSurviveV1Write, "a v\(reader) read-modify-write keeps \(keys)"),
            (.mirrorMatchesQueue, reader < 2 ? "the queue a v\(reader) reader derives equals queue.json"
                                             : "a v\(reader) reader reads queue.json as it is"),
        ]
    }

    let storePath: String
    let backupPath: String?

    init(_ arguments: ParsedArguments) {
        storePath = arguments.value(.store)
        backupPath = arguments.string(Self.against)
    }

    func run(_ out: Output) throws -> ExitCode {
        let store = try StoreArgument.openReadOnly(storePath)
        try store.refuseWithoutLayoutEngine("verify")   // issue 15 read side: until the v3 ↔ v4 engine
        if store.compatibility.isV1 {
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
        let storeVersion = store.compatibility.storeSchemaVersion
        let perReader = result.readers.count > 1
        for reader in result.readers {
            if perReader { out.print("  As a v\(reader) reader:") }
            let indent = perReader ? "    " : "  "
            for (check, name) in Self.checkNames(reader: reader, storeVersion: storeVersion) {
                let failures = result.failures.filter { $0.check == check && $0.reader == reader }
                let covered = result.checked[RollbackCheck.ReaderCheck(reader: reader, check: check), default: 0]
                out.print("\(indent)(\(check.rawValue)) \(name): " + (failures.isEmpty ? "ok (\(covered) checked)" : "\(failures.count) failed"))
                for failure in failures.prefix(50) { out.print("\(indent)  - \(failure.file): \(failure.reason)") }
            }
        }
        if !result.comparedWithBackup {
            out.print("  Note: without --against, check (b) covers what the v\(storeVersion) store alone shows (the newer keys are present, every message names its work stream); give the pre-migration backup to compare every value.")
        }
        let readers = result.readers.map { "v\($0)" }
        let who = readers.count <= 1 ? "a \(readers.first ?? "v1") program" : readers.dropLast().joined(separator: ", ") + " and \(readers.last!) programs"
        out.print(result.passed ? "Verified: \(who) can read and write this store." : "Verification failed.")
        out.emitJSON([
            "store": .string(store.path),
            "against": backup.map { .string($0.path) } ?? .null,
            "passed": .bool(result.passed),
            "compared_with_backup": .bool(result.comparedWithBackup),
            "unreadable": ReportRendering.errorsJSON(result.unreadable),
            "integrity": .array(result.integrity.map(JSONOutputValue.string)),
            "readers": .array(result.readers.map { .int($0) }),
            "checks": Self.checksJSON(result, reader: result.readers.first ?? 1, storeVersion: storeVersion),
            "checks_by_reader": .object(Dictionary(uniqueKeysWithValues: result.readers.map {
                (String($0), Self.checksJSON(result, reader: $0, storeVersion: storeVersion))
            })),
            "failures": .array(result.failures.map { .object(["check": .string($0.check.rawValue), "reader": .int($0.reader),
                                                              "file": .string($0.file), "reason": .string($0.reason)]) }),
        ])
        return result.passed ? .success : .verificationFailed
    }

    /// The checks of one reader version, by letter.
    static func checksJSON(_ result: StoreVerifier.Result, reader: Int, storeVersion: Int) -> JSONOutputValue {
        .object(Dictionary(uniqueKeysWithValues: checkNames(reader: reader, storeVersion: storeVersion).map { check, name in
            (check.rawValue, JSONOutputValue.object([
                "name": .string(name),
                "checked": .int(result.checked[RollbackCheck.ReaderCheck(reader: reader, check: check), default: 0]),
                "failed": .int(result.failures.filter { $0.check == check && $0.reader == reader }.count)]))
        }))
    }
}
