// What `print(report)` shows for a backup: where it is and what it holds, instead of every
// file of its manifest.

extension BackupReport: CustomStringConvertible {
    /// `backup 'store.backup' of schema version 2: 15 files, 20278 bytes (15 copied, 0 as clones, 0 linked)`,
    /// then `; 1 unreadable document` and `; removed 1 interrupted backup` when there are any.
    public var description: String {
        var text =
            "backup '\(destination)' of schema version \(manifest.storeSchemaVersion): \(manifest.files.count) "
            + "file\(manifest.files.count == 1 ? "" : "s"), \(totalBytes) bytes (\(copiedFiles) copied, \(clonedFiles) as clones, "
            + "\(linkedFiles) linked)"
        if !unreadableDocuments.isEmpty {
            text += "; \(unreadableDocuments.count) unreadable document\(unreadableDocuments.count == 1 ? "" : "s")"
        }
        if !removedStagingFolders.isEmpty {
            text += "; removed \(removedStagingFolders.count) interrupted backup\(removedStagingFolders.count == 1 ? "" : "s")"
        }
        return text
    }
}

extension ListedBackup: CustomStringConvertible {
    /// `store.backup-20251120T090000Z: taken 2025-11-20T09:00:00.000Z, schema version 2, 15 files,
    /// 86016 bytes on disk`, or `store.backup-…: backup.json does not read (…), 8192 bytes on disk`.
    public var description: String {
        guard let summary else { return "\(name): backup.json does not read (\(manifestProblem ?? "")), \(bytesOnDisk) bytes on disk" }
        return "\(name): taken \(summary.createdAt), schema version \(summary.storeSchemaVersion), \(summary.files) "
            + "file\(summary.files == 1 ? "" : "s"), \(bytesOnDisk) bytes on disk"
    }
}
