import Foundation
import StoreJSON

/// The breaking step v3 → v4 and its inverse in the upgrade procedure (spec §9, §11).
///
/// - Forward needs `allowBreaking` and a backup (it may not run with `BackupPolicy.none`): a v1
///   or v2 store is first taken to v3 along the rollback-safe steps (after the backup), then
///   the layout changes. Refused otherwise, before anything is read beyond `store.json`.
/// - The inverse (`to: 4` on a v5 store) needs no confirmation: it gives every older reader the
///   store back. It takes a backup like any step, unless `BackupPolicy.none`.
/// - A store at the target whose last layout change was interrupted after its `store.json` was
///   written is finished (`LayoutChange.finish`) without a backup: nothing is left to undo.
extension StoreUpgrade {
    /// The `schema_version` in `store.json`, read without the reader rule (a v5 store refuses
    /// older readers, and this is the code that moves it).
    static func rawSchemaVersion(_ path: String) throws(StoreError) -> Int {
        try Store.classify(path).storeSchemaVersion
    }

    /// True when going from `from` to `target` takes a breaking step (forward).
    public static func takesBreakingStep(from: Int, to target: Int) -> Bool {
        MigrationChain.steps(from: from, to: target).contains { $0.kind == .breaking }
    }

    /// What a breaking step does to readers, for refusals: "… refuses readers of schema versions 1 to 3 …".
    public static func breakingConsequence(from: Int, to target: Int) -> String {
        let minimum = MigrationChain.minReaderVersion(at: target)
        let refused = Array(MigrationChain.oldest..<minimum)
        let names = refused.count > 1 ? "versions \(refused.first!) to \(refused.last!)" : "version \(refused.first ?? from)"
        let steps = MigrationChain.steps(from: from, to: target)
        let breaking = steps.filter { $0.kind == .breaking }.map { "v\($0.from) → v\($0.to)" }.joined(separator: ", ")
        let what = steps.count == 1 ? "v\(from) → v\(target) is a breaking step" : "v\(from) → v\(target) takes the breaking step \(breaking)"
        return what + ": afterwards the store sets min_reader_version \(minimum) "
            + "and refuses every reader of schema \(names) (app versions built on them stop opening it)"
    }

    /// The refusal of a breaking step that was not asked for by name (`allowBreaking`), or that
    /// would run without a backup; nil when it may run.
    static func breakingRefusal(_ path: String, from: Int, to target: Int, allowBreaking: Bool, backup: BackupPolicy) -> StoreError? {
        let what = breakingConsequence(from: from, to: target)
        if !allowBreaking {
            let fix =
                "See every change first with StoreMigrator.plan(to: \(target)); to proceed, pass allowBreaking: true "
                + "(it takes a verified backup first, and the migration to version \(target - 1) goes back exactly)."
            return StoreError(
                .invalidArgument, "Can't migrate '\(path)' to schema version \(target) without an explicit confirmation: \(what). \(fix) Nothing was changed.",
                path: path, recovery: .advice(fix))
        }
        if backup == .none {
            let fix = "Run it with a backup: a breaking step runs only after a verified backup."
            return StoreError(
                .invalidArgument, "Can't migrate '\(path)' to schema version \(target) without a backup: \(what). \(fix) Nothing was changed.",
                path: path, recovery: .advice(fix))
        }
        return nil
    }

