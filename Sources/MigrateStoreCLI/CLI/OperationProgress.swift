import JSONStore

/// Shows a library operation's `StoreProgress` (an upgrade's phases, a backup, a backup's
/// verification, an export, an import, a restore, a store's validation or verification): one progress line per
/// phase on standard error, on a terminal only (`Backing up: 12/40 files`, then `Verifying
/// backup: 3/40 files`; `Migrating: 12/40 work streams`), and the lock-wait sentence. The line is
/// blanked when its phase ends, at ``finish()``, and when this is released (so a command that
/// throws leaves a clean line for its error). Every command that shows progress draws it here.
///
/// ```swift
/// let progress = OperationProgress(out)
/// let report = try Backup.create(store: store, destination: destination, tool: ToolInfo.name,
///                                version: ToolInfo.version) { progress.show($0) }
/// progress.finish()
/// ```
final class OperationProgress {
    private let out: Output
    private var line: ProgressLine?
    private var phase: StoreProgress.Phase?

    init(_ out: Output) { self.out = out }

    deinit { line?.finish() }

    func show(_ progress: StoreProgress) {
        switch progress {
        case .waitingForLock(let store, let holder):
            finish()
            out.waitingForLock(store: store, holder: holder)
        case .phase(let phase, let done, let total):
            if phase != self.phase {
                // The line is made at a phase's first count, when its total is known.
                finish()
                self.phase = phase
                line = out.progress(Self.label(phase), total: total)
            }
            line?.update(done, detail: Self.unit(phase))
        }
    }

    /// Blanks the line if one was drawn.
    func finish() {
        line?.finish()
        line = nil
        phase = nil
    }

    /// What the line says the phase does: `"Backing up"`.
    static func label(_ phase: StoreProgress.Phase) -> String {
        switch phase {
        case .validating: "Validating"
        case .backingUp: "Backing up"
        case .verifyingBackup: "Verifying backup"
        case .migrating: "Migrating"
        case .removingOldFiles: "Removing the old files"
        case .exporting: "Exporting"
        case .importing: "Importing"
        case .restoring: "Restoring"
        case .verifyingCopy: "Verifying copy"
        case .verifyingStore: "Verifying"
        }
    }

    /// What the phase counts, after the numbers: `"files"`.
    static func unit(_ phase: StoreProgress.Phase) -> String {
        switch phase {
        case .validating, .migrating, .verifyingStore: "work streams"
        case .backingUp, .verifyingBackup, .removingOldFiles, .exporting, .importing, .restoring, .verifyingCopy: "files"
        }
    }
}
