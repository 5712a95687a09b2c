import Foundation
import StoreJSON

/// The breaking step (v4 → v5, the folder rename) and its inverse in the upgrade procedure (spec §9, §12).
///
/// - Forward needs `allowBreaking` and a backup (it may not run with `BackupPolicy.none`): a store
///   below the step's `from` is first taken there along the rollback-safe steps (after the
///   backup, under the same lock: `StoreMigrator.migrate`), then the folder is renamed. Refused
///   otherwise, before anything is read beyond `store.json`.
/// - The inverse (`to: 4` on a v5 store) needs no confirmation: it gives every older reader the
///   store back. It takes a backup like any step, unless `BackupPolicy.none`.
/// - A store at the target whose last rename was interrupted after its `store.json` was written
///   is finished without a backup: nothing is left to undo.
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

    /// The check phase of a store on either side of the folder rename: what an interrupted rename
    /// left. A folder the manifest does not explain is refused before anything is written (no
    /// lock file either); one it explains is never trusted (see `StoreMigrator+FolderRename.swift`),
    /// and a backup would refuse the foreign folder: it is removed first, under the lock.
    ///
    /// - Returns: The removal, as the report of `run` starts with it (empty when nothing was left).
    static func removeRenameLeftovers(
        _ path: String, at version: Int, tool: String, version toolVersion: String, progress: (Event) -> Void
    ) throws(StoreError) -> MigrationReport {
        var report = MigrationReport(keepsDocuments: false)
        // A newer store than this code knows has no folder this code may call a leftover.
        guard version >= StoreMigrator.FolderRename.forward.from, version <= MigrationChain.newest else { return report }
        _ = try StoreMigrator.leftoverWorkStreams(path, storeVersion: version)
        guard try StoreMigrator.hasLeftoverFolders(path, at: version) else { return report }
        let lock = try StoreLock(store: path, tool: tool, version: toolVersion) { progress(.waitingForLock(holder: $0)) }
        defer { lock.release() }
        _ = try TempSweep.sweep(store: path, holding: lock)
        if let removed = try StoreMigrator.removeLeftovers(path, storeVersion: try rawSchemaVersion(path)) {
            report.append(DocumentChanges(file: removed.folder + "/", changes: [.leftoverFolderRemoved(workStreams: removed.workStreams)]))
            progress(
                .warning(
                    "Removed '\(removed.folder)/' (\(removed.workStreams) work stream file(s)) from '\(path)': an interrupted "
                        + "layout change left it, and the store's own folder holds the same work streams."))
        }
        return report
    }
}
