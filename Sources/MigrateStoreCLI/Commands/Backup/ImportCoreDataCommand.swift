import JSONStore

/// `migrate-store import-coredata <VoiceCode.sqlite> <store>`: creates a store at the current schema from
/// the shipped app's Core Data file (see `CoreDataImport`). The file is never changed.
///
/// Exit status: 0 imported (rows not taken exactly as they are are listed, not errors); 64 a path
/// does not exist or is the wrong kind (`PathRole`); 65 not SQLite, damaged, or not the app's
/// Core Data store, or it has tables, columns or entities the import does not know (without
/// `--allow-unknown`), or a value that can't be read honestly; 73 the store folder is not empty; 74 I/O (an unreadable file, no SQLite
/// library); 75 another process is writing to the file.
struct ImportCoreDataCommand: Subcommand {
    static let source = ArgumentSpec(
        name: "VoiceCode.sqlite", help: "The app's Core Data file (its -wal file is read too; neither is changed).",
        role: .inputFile(noun: "the app's VoiceCode.sqlite"))
    static let target = ArgumentSpec(name: "store", help: "The store directory to create (new or empty).", role: .target(verb: "import"))
    static let preferences = OptionSpec.string(
        "preferences", valueName: "plist",
        help: "The app's preferences (binary or XML property list): its settings for settings.json, its drafts for the customisations.",
        role: .inputFile(noun: "the app's preferences file"))
    static let dryRun = OptionSpec.flag("dry-run", help: "Read and report everything; write nothing.")
    static let allowUnknown = OptionSpec.flag(
        "allow-unknown",
        help: "Import a file with tables, columns or entities no model of the app has, leaving each out and listing it.")

    static let spec = CommandSpec(
        name: "import-coredata", group: .backupAndRestore,
        abstract: "Create a store from the app's Core Data file.",
        discussion: "Reads model versions 1 to 7, including what is only in the -wal file, from a private copy: the "
            + "file, its -wal and -shm are never changed. The new store (schema version \(CoreDataImport.schemaVersion)) appears whole or not at all. "
            + "Rows not taken exactly as they are (messages of no work stream, relationships that disagree with "
            + "sessionId, empty dates, duplicate ids, numbers out of range, values of the wrong type, derived offsets) are "
            + "listed with what was done, and so are preferences of the wrong type; every preference key not carried is listed by name. Tables, columns and entities no model of the app has are refused unless "
            + "--allow-unknown is given.",
        arguments: [source, target], options: [preferences, allowUnknown, dryRun])

    let file: String, store: String, preferencesFile: String?, isDryRun: Bool, allowsUnknown: Bool

    init(_ arguments: ParsedArguments) {
        (file, store) = (arguments.value(Self.source), arguments.value(Self.target))
        preferencesFile = arguments.string(Self.preferences)
        isDryRun = arguments.flag(Self.dryRun)
        allowsUnknown = arguments.flag(Self.allowUnknown)
    }

    func run(_ out: Output) throws -> ExitCode {
        let report = try CoreDataImport.run(
            source: file, into: store, preferences: preferencesFile, allowUnknown: allowsUnknown, dryRun: isDryRun,
            tool: ToolInfo.name, version: ToolInfo.version)
        for line in Self.lines(report) { out.print(line) }
        out.emitJSON(Self.json(report))
        return .success
    }

    static func lines(_ r: CoreDataImportReport) -> [String] {
        let from = "'\(r.source)' (Core Data model version \(r.modelVersion)\(r.walCommits > 0 ? ", with its -wal file" : ""))"
        var lines = [
            r.dryRun
                ? "Dry run: nothing was written. Importing \(from) into '\(r.target)' would write \(counted(r.files, "file")) (\(r.bytes) bytes, schema version \(r.storeSchemaVersion)):"
                : "Imported \(from) into '\(r.target)': \(counted(r.files, "file")) (\(r.bytes) bytes, schema version \(r.storeSchemaVersion)), every file verified before the store was put in place:"
        ]
        lines.append("  model: \(r.modelExplanation)")
        if r.hadWAL {
            lines.append(
                r.walCommits == 0
                    ? "  -wal: not applied: it holds no complete commit"
                    : "  -wal: \(counted(r.walCommits, "commit")) applied"
                        + (r.walIgnoredBytes > 0
                            ? "; the \(r.walIgnoredBytes) bytes after its last commit are not, as SQLite does not apply them (frames of an "
                                + "unfinished or cut transaction, or older ones already in the main file)" : ""))
        }
        lines.append(
            "  offsets: " + (r.backfillApplied ? "derived from the sequence numbers, \(counted(r.offsetsBackfilled, "value")) changed: " : "not derived: ")
                + r.backfillReason)
        if !r.unknown.isEmpty {
            lines.append("  left out (--allow-unknown), \(r.unknown.count) not in any model of the app:")
            lines += r.unknown.map { "    \($0)" }
        }
        lines.append("  \(counted(r.workStreams, "work stream")), \(counted(r.messages, "message")), \(counted(r.customisations, "customisation"))")
        lines.append("  queue: \(r.fifo.count) in the FIFO queue, \(r.priority.count) in the priority queue")
        let values = "queue_enabled \(r.settings.queueEnabled), priority_queue_enabled \(r.settings.priorityQueueEnabled)"
        if let preferences = r.preferences {
            lines.append("  settings: \(values) from '\(preferences)'")
            lines += preferenceLines(r)
        } else {
            lines.append("  settings: the defaults, \(values): no --preferences was given")
        }
        if r.findings.isEmpty {
            lines.append("Every row was taken as it is.")
        } else {
            lines.append("\(counted(r.findings.count, "row")) not taken exactly as \(r.findings.count == 1 ? "it is" : "they are"):")
            lines += r.findings.map { "  \($0.kind.rawValue): \($0)" }
        }
        return lines
    }

