import JSONStore

/// Shows the events of `StoreUpgrade.run` as `migrate` always has: warnings and the backup's
/// summary on standard error, and each phase's progress line (validating, backing up, verifying
/// the backup, migrating, removing the old files) through ``OperationProgress`` on a terminal.
/// The line is blanked when its phase ends and, if the upgrade throws, when this is released.
final class UpgradeProgress {
    private let out: Output
    private let store: String
    private var backupDestination = ""
    private let progress: OperationProgress

    init(_ out: Output, store: String) {
        self.out = out
        self.store = store
        self.progress = OperationProgress(out)
    }

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
        case .backupFinished(let report):
            finish()
            out.info("Backed up '\(store)' to '\(backupDestination)': \(report.manifest.files.count) files, \(report.totalBytes) bytes, verified.")
            for folder in report.removedStagingFolders {
                out.info("Removed '\(folder)', the partial copy of an interrupted backup.")
            }
        case .migrationStarted, .migrationFinished:
            finish()
        case .progress(let progress):
            // "Validating: 12/40 work streams", "Backing up: 12/40 files", "Migrating: 12/40 work streams", ...
            self.progress.show(progress)
        }
    }

    /// Clears the progress line, if one is drawn.
    func finish() {
        progress.finish()
    }
}
