/// A store whose restore did not finish: `.<store>.restore-journal` next to it, and no
/// `store.json` at the path (the old store was moved aside, the restored one not yet renamed in).
///
/// Reading such a path must not say "not a store, create one": creating a store there would
/// make recovery refuse to put the restored store in place (`StoreSwap.decide`: a store that
/// appeared meanwhile is a conflict). Instead the error names the journal and the way out: the
/// next restore into the path, or the next open of it for writing, finishes the swap
/// (`StoreSwap.recover`). The code is `.restoreInterrupted`: a passing state, not bad data (the
/// tool's exit status 75, "try again"), and a journal also exists while a restore is running,
/// which a reader cannot tell apart without taking the restore's lock (a write).
///
/// It sits with the store, below `Restore/`, because opening and classifying a store make this
/// check; what it needs of the restore is only the journal's file name, defined here.
package enum InterruptedRestore {
    /// The file name of the restore journal of `target` (`RestoreJournal`), in its parent.
    package static func journalFileName(for target: SiblingPath) -> String { ".\(target.name).restore-journal" }

    /// The error for `store` when a restore into it has not finished, else nil. Reads only.
    package static func error(_ store: String, system: SystemCalls) -> StoreError? {
        guard let target = try? SiblingPath(store) else { return nil }
        let journal = target.sibling(journalFileName(for: target))
        // A check that fails (a permission, a disk error) finds nothing: the caller's own error stands.
        do throws(StoreError) {
            guard try system.linkStatus(journal, context: ErrorContext("check", journal)) != nil,
                try system.linkStatus(joinPath(store, StoreLayout.manifest), context: ErrorContext("check", store)) == nil
            else { return nil }
        } catch { return nil }
        return StoreError(
            .restoreInterrupted,
            "Can't read the store '\(store)': a restore into it was interrupted before the restored store was put in "
                + "place (its journal '\(journal)' is next to it), or is still running. Nothing was changed. The next "
                + "restore into '\(store)', or the next open of it for writing, finishes that restore; then try again.",
            path: journal)
    }
}
