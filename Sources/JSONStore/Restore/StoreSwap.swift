import Foundation

/// Puts a complete, fsynced staging folder in the place of a target folder, crash-safely: killed
/// at any instant (or after a power loss), the target is the old store or the new one after the
/// next `recover` (which `restore` and `import` run first, and a store's open path can run too).
/// Never a mix: each store is one folder, and only whole folders are renamed.
///
/// The steps (`Step`), all in the target's parent folder, and what a crash after each leaves:
///
/// | # | step | state on disk after a crash here | `recover` does | result |
/// |---|---|---|---|---|
/// | 0 | (staging complete, fsynced; no journal) | old target, dot-named staging | removes the stale staging | old |
/// | 1 | write the journal durably | journal, staging, old target | moves old aside, staging in | new |
/// | 2 | rename target → aside (if any) | journal, staging, aside, no target | staging in | new |
/// | 3 | fsync the parent | same as 2, durably | staging in | new |
/// | 4 | rename staging → target | journal, new target, aside | nothing to rename | new |
/// | 5 | fsync the parent | same as 4, durably | nothing to rename | new |
/// | 6 | remove the journal, fsync | done | nothing | new |
///
/// Step 3 makes the aside rename durable before the staging rename, so a power loss cannot
/// persist 4 without 2 (which would fail anyway: rename(2) onto a non-empty folder fails).
/// Without an aside (target absent or an empty folder) steps 2–3 are skipped.
/// `recover`'s table for unexpected states (a folder deleted by hand) is on `recover`.
///
/// Every step runs under the `RestoreLock` of the target, and step 2 also under the target
/// store's own lock, so no writer of the old store is in the middle of a change when it moves.
struct StoreSwap {
    enum Step: Int, CaseIterable, Sendable {
        case writeJournal = 1
        case moveTargetAside, syncAfterAside, moveStagingIntoPlace, syncAfterSwap, removeJournal
    }

    let target: SiblingPath
    let journal: RestoreJournal
    /// Recorded in the old store's lock file while it is moved aside.
    let tool: String
    let version: String
    let system: SystemCalls
    /// Told `.waitingForLock` when a writer holds the old store as it is moved aside.
    var progress: (StoreProgress) -> Void = { _ in }

    var journalPath: String { target.sibling(RestoreJournal.fileName(for: target)) }
    var stagingPath: String { target.sibling(journal.staging) }
    var asidePath: String? { journal.aside.map(target.sibling) }

    /// The steps this swap runs, in order (2–3 only with an aside).
    var steps: [Step] {
        Step.allCases.filter { journal.aside != nil || ($0 != .moveTargetAside && $0 != .syncAfterAside) }
    }

    /// Runs one step. Exposed step by step so tests can stop after any of them, as a crash would.
    func perform(_ step: Step) throws(StoreError) {
        let context = ErrorContext("restore into", target.path)
        switch step {
        case .writeJournal:
            try AtomicFile.durableReplace(
                directory: target.parent, name: RestoreJournal.fileName(for: target),
                bytes: journal.encoded, system: system)
        case .moveTargetAside:
            guard let asidePath else { return }
            // The old store's own lock, so that no writer is in the middle of a change when it moves.
            let lock = try StoreLock(
                store: target.path, tool: tool, version: version, timeout: StoreLock.defaultTimeout,
                system: system
            ) { holder in progress(.waitingForLock(store: target.path, holder: holder)) }
            defer { lock.release() }
            try system.rename(target.path, to: asidePath, context: context.noting("the store is unchanged"))
        case .syncAfterAside, .syncAfterSwap:
            try NewFiles.syncDirectory(target.parent, system: system)
        case .moveStagingIntoPlace:
            try system.rename(stagingPath, to: target.path, context: context)
        case .removeJournal:
            try system.unlink(journalPath, context: ErrorContext("remove", journalPath))
            try NewFiles.syncDirectory(target.parent, system: system)
        }
    }

    /// Runs every step. On an error, undoes what it can so the old store is in place, and
    /// leaves the journal only when it cannot (then `recover` finishes the restore).
    ///
    /// - Throws: `StoreError` of the failed step, with a note saying what state the target is in.
    func commit() throws(StoreError) {
        var done: [Step] = []
        for step in steps {
            do {
                try perform(step)
                done.append(step)
            } catch {
                throw undo(after: done, error)
            }
        }
    }

    /// Puts the old store back after a failure at a step, when it can.
    private func undo(after done: [Step], _ failure: StoreError) -> StoreError {
        var error = failure
        if done.contains(.moveStagingIntoPlace) {
            error.message +=
                " The restored store is in place at '\(target.path)'"
                + (asidePath.map { " and the old one is kept at '\($0)'" } ?? "") + "."
            return error
        }
        if done.contains(.moveTargetAside), let asidePath {
            do {
                // Putting the old store back is a plain rename of our own folder: safe to try again
                // a few times after a transient failure before leaving the job to `recover`.
                var attempt = 0
                while true {
                    do {
                        try system.rename(asidePath, to: target.path, context: ErrorContext("restore into", target.path))
                        break
                    } catch  where attempt < 2 {
                        attempt += 1
                    }
                }
            } catch _ {
                error.message +=
                    " The old store is at '\(asidePath)' and the restored one at '\(stagingPath)'; "
                    + "run the same restore again to finish it."
                return error
            }
        }
        if done.contains(.writeJournal) { system.removeLeftover(journalPath) }
        error.message += " The store at '\(target.path)' is unchanged."
        return error
    }
}
