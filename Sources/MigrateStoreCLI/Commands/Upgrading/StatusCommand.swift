import JSONStore

/// `migrate-store status <store>`: versions, counts, migration state, lock holder, unreadable documents.
struct StatusCommand: Subcommand {
    static let spec = CommandSpec(
        name: "status", group: .upgrading,
        abstract: "Show the schema version and whether to migrate.",
        discussion: """
            Reads the manifest and every document without changing anything. Reports the schema \
            version, the version chain (the versions this tool knows, the steps ahead and their \
            kinds, which app versions can read the store now and after each step), the number of \
            work streams, user customisations and queue entries, documents that can't be read, \
            and whether an interrupted migration needs to be finished.
            """,
        arguments: [.store])

    let storePath: String

    init(_ arguments: ParsedArguments) { storePath = arguments.value(.store) }

    func run(_ out: Output) throws -> ExitCode {
        let store = try StoreArgument.openReadOnly(storePath)
        let status = try StoreStatus.gather(store)
        let (schema, minReader) = Self.versions(status.manifest)
        out.print("Store:           \(store.path)")
        out.print("Schema version:  \(schema)" + (minReader.map { " (min_reader_version \($0))" } ?? ""))
        let ahead = MigrationChain.steps(from: schema, to: MigrationChain.newest)
        out.print(
            "Versions:        \(MigrationChain.oldest) to \(MigrationChain.newest) known to this tool; "
                + (ahead.isEmpty ? "no step ahead" : "ahead: " + ahead.map { "\($0.from) → \($0.to) (\($0.kind.rawValue))" }.joined(separator: ", ")))
        if schema > MigrationChain.newest {
            // A newer store: its own manifest says who reads it (spec §4, reader rule).
            out.print("Readers:         app versions \(minReader ?? schema) and newer (its min_reader_version)")
        } else {
            out.print(
                "Readers:         app \(ChainRendering.readers(at: schema)) now"
                    + ahead.map { "; after \($0.from) → \($0.to): \(ChainRendering.readers(at: $0.to))" }.joined())
        }
        out.print("Work streams:    \(Self.total(status.sessionsByVersion))\(Self.byVersion(status.sessionsByVersion))")
        out.print("Customisations:  \(Self.total(status.customisationsByVersion))\(Self.byVersion(status.customisationsByVersion))")
        out.print("Settings:        " + (status.settingsVersion.map { "schema_version \($0)" } ?? "absent (defaults)"))
        out.print("Queue:           " + (status.queue.map { "queue.json: \($0.fifo.count) FIFO, \($0.priority.count) priority" } ?? "no queue.json"))
        out.print("Migration:       \(Self.describe(status.state, store: store.path))")
        out.print("Lock:            " + (status.lockHolder.map { "held by \($0.summary)" } ?? "free"))
        out.print("Unreadable:      " + (status.unreadable.isEmpty ? "none" : "\(status.unreadable.count)"))
        for problem in status.unreadable { out.print("  - \(problem.printedMessage)") }
        let warnings = status.interruptedLayoutFolder.map { [($0, store.interruptedLayoutMessage($0))] } ?? []
        for (_, message) in warnings {
            out.print("Warning:         interrupted_layout_change: \(message); run '\(ToolInfo.command("migrate", store.path))' to finish")
        }
        out.emitJSON([
            "store": .string(store.path),
            "schema_version": .int(schema),
            "min_reader_version": minReader.map(JSONOutputValue.int) ?? .null,
            "known_versions": .array((MigrationChain.oldest...MigrationChain.newest).map { .int($0) }),
            "readers": .array(MigrationChain.readers(at: schema).map { .int($0) }),
            "steps_ahead": ChainRendering.stepsJSON(ahead),
            "work_streams_by_schema_version": Self.versionsJSON(status.sessionsByVersion),
            "customizations_by_schema_version": Self.versionsJSON(status.customisationsByVersion),
            "settings_schema_version": status.settingsVersion.map(JSONOutputValue.int) ?? .null,
            "queue": status.queue.map { .object(["fifo": .int($0.fifo.count), "priority": .int($0.priority.count)]) } ?? .null,
            "migration": .string(Self.code(status.state)),
            "migration_detail": .string(Self.describe(status.state, store: store.path)),
            "lock_holder": status.lockHolder.map { .string($0.summary) } ?? .null,
            "unreadable": ReportRendering.errorsJSON(status.unreadable),
            "warnings": .array(
                warnings.map { folder, message in
                    .object([
                        "code": .string("interrupted_layout_change"), "folder": .string(folder),
                        "message": .string(message), "fix": .string("run '\(ToolInfo.command("migrate", store.path))' to finish"),
                    ])
                }),
        ])
        return status.unreadable.isEmpty ? .success : ProblemExit.code(status.unreadable)
    }

    static func versions(_ manifest: ManifestDocument) -> (Int, Int?) {
        switch manifest {
        case .v1: (1, nil)
        case .v2(let m): (m.schemaVersion, m.minReaderVersion)
        }
    }

    static func total(_ counts: [Int: Int]) -> Int { counts.values.reduce(0, +) }

    static func byVersion(_ counts: [Int: Int]) -> String {
        counts.isEmpty ? "" : " (" + counts.sorted { $0.key < $1.key }.map { "v\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
    }

    static func versionsJSON(_ counts: [Int: Int]) -> JSONOutputValue {
        .object(Dictionary(uniqueKeysWithValues: counts.map { (String($0.key), JSONOutputValue.int($0.value)) }))
    }

    static func code(_ state: StoreStatus.MigrationState) -> String {
        switch state {
        case .notNeeded: "not_needed"
        case .needed: "needed"
        case .interrupted: "interrupted"
        case .touchedByOlderWriter: "touched_by_older_writer"
        case .newerStore: "newer_store"
        }
    }

    static func describe(_ state: StoreStatus.MigrationState, store: String) -> String {
        switch state {
        case .notNeeded: "not needed (every document is at the store's version)"
        case .needed: "needed: run '\(ToolInfo.command("plan", store))' to see the changes, then '\(ToolInfo.command("migrate", store))'"
        case .interrupted(let n):
            "interrupted: \(n) document\(n == 1 ? " is" : "s are") already at a newer version; run '\(ToolInfo.command("migrate", store))' to finish"
        case .touchedByOlderWriter(let n):
            "an older app version changed \(n) document\(n == 1 ? "" : "s") since the upgrade; run '\(ToolInfo.command("migrate", store))' to upgrade \(n == 1 ? "it" : "them") and reconcile the queue"
        case .newerStore: "the store is newer than this tool; nothing to migrate"
        }
    }
}
