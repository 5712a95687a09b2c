import JSONStore

/// `migrate-store list-backups <store>`: the backups beside a store (see `Backup.list(besides:)`).
///
/// ```
/// $ migrate-store list-backups store
/// 2 backups beside 'store', oldest first:
///   TAKEN                     SCHEMA  FILES  ON DISK   STATE  BACKUP
///   2025-11-20T09:00:00.000Z       1     14  84.0 KiB  ok     store.backup-20251120T090000Z
///   2025-11-21T09:00:00.000Z       2     14  84.0 KiB  ok     store.backup-20251121T090000Z
/// Total: 2 backups, 172032 bytes on disk (168.0 KiB).
/// ```
struct ListBackupsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "list-backups", group: .backupAndRestore,
        abstract: "List the backups beside a store and their sizes.",
        discussion: """
            Looks in the store's parent folder for the folders 'migrate' makes \
            (<store>.backup-<time>), and for any other folder whose backup.json records this \
            store. Shows when each backup was taken (from its backup.json), the schema version \
            it holds, its size on disk, and its state: ok, incomplete (a file missing or of \
            another size; run verify-backup), unreadable (its backup.json does not read), or \
            the store it is of when that is not this one. Backups made elsewhere (--backup-dir, \
            'backup <store> <dest>') are not found. Reads only.
            """,
        arguments: [.store])

    let store: String

    init(_ arguments: ParsedArguments) { store = arguments.value(.store) }

    func run(_ out: Output) throws -> ExitCode {
        let listing = try Backup.list(besides: store)
        out.emitJSON(BackupListRendering.json(listing))
        for line in BackupListRendering.text(listing) { out.print(line) }
        for path in listing.interruptedRemovals {
            out.info("Note: '\(path)' is a backup an interrupted prune-backups was removing; the next prune-backups removes it.")
        }
        let prunable = listing.backups.filter { $0.keptBecause == nil }.count
        if prunable > 1 {
            out.info(
                "To remove all but the newest: " + ToolInfo.command("prune-backups", store, "--keep", "1")
                    + " (--dry-run shows what it would remove).")
        }
        return .success
    }
}

/// `migrate-store prune-backups <store> --keep N [--dry-run]` (see `Backup.prune(besides:keeping:dryRun:)`).
///
/// ```
/// $ migrate-store prune-backups store --keep 1
/// Removed 'store.backup-20251120T090000Z' (86016 bytes on disk).
/// Freed 86016 bytes (84.0 KiB). Kept the newest 1: 'store.backup-20251121T090000Z'.
/// ```
struct PruneBackupsCommand: Subcommand {
    static let keep = OptionSpec(
        name: "keep", kind: .integer(minimum: 1), valueName: "n",
        help: "How many of the newest backups of this store to keep (at least 1).", isRequired: true)
    static let dryRun = OptionSpec.flag("dry-run", help: "Show what would be removed; remove nothing.")

    static let spec = CommandSpec(
        name: "prune-backups", group: .backupAndRestore,
        abstract: "Remove old backups beside a store; keep the newest.",
        discussion: """
            Removes only folders named as 'migrate' names its backups (<store>.backup-<time>, \
            beside the store) that are complete backups of this store: backup.json reads, \
            records this store's identity, and every file it lists is there with its size. \
            Any other folder is never removed and does not count towards --keep. Each folder \
            is first renamed to a dot name (.<name>.removing-<hex>), then deleted: an \
            interrupted prune never leaves a partial folder under a backup's name, and the \
            next prune finishes it. The store's store.json must read (status 65 otherwise).
            """,
        arguments: [.store],
        options: [keep, dryRun])

    let store: String
    let count: Int
    let isDryRun: Bool

    init(_ arguments: ParsedArguments) {
        store = arguments.value(.store)
        count = arguments.integer(Self.keep) ?? 1
        isDryRun = arguments.flag(Self.dryRun)
    }

