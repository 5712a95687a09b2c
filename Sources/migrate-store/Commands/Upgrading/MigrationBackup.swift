import Foundation
import JSONStore

/// The backup `migrate` takes before its first write.
enum MigrationBackup {
    /// The default location: a new folder next to the store, `<store>.backup-<UTC time>`.
    static func defaultLocation(for store: String, now: Date = Date()) -> String {
        let trimmed = store.hasSuffix("/") && store.count > 1 ? String(store.dropLast()) : store
        let stamp = RFC3339.format(now).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        return trimmed + ".backup-" + stamp.prefix(15) + "Z"
    }

    /// Takes and verifies the backup, or returns nil with `--no-backup`.
    static func take(_ args: ParsedArguments, store: String, out: Output) throws -> String? {
        if args.flag("no-backup") {
            out.info("No backup taken (--no-backup).")
            return nil
        }
        let destination = args.option("backup-dir") ?? defaultLocation(for: store)
        // INTERIM: the backup engine lands with the backup/restore work; until then only --no-backup works.
        throw CommandError(.internalError, "Can't back up '\(store)' to '\(destination)' yet: this build has no backup engine. Use --no-backup with your own copy.")
    }
}
