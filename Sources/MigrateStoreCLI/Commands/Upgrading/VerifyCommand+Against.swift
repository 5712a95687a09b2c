import JSONStore

/// The backup given to `verify --against`, read as a store and taken through the chain to the
/// store's version (`BackupChain`), whatever version it is; or a refusal that says why not.
struct VerifyAgainst {
    let path: String
    /// The backup opened as a store, for the per-reader check (b).
    let backup: Store
    /// Its documents as they are, at `version`.
    let snapshot: StoreSnapshot
    let version: Int
    /// Its documents taken to the store's version: what the store holds if nothing else changed it.
    let expected: StoreSnapshot

    /// Reads the backup at `path` and takes it to `storeVersion`.
    ///
    /// - Throws: 65 for a backup this tool can't read as a store, one whose documents can't be
    ///   read, or one no chain takes to the store's version (newer than the store, across a
    ///   rollback-safe step, which has no inverse).
    static func load(_ path: String, store: String, storeVersion: Int) throws -> VerifyAgainst {
        let version = try StoreReadability.require(path, action: "verify against")
        let backup = try Store.open(at: path, options: StoreArgument.options(readOnly: true))
        let snapshot = try BackupChain.snapshot(of: backup)
        let expected: StoreSnapshot?
        do { expected = try BackupChain.migrate(snapshot, to: storeVersion) } catch {
            throw CommandError(
                .dataError,
                "Can't verify '\(store)' against the backup '\(path)': its documents can't be taken from v\(version) "
                    + "to v\(storeVersion) through the chain: \(error). Run '\(ToolInfo.command("validate", path))' to see why.")
        }
        guard let expected else {
            throw CommandError(
                .dataError,
                "Can't verify '\(store)' against the backup '\(path)': the backup '\(path)' is at schema version "
                    + "\(version) and the store at \(storeVersion), and no step of the chain takes a store back from v\(version) "
                    + "to v\(storeVersion) (only a breaking step has an inverse). Give the backup taken before the store was "
                    + "migrated, or verify without --against.")
        }
        return VerifyAgainst(path: path, backup: backup, snapshot: snapshot, version: version, expected: expected)
    }

    /// The backup at `version` (for the round trip of a breaking step), or nil when no chain leads there.
    func at(_ version: Int) throws -> StoreSnapshot? {
        do { return try BackupChain.migrate(snapshot, to: version) } catch {
            throw CommandError(.dataError, "Can't take the backup '\(path)' from v\(self.version) to v\(version) through the chain: \(error).")
        }
    }

    /// Compares every document of `store` with the backup taken to its version.
    func compare(_ store: Store) throws -> BackupComparison.Result {
        try BackupComparison.compare(store, expected: expected, backupVersion: version)
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