    func run(_ out: Output) throws -> ExitCode {
        let report = try Backup.prune(besides: store, keeping: count, dryRun: isDryRun)
        for path in report.finishedRemovals {
            out.info("Finished removing '\(path)', left by an interrupted prune-backups.")
        }
        for line in BackupListRendering.text(report) { out.print(line) }
        for backup in report.untouched {
            out.info("Not pruned: '\(backup.name)': \(backup.keptBecause ?? "").")
        }
        out.emitJSON(BackupListRendering.json(report))
        return .success
    }
}

/// How `list-backups`, `prune-backups` and `migrate` show backups.
enum BackupListRendering {
    /// The table of a listing, and its total.
    static func text(_ listing: BackupListing) -> [String] {
        guard !listing.backups.isEmpty else { return ["No backups beside '\(listing.store)'."] }
        var table = TextTable(["TAKEN", "SCHEMA", "FILES", "ON DISK", "STATE", "BACKUP"], rightAligned: [1, 2])
        var notes: [String] = []
        for backup in listing.backups {
            let summary = backup.summary
            table.append([
                summary?.createdAt ?? "?", summary.map { String($0.storeSchemaVersion) } ?? "?",
                summary.map { String($0.files) } ?? "?", ByteCount.text(backup.bytesOnDisk), state(backup), backup.name,
            ])
            if let problem = backup.manifestProblem { notes.append("  \(backup.name): backup.json does not read: \(problem)") }
            if let problem = backup.measureProblem { notes.append("  \(backup.name): \(problem)") }
        }
        let count = listing.backups.count
        return ["\(counted(count, "backup")) beside '\(listing.store)', oldest first:"] + table.render(indent: "  ") + notes
            + ["Total: \(counted(count, "backup")), \(listing.totalBytesOnDisk) bytes on disk (\(ByteCount.text(listing.totalBytesOnDisk)))."]
    }

    /// What prune removed (or would remove) and kept.
    static func text(_ report: BackupPruneReport) -> [String] {
        let verb = report.dryRun ? "Would remove" : "Removed"
        var lines = report.removed.map { "\(verb) '\($0.name)' (\($0.bytesOnDisk) bytes on disk)." }
        let kept = report.kept.map { "'\($0.name)'" }.joined(separator: ", ")
        if report.removed.isEmpty {
            lines.append(
                "Nothing to remove: \(counted(report.kept.count, "backup")) of '\(report.listing.store)' can be pruned, "
                    + "and --keep \(report.keep) keeps \(report.kept.count == 1 ? "it" : "them").")
        } else {
            let freed = "\(report.bytesFreed) bytes (\(ByteCount.text(report.bytesFreed)))"
            lines.append(
                report.dryRun
                    ? "Would free \(freed) and keep the newest \(report.kept.count): \(kept). Nothing was removed (--dry-run)."
                    : "Freed \(freed). Kept the newest \(report.kept.count): \(kept).")
        }
        return lines
    }

    /// `ok`, `incomplete`, `unreadable`, `other store`, `unrecorded` (no store recorded) or `unknown store`.
    static func state(_ backup: ListedBackup) -> String {
        if backup.manifestProblem != nil { return "unreadable" }
        if backup.measureProblem != nil || backup.mismatchedFiles > 0 { return "incomplete" }
        switch backup.origin {
        case .thisStore: return "ok"
        case .unrecorded: return "unrecorded"
        case .otherStore: return "other store"
        case .unknown: return "unknown store"
        }
    }

    /// `"this_store"`, `"unrecorded"`, `"other_store"` or `"unknown"`.
    static func originName(_ origin: ListedBackup.Origin) -> String {
        switch origin {
        case .thisStore: "this_store"
        case .unrecorded: "unrecorded"
        case .otherStore: "other_store"
        case .unknown: "unknown"
        }
    }

