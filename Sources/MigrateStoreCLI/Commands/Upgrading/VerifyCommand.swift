import JSONStore

/// `migrate-store verify <store> [--against BACKUP]`: integrity and rollback checks (a)–(d).
struct VerifyCommand: Subcommand {
    static let against = OptionSpec.string(
        "against", valueName: "backup", help: "A backup of the store from before the migration to compare with.", role: .store)

    private static let breaking = MigrationChain.folderRenamingStep

    static let spec = CommandSpec(
        name: "verify", group: .upgrading,
        abstract: "Check a migrated store against older app versions.",
        discussion: """
            Checks every document as each older app version the store admits (a v4 store: as a \
            v1, a v2 and a v3 reader): it decodes the document, sees the values it saw before \
            the migration (apart from the reported corrections), keeps every newer key when it \
            rewrites the document, and derives the same queue; a reader that store.json refuses \
            is reported as refused. With --against, every document (work streams, \
            customisations, settings.json, queue.json) is compared with that backup taken \
            through the chain to the store's version, whatever version the backup is. Exits \
            with status 69 when a check fails or a document differs, and 65 for a store or \
            backup this tool can't read as a store (a version it does not know, or work streams \
            outside the folder store.json names).
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
            (
                .mirrorMatchesQueue,
                reader < 2
                    ? "the queue a v\(reader) reader derives equals queue.json"
                    : "a v\(reader) reader reads queue.json as it is"
            ),
        ]
    }

    let storePath: String
    let backupPath: String?

    init(_ arguments: ParsedArguments) {
        storePath = arguments.value(.store)
        backupPath = arguments.string(Self.against)
    }

    func run(_ out: Output) throws -> ExitCode {
        // Only a store this tool reads as a store is verified: a version it knows, its work
        // streams where store.json says (otherwise nothing would be checked and it would pass).
        let storeVersion = try StoreReadability.require(storePath, action: "verify")
        if storeVersion == MigrationChain.oldest {
            throw CommandError(
                .dataError, "'\(storePath)' is a schema v1 store: 'verify' checks a migrated store. Run '\(ToolInfo.command("migrate", storePath))' first.")
        }
        let against = try backupPath.map { (path) throws in try VerifyAgainst.load(path, store: storePath, storeVersion: storeVersion) }
        if storeVersion >= StoreLayout.renamedFolderVersion { return try verifyBreakingStep(out, against: against) }
        // Against the backup taken past the breaking step, before its inverse: the round trip first, then the older readers on the store alone.
        var inverseChecks: BreakingStepVerifier.Result?
        // On a terminal, after a second: "Verifying: 1200/10000 work streams".
        let progress = OperationProgress(out)
        if let against, against.version >= StoreLayout.renamedFolderVersion {
            let asItIs = try against.at(against.version)
            inverseChecks = try against.chained { () throws(StoreError) in
                try BreakingStepVerifier(path: storePath, against: asItIs).verify { progress.show($0) }
            }
            progress.finish()
        }
        let store = try StoreArgument.openReadOnly(storePath)
        let backup = inverseChecks != nil ? nil : against?.backup
        let comparison = try against?.compare(store)
        let result = try StoreVerifier(store: store, against: backup).verify { progress.show($0) }
        progress.finish()
        out.print("Verifying '\(store.path)'" + (against.map { " against the backup '\($0.path)'" } ?? "") + ":")
        out.print(
            "  integrity: " + (result.unreadable.isEmpty && result.integrity.isEmpty ? "ok" : "\(result.unreadable.count + result.integrity.count) problem(s)"))
        for problem in result.unreadable { out.print("    - \(problem.printedMessage)") }
        for problem in result.integrity { out.print("    - \(problem.printed)") }
        if let comparison { Self.printComparison(comparison, out) }
        if let inverseChecks {
            out.print(
                "  round trip of the inverse v\(Self.breaking.to) → v\(Self.breaking.from) (step(inverse(e)) = e for each work stream e of the v\(Self.breaking.to) backup): "
                    + (inverseChecks.passed
                        ? "ok (\(inverseChecks.checked) checked)" : "\(inverseChecks.failures.count + inverseChecks.unreadable.count) failed"))
            for failure in inverseChecks.failures.prefix(50) { out.print("    - \(failure)") }
            for problem in inverseChecks.unreadable { out.print("    - \(problem.printedMessage)") }
        }
        for refused in result.refusedReaders {
            out.print(
                "  a v\(refused.reader) reader is refused by store.json (min_reader_version \(refused.minReaderVersion)): FAILED, "
                    + "a v\(storeVersion) store must admit it (the chain keeps min_reader_version \(MigrationChain.minReaderVersion(at: storeVersion)))")
        }
        if result.workStreams == 0 {
            out.print(
                "  the store holds no work stream ('\(StoreLayout.workStreamsFolder(schemaVersion: storeVersion))/' is empty): checks (a) to (c) had no document to examine"
            )
        }
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
            if result.smallDocumentsChecked > 0 {
                let failures = result.smallDocumentFailures.filter { $0.reader == reader }
                out.print(
                    "\(indent)(a–c) the customisations and settings.json, as a v\(reader) reader: "
                        + (failures.isEmpty ? "ok (\(result.smallDocumentsChecked) checked)" : "\(failures.count) failed"))
                for failure in failures.prefix(50) { out.print("\(indent)  - (\(failure.check.rawValue)) \(failure.file): \(failure.reason)") }
            }
        }
        if against == nil {
            out.print(
                "  Note: without --against, check (b) covers what the v\(storeVersion) store alone shows (the newer keys are present, every message names its work stream); give the pre-migration backup to compare every value."
            )
        }
        let readers = result.readers.map { "v\($0)" }
        let who = readers.count <= 1 ? "a \(readers.first ?? "v1") program" : readers.dropLast().joined(separator: ", ") + " and \(readers.last!) programs"
        let passed = result.passed && inverseChecks?.passed != false && comparison?.passed != false
        out.print(passed ? "Verified: \(who) can read and write this store." : "Verification failed.")
        out.emitJSON([
            "store": .string(store.path),
            "against": against.map { .string($0.path) } ?? .null,
            "passed": .bool(passed),
            "compared_with_backup": .bool(against != nil),
            "backup_comparison": Self.comparisonJSON(comparison),
            "readers_refused_by_manifest": .array(
                result.refusedReaders.map { .object(["reader": .int($0.reader), "min_reader_version": .int($0.minReaderVersion)]) }),
            "unreadable": ReportRendering.errorsJSON(result.unreadable),
            "integrity": .array(result.integrity.map { .string($0.printed) }),
            "inverse_round_trip": inverseChecks.map { .object(["checked": .int($0.checked), "failures": .array($0.failures.map(JSONOutputValue.string))]) }
                ?? .null,
            "readers": .array(result.readers.map { .int($0) }),
            "checks": Self.checksJSON(result, reader: result.readers.first ?? 1, storeVersion: storeVersion),
            "checks_by_reader": .object(
                Dictionary(
                    uniqueKeysWithValues: result.readers.map {
                        (String($0), Self.checksJSON(result, reader: $0, storeVersion: storeVersion))
                    })),
            "failures": .array(
                (result.failures + result.smallDocumentFailures).map {
                    .object([
                        "check": .string($0.check.rawValue), "reader": .int($0.reader),
                        "file": .string($0.file), "reason": .string($0.reason),
                    ])
                }),
            "small_documents_checked": .int(result.smallDocumentsChecked),
        ])
        return passed ? .success : .verificationFailed
    }

    /// The checks of one reader version, by letter.
    static func checksJSON(_ result: StoreVerifier.Result, reader: Int, storeVersion: Int) -> JSONOutputValue {
        .object(
            Dictionary(
                uniqueKeysWithValues: checkNames(reader: reader, storeVersion: storeVersion).map { check, name in
                    (
                        check.rawValue,
                        JSONOutputValue.object([
                            "name": .string(name),
                            "checked": .int(result.checked[RollbackCheck.ReaderCheck(reader: reader, check: check), default: 0]),
                            "failed": .int(result.failures.filter { $0.check == check && $0.reader == reader }.count),
                        ])
                    )
                }))
    }

    /// A store past the breaking step (spec §9): the round trip per work stream and the older readers refused.
    func verifyBreakingStep(_ out: Output, against: VerifyAgainst?) throws -> ExitCode {
        // The round trip compares with the backup at the breaking step's `from`: an older one taken there by the chain.
        let original = try against.flatMap { (a) throws in a.version < StoreLayout.renamedFolderVersion ? try a.at(StoreLayout.renamedFolderVersion - 1) : nil }
        // On a terminal, after a second: "Verifying: 1200/10000 work streams".
        let progress = OperationProgress(out)
        let verifier = BreakingStepVerifier(path: storePath, against: original)
        let result: BreakingStepVerifier.Result
        if let against {
            result = try against.chained { () throws(StoreError) in try verifier.verify { progress.show($0) } }
        } else {
            result = try verifier.verify { progress.show($0) }
        }
        progress.finish()
        let comparison = try against?.compare(try StoreArgument.openReadOnly(storePath))
        out.print("Verifying '\(storePath)'" + (against.map { " against the backup '\($0.path)'" } ?? "") + ":")
        out.print("  integrity: " + (result.unreadable.isEmpty ? "ok" : "\(result.unreadable.count) problem(s)"))
        for problem in result.unreadable { out.print("    - \(problem.printedMessage)") }
        if let comparison { Self.printComparison(comparison, out) }
        let roundTrip = result.comparedWithBackup ? "inverse(step(d)) = d for each work stream d of the backup" : "step(inverse(e)) = e for each work stream e"
        let normalised = result.normalisations > 0 ? ", apart from \(TextFormat.plural(result.normalisations, "reported normalisation"))" : ""
        out.print(
            "  round trip of the breaking step v\(Self.breaking.from) → v\(Self.breaking.to) (\(roundTrip)\(normalised)): "
                + (result.failures.isEmpty ? "ok (\(result.checked) checked)" : "\(result.failures.count) failed"))
        for failure in result.failures.prefix(50) { out.print("    - \(failure)") }
        for reader in result.readers {
            out.print("  a v\(reader.reader) reader is refused: " + (reader.refused ? "ok (\(reader.message))" : "NO: it \(reader.message)"))
        }
        if result.checked == 0 && result.unreadable.isEmpty {
            out.print("  the store holds no work stream ('\(StoreLayout.renamedWorkStreamsFolder)/' is empty): the round trip had no document to examine")
        }
        if against == nil {
            out.print(
                "  Note: without --against a v\(Self.breaking.from) backup, the round trip is checked on the store alone; give the backup taken before the breaking step to compare every value."
            )
        }
        let passed = result.passed && comparison?.passed != false
        out.print(passed ? "Verified: the breaking step goes back exactly, and older app versions are refused as they must be." : "Verification failed.")
        out.emitJSON([
            "store": .string(storePath),
            "against": against.map { .string($0.path) } ?? .null,
            "passed": .bool(passed),
            "compared_with_backup": .bool(against != nil),
            "backup_comparison": Self.comparisonJSON(comparison),
            "unreadable": ReportRendering.errorsJSON(result.unreadable),
            "round_trip": .object([
                "checked": .int(result.checked), "normalisations": .int(result.normalisations),
                "failures": .array(result.failures.map(JSONOutputValue.string)),
            ]),
            "readers_refused": .array(
                result.readers.map { .object(["reader": .int($0.reader), "refused": .bool($0.refused), "message": .string($0.message)]) }),
        ])
        return passed ? .success : .verificationFailed
    }
}