    /// What became of each preference: carried, drafts, not carried, not taken as it is.
    static func preferenceLines(_ r: CoreDataImportReport) -> [String] {
        var lines = [
            "  preferences carried (\(r.preferenceKeysCarried.count)): "
                + (r.preferenceKeysCarried.isEmpty ? "none" : r.preferenceKeysCarried.joined(separator: ", "))
        ]
        lines.append(
            "  drafts: \(r.drafts)" + (r.customisationsForDrafts > 0 ? " (\(r.customisationsForDrafts) in a new customisation: its work stream had none)" : ""))
        if !r.preferenceKeysNotCarried.isEmpty {
            lines.append("  preferences not carried (\(r.preferenceKeysNotCarried.count)): " + r.preferenceKeysNotCarried.joined(separator: ", "))
        }
        if !r.preferenceFindings.isEmpty {
            let count = r.preferenceFindings.count
            lines.append("  \(counted(count, "preference value")) not taken exactly as \(count == 1 ? "it is" : "they are"):")
            lines += r.preferenceFindings.map { "    \($0.kind.rawValue): \($0)" }
        }
        return lines
    }

    static func json(_ r: CoreDataImportReport) -> [String: JSONOutputValue] {
        [
            "source": .string(r.source), "store": .string(r.target), "dry_run": .bool(r.dryRun), "model_version": .int(r.modelVersion),
            "had_wal": .bool(r.hadWAL), "wal_applied": .bool(r.walCommits > 0), "wal_commits": .int(r.walCommits),
            "wal_ignored_bytes": .int(Int(r.walIgnoredBytes)), "early_build": .bool(r.earlyBuild), "model_explanation": .string(r.modelExplanation),
            "entity_hashes": .object(r.entityHashes.mapValues { .string($0) }),
            "unknown": .array(r.unknown.map { .object(["kind": .string($0.kind.rawValue), "name": .string($0.name), "rows": .int($0.rows)]) }),
            "offsets_backfill": .object([
                "applied": .bool(r.backfillApplied), "reason": .string(r.backfillReason),
                "values_changed": .int(r.offsetsBackfilled),
            ]),
            "preference_keys_carried": .array(r.preferenceKeysCarried.map { .string($0) }),
            "preference_keys_not_carried": .array(r.preferenceKeysNotCarried.map { .string($0) }),
            "drafts": .int(r.drafts), "customizations_for_drafts": .int(r.customisationsForDrafts),
            "preference_findings": .array(
                r.preferenceFindings.map { .object(["kind": .string($0.kind.rawValue), "key": .string($0.key), "detail": .string($0.detail)]) }),
            "work_streams": .int(r.workStreams),
            "messages": .int(r.messages),
            "customizations": .int(r.customisations), "files": .int(r.files), "bytes": .int(Int(r.bytes)),
            "store_schema_version": .int(r.storeSchemaVersion),
            "queue": .object([
                "fifo": .array(r.fifo.map { .string($0.uuidString.lowercased()) }),
                "priority": .array(r.priority.map { .string($0.uuidString.lowercased()) }),
            ]),
            "settings": .object([
                "queue_enabled": .bool(r.settings.queueEnabled),
                "priority_queue_enabled": .bool(r.settings.priorityQueueEnabled),
                "from": r.preferences.map { .string($0) } ?? .null,
            ]),
            "findings": .array(
                r.findings.map {
                    .object([
                        "kind": .string($0.kind.rawValue), "table": .string($0.table), "primary_key": .int(Int($0.primaryKey)),
                        "id": $0.id.map { .string($0) } ?? .null, "detail": .string($0.detail),
                    ])
                }),
        ]
    }
}
