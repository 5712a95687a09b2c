/// What `Restore.recoverInterrupted` did with a restore or import that was killed mid-swap.
public struct RestoreRecovery: Sendable, Equatable {
    /// What recovery did.
    public enum Outcome: Sendable, Equatable {
        /// The restored store was put in place (the old one, if any, is at `aside`).
        case finished
        /// The staging folder was gone, so the old store was put back from `aside`.
        case rolledBack
        /// The swap had completed; only the journal was left, and it was removed.
        case alreadyComplete
        /// Neither the restored nor an old store was left to put in place; the journal was removed.
        case nothingLeft
    }

    /// What recovery did.
    public var outcome: Outcome
    /// The target folder, as given.
    public var target: String
    /// Where the replaced store is kept, when there is one.
    public var aside: String?

    /// One sentence for people.
    public var summary: String {
        let kept = aside.map { "; the replaced store is kept at '\($0)'" } ?? ""
        switch outcome {
        case .finished: return "Finished an interrupted restore into '\(target)'\(kept)."
        case .rolledBack: return "Rolled back an interrupted restore into '\(target)': the old store is back in place."
        case .alreadyComplete: return "An interrupted restore into '\(target)' had completed; removed its journal\(kept)."
        case .nothingLeft: return "Removed the journal of an interrupted restore into '\(target)': neither store was left to put in place."
        }
    }
}

extension StoreSwap {
    /// What recovery does, decided from what exists (S staging, T target, A aside):
    ///
    /// | journal has aside | S | T | A | action |
    /// |---|---|---|---|---|
    /// | yes | yes | present | no | move T aside, then S in (crash after step 1) |
    /// | yes | yes | absent | any | move S in (crash after step 2 or 3) |
    /// | yes | yes | present | yes | conflict: T reappeared; nothing is touched |
    /// | yes | no | present | any | nothing: the swap completed (crash after step 4 or 5) |
    /// | yes | no | absent | yes | roll back: move A back (the staging folder was deleted by hand) |
    /// | no | yes | absent or empty | – | move S in (crash after step 1) |
    /// | no | yes | not empty | – | conflict: someone created a store there meanwhile |
    /// | no | no | present | – | nothing: the swap completed |
    /// | any | no | absent | no | nothing is left; only the journal is removed |
    enum RecoveryAction: Equatable {
        case moveAsideThenStagingIn, stagingIn, nothing, rollBack, nothingLeft, conflict
    }

    static func decide(hasAside: Bool, staging: Bool, target: TargetState, aside: Bool) -> RecoveryAction {
        let targetPresent = target != .absent
        switch (staging, targetPresent) {
        case (true, true):
            if hasAside { return aside ? .conflict : .moveAsideThenStagingIn }
            return target == .emptyFolder ? .stagingIn : .conflict
        case (true, false): return .stagingIn
        case (false, true): return .nothing
        case (false, false): return hasAside && aside ? .rollBack : .nothingLeft
        }
    }

    /// Finishes or rolls back a swap whose journal is still there; nil when there is none.
    /// Takes the target's `RestoreLock` only when a journal exists, so the common case writes nothing.
    ///
    /// - Warning: Renames folders next to the target, as the journal says; it never deletes one.
    /// - Throws: `StoreError` `.conflict` (nothing is touched) when the folders are in a state no
    ///   crash can produce; `.locked` when another restore into the target runs.
    static func recover(
        _ target: SiblingPath, tool: String, version: String, system: SystemCalls,
        progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> RestoreRecovery? {
        let path = target.sibling(RestoreJournal.fileName(for: target))
        guard try system.linkStatus(path, context: ErrorContext("check", path)) != nil else { return nil }
        let lock = try RestoreLock(for: target, system: system) { progress(.waitingForLock(store: target.path, holder: nil)) }
        defer { lock.release() }
        return try recover(target, holding: lock, tool: tool, version: version, system: system, progress: progress)
    }

    /// `recover` for a caller that already holds the target's `RestoreLock`.
    static func recover(
        _ target: SiblingPath, holding lock: RestoreLock, tool: String, version: String,
        system: SystemCalls, progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> RestoreRecovery? {
        let path = target.sibling(RestoreJournal.fileName(for: target))
        let bytes: [UInt8]
        do {
            bytes = try FileReader.read(path, system: system)
        } catch  where error.code == .notFound {
            return nil  // another process finished it while we waited for the lock
        }
        let journal = try RestoreJournal(bytes: bytes, for: target, path: path)
        let swap = StoreSwap(target: target, journal: journal, tool: tool, version: version, system: system, progress: progress)
        let outcome = try swap.finish()
        return RestoreRecovery(outcome: outcome, target: target.path, aside: swap.asidePath)
    }

    private func finish() throws(StoreError) -> RestoreRecovery.Outcome {
        let context = ErrorContext("recover", target.path)
        let staging = try system.linkStatus(stagingPath, context: context)?.type == .directory
        let aside = try asidePath.map { (path) throws(StoreError) in try system.linkStatus(path, context: context) != nil } ?? false
        let action = Self.decide(
            hasAside: journal.aside != nil, staging: staging,
            target: try TargetState.inspect(target, system: system), aside: aside)
        let outcome: RestoreRecovery.Outcome
        switch action {
        case .conflict:
            throw StoreError(
                .conflict,
                "Can't finish the interrupted restore into '\(target.path)': both '\(stagingPath)' and "
                    + "'\(target.path)'\(asidePath.map { " and '\($0)'" } ?? "") exist, which no crash leaves behind. "
                    + "Nothing was changed; keep the one you want and remove '\(journalPath)'.", path: target.path)
        case .moveAsideThenStagingIn:
            for step in [Step.moveTargetAside, .syncAfterAside, .moveStagingIntoPlace] { try perform(step) }
            outcome = .finished
        case .stagingIn:
            try perform(.moveStagingIntoPlace)
            outcome = .finished
        case .rollBack:
            guard let asidePath else { preconditionFailure("StoreSwap: roll back without an aside") }
            try system.rename(asidePath, to: target.path, context: context)
            outcome = .rolledBack
        case .nothing:
            outcome = .alreadyComplete
        case .nothingLeft:
            outcome = .nothingLeft
        }
        try perform(.syncAfterSwap)
        try perform(.removeJournal)
        removeJournalTemporaries()
        return outcome
    }

    /// Removes `.tmp-<hex>-.<name>.restore-journal` files a crash during step 1 left in the parent.
    private func removeJournalTemporaries() {
        let suffix = "-" + RestoreJournal.fileName(for: target)
        guard let entries = try? system.listDirectory(target.parent, context: ErrorContext("list", target.parent)) else { return }
        for entry in entries where TempSweep.isTemporaryName(entry.name) && entry.name.hasSuffix(suffix) && entry.type != .directory {
            system.removeLeftover(target.sibling(entry.name))
        }
    }
}
