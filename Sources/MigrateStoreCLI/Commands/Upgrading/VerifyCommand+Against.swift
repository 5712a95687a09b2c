import JSONStore

/// The backup given to `verify --against`, read as a store and taken through the chain to the
/// store's version (`BackupChain`), whatever version it is; or a refusal that says why not.
///
/// Loading reads every document of the backup once and keeps its summaries (`BackupChain.Source`:
/// each work stream's id, `schema_version` and queue keys, the customisations' ids, `store.json`
/// and `queue.json`), never the documents: the comparison and the round trip of a breaking step
/// read each document of the backup again when they need it, one at a time.
struct VerifyAgainst {
    let path: String
    /// The store's path and version, for the refusals.
    let store: String
    let storeVersion: Int
    /// The backup opened as a store, for the per-reader check (b).
    let backup: Store
    /// Its summaries, as it is, at `version`.
    let source: BackupChain.Source
    let version: Int
    /// Its documents taken to the store's version, read on demand: what the store holds if nothing else changed it.
    let expected: BackupChain

    /// Reads the backup at `path` and plans its way to `storeVersion`.
    ///
    /// - Throws: 65 for a backup this tool can't read as a store, one whose documents can't be
    ///   read, or one no chain takes to the store's version (newer than the store, across a
    ///   rollback-safe step, which has no inverse, or a document a step fails on).
    static func load(_ path: String, store: String, storeVersion: Int) throws -> VerifyAgainst {
        let version = try StoreReadability.require(path, action: "verify against")
        let backup = try Store.open(at: path, options: StoreArgument.options(readOnly: true))
        let source = try BackupChain.read(backup)
        let expected = try chained(path, store: store, from: version, to: storeVersion) { () throws(StoreError) in try BackupChain(source, to: storeVersion) }
        guard let expected else {
            throw CommandError(
                .dataError,
                "Can't verify '\(store)' against the backup '\(path)': the backup '\(path)' is at schema version "
                    + "\(version) and the store at \(storeVersion), and no step of the chain takes a store back from v\(version) "
                    + "to v\(storeVersion) (only a breaking step has an inverse). Give the backup taken before the store was "
                    + "migrated, or verify without --against.")
        }
        return VerifyAgainst(
            path: path, store: store, storeVersion: storeVersion, backup: backup, source: source, version: version, expected: expected)
    }

    /// The backup at `version` (for the round trip of a breaking step), or nil when no chain leads there.
    func at(_ version: Int) throws -> BackupChain? {
        try chained { () throws(StoreError) in try BackupChain(source, to: version) }
    }

    /// Compares every document of `store` with the backup taken to its version, one at a time.
    func compare(_ store: Store) throws -> BackupComparison.Result {
        try chained { () throws(StoreError) in try BackupComparison.compare(store, expected: expected) }
    }

    /// `body`, which reads the backup's documents through the chain: a document a step fails on
    /// is refused with 65, as a backup no chain takes to the store's version (the chain is taken
    /// one document at a time, so this may come after other documents were compared, never
    /// after anything was printed).
    func chained<T>(_ body: () throws(StoreError) -> T) throws -> T {
        try Self.chained(path, store: store, from: version, to: storeVersion, body)
    }

    private static func chained<T>(_ path: String, store: String, from version: Int, to storeVersion: Int, _ body: () throws(StoreError) -> T) throws -> T {
        do { return try body() } catch {
            guard let failure = error.underlying as? BackupChain.ChainFailure else { throw error }
            throw CommandError(
                .dataError,
                "Can't verify '\(store)' against the backup '\(path)': its documents can't be taken from v\(version) "
                    + "to v\(storeVersion) through the chain: \(failure.error). Run '\(ToolInfo.command("validate", path))' to see why.")
        }
    }
}

extension VerifyCommand {
    /// One line for the comparison with the backup, then one per document that differs.
    static func printComparison(_ result: BackupComparison.Result, _ out: Output) {
        let what =
            result.backupVersion == result.storeVersion
            ? "the backup (at v\(result.storeVersion), as the store)"
            : "the backup taken from v\(result.backupVersion) to v\(result.storeVersion) through the chain"
        guard result.passed else {
            out.print("  \(what): \(TextFormat.plural(result.differences.count, "difference"))")
            for difference in result.differences.prefix(50) { out.print("    - \(difference.file): \(difference.reason)") }
            if result.differences.count > 50 { out.print("    - and \(result.differences.count - 50) more (--json lists every one)") }
            return
        }
        var parts = [TextFormat.plural(result.workStreams, "work stream"), TextFormat.plural(result.customisations, "customisation")]
        if result.settings { parts.append(StoreLayout.settings) }
        if result.queue { parts.append(StoreLayout.queue) }
        let list = parts.count == 1 ? parts[0] : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
        out.print("  \(what): ok (\(list) compared)")
    }

    /// The comparison for `--json`.
    static func comparisonJSON(_ result: BackupComparison.Result?) -> JSONOutputValue {
        guard let result else { return .null }
        return .object([
            "backup_schema_version": .int(result.backupVersion), "store_schema_version": .int(result.storeVersion),
            "work_streams": .int(result.workStreams), "customizations": .int(result.customisations),
            "settings": .bool(result.settings), "queue": .bool(result.queue), "passed": .bool(result.passed),
            "differences": .array(result.differences.map { .object(["file": .string($0.file), "reason": .string($0.reason)]) }),
        ])
    }
}
