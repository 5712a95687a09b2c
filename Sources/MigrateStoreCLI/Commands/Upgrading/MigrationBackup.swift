import Foundation
import JSONStore

/// The backup `migrate` takes before its first write.
enum MigrationBackup {
    /// Takes and verifies the backup while `lock` is held (so no writer changes the store between
    /// the backup and the migration), or returns nil with `--no-backup`. The default folder is
    /// `<store>.backup-<yyyyMMdd'T'HHmmss'Z'>` next to the store.
    static func take(_ choice: MigrateCommand.BackupChoice, store: String, holding lock: StoreLock, out: Output) throws -> String? {
        let destination: String
        switch choice {
        case .none:
            out.info("No backup taken (--no-backup).")
            return nil
        case .defaultFolder: destination = try Backup.defaultDestination(store: store)
        case .folder(let folder): destination = folder
        }
        let report = try out.withProgress("Backing up", total: nil) { _ in
            try Backup.create(store: store, destination: destination, tool: ToolInfo.name, version: ToolInfo.version, holding: lock)
        }
        out.info("Backed up '\(store)' to '\(destination)': \(report.manifest.files.count) files, \(report.totalBytes) bytes, verified.")
        return destination
    }
}
