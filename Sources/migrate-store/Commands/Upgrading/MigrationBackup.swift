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
        let report = try out.withProgress("Backing up", total: nil) { _ in
            try Backup.create(store: store, destination: destination, tool: ToolInfo.name, version: ToolInfo.version)
        }
        out.info("Backed up '\(store)' to '\(destination)': \(report.manifest.files.count) files, \(report.totalBytes) bytes, verified.")
        return destination
    }
}
