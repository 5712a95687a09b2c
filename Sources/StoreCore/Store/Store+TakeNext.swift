import Foundation

/// Taking the next work stream off a queue in one step, for an app or a helper that serves the
/// queue in order (`QueueV2.takeNextFromFIFO`, `takeNextFromPriority`).
///
/// Reading the queue and then removing the head would take two holds of the lock, and another
/// process could take the same work stream in between. These calls choose and remove under one
/// hold of the store's lock: of several processes calling at once, each gets a different work
/// stream (or nil), never the same one twice.
///
/// The entry taken is the first one a client shows (`visibleQueue`): work streams the user
/// deleted, whose document is missing, or whose provider session is in `lockedProviderSessions`
/// are skipped and keep their place. The `queue_enabled` and `priority_queue_enabled` switches are
/// not consulted: like `enqueue`, these calls do what the app asks (whether it serves a queue the
/// user turned off is the app's choice).
///
/// ```swift
/// while let next = try store.takeNextFromPriorityQueue() {   // most urgent first: level 1 before 10
///     try answer(next.workStreamID)
/// }
/// ```
extension Store {
    /// Takes the head of the FIFO queue: removes it as `removeFromQueue` does (the rest move up;
    /// its mirror gets `is_in_queue` false, `queue_position` 0, `queued_at` null) and returns its
    /// entry, all under one hold of the lock.
    ///
    /// - Parameter lockedProviderSessions: Provider sessions an agent is still working in: their
    ///   work streams are skipped, as `visibleQueue(lockedProviderSessions:)` hides them. The
    ///   default is none.
    /// - Returns: The entry taken (`workStreamID`, `queuedAt`), or nil when the queue shows no
    ///   work stream (then nothing is written).
    /// - Throws: `StoreError`: `.locked` when another process holds the lock past the timeout; a
    ///   document that can't be read while choosing (a damaged customisation); a system-call error.
    @discardableResult
    public func takeNextFromQueue(lockedProviderSessions: Set<String> = []) throws(StoreError) -> FIFOEntry? {
        try takeNext(isEmpty: \.fifo.isEmpty, lockedProviderSessions: lockedProviderSessions) { (queue, isShown) throws(StoreError) in
            try queue.takeNextFromFIFO(where: isShown)
        }
    }

    /// Takes the most urgent work stream off the priority queue: the lowest `priority` number
    /// (**1 is more urgent than 10**; the app offers 1 "High", 5 "Medium", 10 "Low"), then the
    /// lowest `priority_order` in that level, then id. It is removed as `removeFromPriorityQueue`
    /// does (its mirror gets priority 10, order 0, `priority_queued_at` null; the others keep
    /// their orders) and its entry, with the level and order it had, is returned, all under one
    /// hold of the lock.
    ///
    /// - Parameter lockedProviderSessions: Provider sessions an agent is still working in: their
    ///   work streams are skipped. The default is none.
    /// - Returns: The entry taken, or nil when the priority queue shows no work stream (then
    ///   nothing is written).
    /// - Throws: As `takeNextFromQueue(lockedProviderSessions:)`.
    @discardableResult
    public func takeNextFromPriorityQueue(lockedProviderSessions: Set<String> = []) throws(StoreError) -> PriorityEntry? {
        try takeNext(isEmpty: \.priority.isEmpty, lockedProviderSessions: lockedProviderSessions) { (queue, isShown) throws(StoreError) in
            try queue.takeNextFromPriority(where: isShown)
        }
    }

    /// Chooses and removes under one hold of the lock. An empty list (read without the lock, as
    /// every queue call first does) returns nil at once and takes no lock: a list that is empty
    /// when read was empty at an instant of this call, so nil is a true answer.
    private func takeNext<Entry>(
        isEmpty: (QueueV2) -> Bool, lockedProviderSessions: Set<String>,
        _ take: (inout QueueV2, (UUID) throws(StoreError) -> Bool) throws(StoreError) -> Entry?
    ) throws(StoreError) -> Entry? {
        try requireWritable()
        if let queue = try queueDocument() ?? (hasRenamedLayout ? QueueV2(schemaVersion: writtenVersion) : nil), isEmpty(queue) {
            return nil
        }
        return try writing { () throws(StoreError) in
            var taken: Entry?
            try mutateQueueHoldingLock { (queue) throws(StoreError) in
                taken = try take(&queue) { (id) throws(StoreError) in try shown(id, lockedProviderSessions: lockedProviderSessions) }
            }
            return taken
        }
    }

    /// Whether a client shows the work stream in a queue (spec §5): its document exists, the user
    /// did not delete it, and its provider session is not locked. Reads only what it needs: one
    /// `lstat`, its customisation, and its document only when some provider session is locked.
    private func shown(_ id: UUID, lockedProviderSessions: Set<String>) throws(StoreError) -> Bool {
        guard try exists(id) else { return false }
        if try customisation(id)?.isUserDeleted == true { return false }
        guard !lockedProviderSessions.isEmpty else { return true }
        return !lockedProviderSessions.contains(try summary(id).effectiveProviderSessionID)
    }
}