    static func json(_ backup: ListedBackup) -> JSONOutputValue {
        let summary = backup.summary
        return [
            "path": .string(backup.path), "name": .string(backup.name), "default_named": .bool(backup.isDefaultNamed),
            "created_at": summary.map { .string($0.createdAt) } ?? .null,
            "store_schema_version": summary.map { .int($0.storeSchemaVersion) } ?? .null,
            "files": summary.map { .int($0.files) } ?? .null, "bytes": summary.map { .int(Int($0.bytes)) } ?? .null,
            "bytes_on_disk": .int(Int(backup.bytesOnDisk)), "manifest_reads": .bool(summary != nil),
            "manifest_problem": backup.manifestProblem.map(JSONOutputValue.string) ?? .null,
            "measure_problem": backup.measureProblem.map(JSONOutputValue.string) ?? .null,
            "mismatched_files": .int(backup.mismatchedFiles), "complete": .bool(backup.isComplete),
            "origin": .string(originName(backup.origin)), "state": .string(state(backup)),
            "prunable": .bool(backup.keptBecause == nil), "kept_because": backup.keptBecause.map(JSONOutputValue.string) ?? .null,
        ]
    }

    static func json(_ listing: BackupListing) -> [String: JSONOutputValue] {
        [
            "store": .string(listing.store),
            "store_identity": listing.storeIdentity.map { ["created_at": .string($0.createdAt), "format": .string($0.format)] } ?? .null,
            "backups": .array(listing.backups.map(json)), "total_bytes_on_disk": .int(Int(listing.totalBytesOnDisk)),
            "interrupted_removals": .array(listing.interruptedRemovals.map(JSONOutputValue.string)),
        ]
    }

    static func json(_ report: BackupPruneReport) -> [String: JSONOutputValue] {
        [
            "store": .string(report.listing.store), "keep": .int(report.keep), "dry_run": .bool(report.dryRun),
            "removed": .array(report.removed.map(json)), "kept": .array(report.kept.map(json)),
            "untouched": .array(report.untouched.map(json)), "bytes_freed": .int(Int(report.bytesFreed)),
            "finished_removals": .array(report.finishedRemovals.map(JSONOutputValue.string)),
        ]
    }
}

/// A size for people: `512 bytes`, `84.0 KiB`, `310.2 MiB`, `1.5 GiB`, up to TiB (powers of 1024, one decimal).
enum ByteCount {
    static func text(_ bytes: Int64) -> String {
        guard bytes >= 1024 else { return counted(Int(bytes), "byte") }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return "\(tenths(value)) \(units[unit])"
    }

    /// One decimal, rounded half up: 84.04 → `84.0`.
    private static func tenths(_ value: Double) -> String {
        let scaled = Int64((value * 10).rounded())
        return "\(scaled / 10).\(scaled % 10)"
    }
}

extension BackupListRendering {
    /// What `migrate` says of the backup it took: its size, and how many backups are beside the
    /// store, with the commands that list and prune them. Returns the fields it adds to `--json`.
    /// The migration is done by then: a failure here is a warning, never the command's status.
    static func describeAfterMigrate(backup: String, store: String, _ out: Output) -> [String: JSONOutputValue] {
        let taken: ListedBackup
        do {
            taken = try Backup.describe(backup: backup, of: store)
        } catch {
            out.warning("can't measure the backup '\(backup)': \(error.message)")
            return [:]
        }
        let size = taken.summary.map { "\(counted($0.files, "file")), \($0.bytes) bytes; " } ?? ""
        out.print("Backup: '\(backup)' (\(size)\(ByteCount.text(taken.bytesOnDisk)) on disk).")
        var fields: [String: JSONOutputValue] = ["backup_bytes_on_disk": .int(Int(taken.bytesOnDisk))]
        let listing: BackupListing
        do {
            listing = try Backup.list(besides: store)
        } catch {
            out.warning("can't list the backups beside '\(store)': \(error.message)")
            return fields
        }
        fields["backups_beside_store"] = ["count": .int(listing.backups.count), "bytes_on_disk": .int(Int(listing.totalBytesOnDisk))]
        out.info(
            "\(counted(listing.backups.count, "backup")) beside '\(store)' \(listing.backups.count == 1 ? "takes" : "take") \(ByteCount.text(listing.totalBytesOnDisk)) on disk: '"
                + ToolInfo.command("list-backups", store) + "' lists \(listing.backups.count == 1 ? "it" : "them"), '"
                + ToolInfo.command("prune-backups", store, "--keep", "1")
                + "' removes all but the newest.")
        return fields
    }
}
