import JSONStore

/// Shows the events of `StoreUpgrade.run` as `migrate` always has: warnings and the backup's
/// summary on standard error, a progress line for the backup and the migration on a terminal.
/// The line is blanked when its phase ends and, if the upgrade throws, when this is released.
final class UpgradeProgress {
    private let out: Output
    private let store: String
    private var line: ProgressLine?
    private var backupDestination = ""
    private let backup: OperationProgress

    init(_ out: Output, store: String) {
        self.out = out
        self.store = store
        self.backup = OperationProgress(out)
    }

    deinit { line?.finish() }

    func show(_ event: StoreUpgrade.Event) {
        switch event {
        case .warning(let sentence):
            finish()
            out.warning(sentence)
        case .waitingForLock(let holder):
            finish()
            out.waitingForLock(store: store, holder: holder)
        case .backupSkipped:
            finish()
            out.info("No backup taken (--no-backup).")
        case .backupStarted(let destination):
            finish()
            backupDestination = destination
        case .backingUp(let progress):
            // "Backing up: 12/40 files", then "Verifying backup: 12/40 files", as `backup` shows them.
            backup.show(progress)
        case .backupFinished(let report):
            backup.finish()
            out.info("Backed up '\(store)' to '\(backupDestination)': \(report.manifest.files.count) files, \(report.totalBytes) bytes, verified.")
            for folder in report.removedStagingFolders {
                out.info("Removed '\(folder)', the partial copy of an interrupted backup.")
            }
        case .validating(let done, let total):
            if line == nil { line = out.progress("Validating", total: total) }
            line?.update(done, detail: "work streams")
        case .migrationStarted:
            finish()
        case .migrating(let done, let total):
            // The line is made at the first count, when the total is known: "Migrating: 12/40 work streams".
            if line == nil { line = out.progress("Migrating", total: total) }
            line?.update(done, detail: "work streams")
        case .migrationFinished:
            finish()
        case .removingOldFiles(let done, let total):
            // "Removing the old files: 12/40 files" (the folders the migration's exchanges replaced).
            if line == nil { line = out.progress("Removing the old files", total: total) }
            line?.update(done, detail: "files")
        }
    }

    /// Clears the progress line, if one is drawn.
    func finish() {
        line?.finish()
        line = nil
    }
}