    /// The part of `run` for stores at v4 or v5 whose target involves the layout change.
    static func runLayoutChange(
        at path: String, from: Int, to target: Int, backup: BackupPolicy, tool: String, version: String,
        progress: (Event) -> Void, shouldContinue: () -> Bool
    ) throws(StoreError) -> Outcome {
        let direction: LayoutChange.Direction = target >= LayoutChange.Direction.forward.to ? .forward : .inverse
        let layout = LayoutChange(path: path, system: .real)
        var removedLeftover = MigrationReport(keepsDocuments: false)
        // A folder the manifest does not explain is refused before anything is written (no lock file either).
        _ = try layout.leftoverWorkStreams(storeVersion: try rawSchemaVersion(path))
        if try layout.hasLeftoverFolders(at: from) {
            // What an interrupted layout change left is never trusted (see `LayoutChange`), and a
            // backup would refuse the foreign folder: removed first, under the lock.
            let lock = try StoreLock(store: path, tool: tool, version: version) { progress(.waitingForLock(holder: $0)) }
            defer { lock.release() }
            _ = try TempSweep.sweep(store: path, holding: lock)
            if let removed = try layout.removeLeftovers(storeVersion: try rawSchemaVersion(path)) {
                removedLeftover.append(DocumentChanges(file: removed.folder + "/", changes: [.leftoverFolderRemoved(workStreams: removed.workStreams)]))
                progress(
                    .warning(
                        "Removed '\(removed.folder)/' (\(removed.workStreams) work stream file(s)) from '\(path)': an interrupted "
                            + "layout change left it, and the store's own folder holds the same work streams."))
            }
        }
        var backup = backup
        var takenBackup: String?
        var earlier: MigrationReport?
        var reachedFrom = from
        var needsRollbackSafePart = direction == .forward && from < direction.from
        if direction == .forward && from == direction.from {
            needsRollbackSafePart = try rollbackSafePartChanges(path, at: direction.from, tool: tool, version: version)
        }
        if needsRollbackSafePart {
            // The rollback-safe steps first (and the §7 reconcile after an older writer), after the backup.
            switch try run(
                at: path, to: direction.from, backup: backup, tool: tool, version: version, progress: progress,
                shouldContinue: shouldContinue)
            {
            case .upgraded(let report, _, _, let destination):
                takenBackup = destination
                earlier = report
            case .newerStore(let newer): return .newerStore(schemaVersion: newer)
            case .alreadyCurrent, .doneByAnotherProcess: break
            }
            if takenBackup != nil { backup = .none }
            reachedFrom = try rawSchemaVersion(path)
        }
        let context = StoreMigration.Context(startedAt: Date(), finishedAt: Date(), toolVersion: version, target: target)
        if reachedFrom == target {
            guard try layout.needsFinishing(at: target) else {
                if !removedLeftover.isNoop { return .upgraded(removedLeftover, from: target, to: target, backup: nil) }
                return .alreadyCurrent(MigrationReport(), from: target)
            }
            let lock = try StoreLock(store: path, tool: tool, version: version) { progress(.waitingForLock(holder: $0)) }
            defer { lock.release() }
            _ = try TempSweep.sweep(store: path, holding: lock)
            let report = try layout.run(direction, write: true, context: context, keepingDocuments: false)
            return .upgraded(report, from: target, to: target, backup: nil)
        }
        try checkpoint(.beforeValidation, path, shouldContinue)
        // Every document read and transformed, nothing written (bad input changes nothing).
        _ = try reporting(progress) { (progress) throws(StoreError) in
            try layout.run(direction, write: false, context: context, keepingDocuments: false, progress: progress)
        }
        try checkpoint(.beforeLock, path, shouldContinue)
        let lock = try StoreLock(store: path, tool: tool, version: version) { progress(.waitingForLock(holder: $0)) }
        defer { lock.release() }
        if try rawSchemaVersion(path) == target, try !layout.needsFinishing(at: target) {
            return .doneByAnotherProcess(MigrationReport(), from: reachedFrom, to: target)
        }
        _ = try TempSweep.sweep(store: path, holding: lock)
        try checkpoint(.beforeBackup, path, shouldContinue)
        var destination = takenBackup
        if destination == nil { destination = try takeBackup(backup, store: path, tool: tool, version: version, holding: lock, progress: progress) }
        try checkpoint(.beforeMigration(backup: destination), path, shouldContinue)
        progress(.migrationStarted)
        let report = try reporting(progress) { (progress) throws(StoreError) in
            try layout.run(direction, write: true, context: context, keepingDocuments: false, progress: progress)
        }
        progress(.migrationFinished)
        guard var whole = earlier else { return .upgraded(report, from: from, to: target, backup: destination) }
        whole.merge(report)
        return .upgraded(whole, from: from, to: target, backup: destination)
    }

    /// True when a store at `schemaVersion`, the layout change's starting version, needs the
    /// rollback-safe part before the layout change: a document an older writer rewrote, or a
    /// queue its mirror disagrees with (§7).
    private static func rollbackSafePartChanges(_ path: String, at schemaVersion: Int, tool: String, version: String) throws(StoreError) -> Bool {
        let reader = try Store.open(at: path, options: Store.Options(readOnly: true, tool: tool, version: version))
        return try !StoreMigrator(store: reader).plan(to: schemaVersion, toolVersion: version).isNoop
    }
}
