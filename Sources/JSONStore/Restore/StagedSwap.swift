import Foundation
import StoreJSON

/// The commit shared by restore and import: puts a sealed `StagedStore` in the place of its
/// target with `StoreSwap`, under the target's `RestoreLock`.
enum StagedSwap {
    /// Takes the lock, finishes an interrupted swap if another run left one, checks the target
    /// again (it may have changed while the staging folder was built), and swaps.
    ///
    /// - Returns: Where the old target was moved, or nil when there was none.
    /// - Throws: `StoreError` from the checks or the swap. The staging folder is removed, except
    ///   when a journal still needs it (the message then says to run the command again).
    /// - Warning: With `force`, replaces a non-empty target; its content is kept at the returned path.
    ///
    /// - Parameter progress: Told `.waitingForLock` when another restore into the target, or a
    ///   writer of the store it replaces, holds a lock this needs.
    static func commit(
        _ staged: StagedStore, force: Bool, tool: String, version: String, forceHint: String,
        system: SystemCalls, progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> String? {
        let target = staged.target
        let journalPath = target.sibling(RestoreJournal.fileName(for: target))
        do throws(StoreError) {
            let lock = try RestoreLock(for: target, system: system) { progress(.waitingForLock(store: target.path, holder: nil)) }
            defer { lock.release() }
            _ = try StoreSwap.recover(target, holding: lock, tool: tool, version: version, system: system, progress: progress)
            let state = try TargetState.inspect(target, system: system)
            if !force, let refusal = state.refusal(target, verb: "restore", forceHint: forceHint) { throw refusal }
            let aside = state.needsAside ? try AsideName.make(for: target, at: Date(), system: system) : nil
            let journal = RestoreJournal(
                target: target.name, staging: staged.directory.name, aside: aside,
                startedAt: RFC3339.format(Date()))
            try StoreSwap(target: target, journal: journal, tool: tool, version: version, system: system, progress: progress).commit()
            staged.directory.release()
            return aside.map(target.sibling)
        } catch {
            let journalLeft = (try? system.linkStatus(journalPath, context: ErrorContext("check", journalPath))) != nil
            if journalLeft { staged.directory.release() } else { staged.directory.discard() }
            throw error
        }
    }
}
