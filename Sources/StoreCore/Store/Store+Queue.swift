import Foundation

extension Store {
    /// The queue as current code sees it: `queue.json`, or (v1 store) the queue built from the session keys.
    /// In a v5 store, `queue.json` only (an absent one is the empty queue).
    public func queue() throws(StoreError) -> Queue {
        if compatibility.isV1 {
            return QueueBuilder.build(from: try listWorkStreams().items.map(\.queueSummary))
        }
        if let queue = try queueDocument() { return queue }
        // v5 (spec §12): the queue lives in queue.json only; without it, nothing is queued.
        if hasRenamedLayout { return QueueV2(schemaVersion: writtenVersion) }
        return QueueBuilder.build(from: try listWorkStreams().items.map(\.queueSummary))
    }

    /// Sending a message: adds the work stream to the end of the FIFO queue, or moves it there.
    /// `queued_at` becomes `date`.
    ///
    /// - Throws: `.notFound` when there is no such work stream.
    public func enqueue(_ id: UUID, at date: Date = Date()) throws(StoreError) {
        try queueOperation(id) { q in q.enqueue(id, at: date) }
    }

    /// Removes a work stream from the FIFO queue, closing the gap; its mirror gets
    /// `is_in_queue` false, `queue_position` 0 and `queued_at` null (spec §5). Removing one that
    /// is not queued writes nothing and is not an error.
    public func removeFromQueue(_ id: UUID) throws(StoreError) {
        try queueOperation(nil) { q in q.removeFromFIFO(id) }
    }

    /// Adds a work stream to the end of a priority level, or moves it to the end of its level if
    /// it is already queued (spec §5; see `QueueV2.addToPriority`).
    ///
    /// With no `priority`, a queued work stream keeps its level, and one that is not queued gets
    /// its document's stored `priority` (10 unless a v1 writer set another). A re-add that changes
    /// no value writes nothing. `priority_queued_at` is set on the first add only.
    ///
    /// ```swift
    /// try store.addToPriorityQueue(id)                 // its current or stored level
    /// try store.addToPriorityQueue(id, priority: 1)    // level 1
    /// ```
    ///
    /// - Parameters:
    ///   - id: The work stream.
    ///   - priority: The level. A **lower number is more urgent**: level 1 comes before level 10
    ///     (the app offers 1 "High", 5 "Medium" and 10 "Low"). The default is nil.
    ///   - date: The `priority_queued_at` of a first add. The default is now.
    /// - Throws: `.notFound` when there is no such work stream.
    public func addToPriorityQueue(_ id: UUID, priority: Int32? = nil, at date: Date = Date()) throws(StoreError) {
        try queueOperation(id) { (q) throws(StoreError) in
            // The stored level matters only to a first add without a level: read the document then only.
            let stored = priority == nil && q.priorityEntry(of: id) == nil ? try workStream(id).fields.priority : QueueV2.defaultPriority
            q.addToPriority(id, priority: priority, storedPriority: stored, at: date)
        }
    }

    /// Removes from the priority queue; the mirror's priority keys are reset (spec §5): priority
    /// 10, order 0, `priority_queued_at` null. The others keep their orders. Removing one that
    /// is not queued writes nothing.
    public func removeFromPriorityQueue(_ id: UUID) throws(StoreError) {
        try queueOperation(nil) { q in q.removeFromPriority(id) }
    }

    /// Moves a queued work stream to the end of another priority level (a lower number is more
    /// urgent: 1 comes before 10). Setting the level it already has, or changing a work stream
    /// that is not queued, writes nothing.
    public func changePriority(_ id: UUID, to priority: Int32) throws(StoreError) {
        try queueOperation(nil) { q in q.changePriority(id, to: priority) }
    }

    /// Drag-to-reorder in the priority queue, given the neighbours the user saw above and below
    /// the drop (see `QueueV2.movePriority` for the rules). Entries hidden between them (deleted by
    /// the user, missing, locked) are accepted, as the app accepts them; a neighbour that is not
    /// queued counts as absent. With no neighbour, or for a work stream that is not queued, it
    /// writes nothing and is not an error.
    ///
    /// ```swift
    /// let shown = try store.visibleQueue().priority.filter(\.isVisible).map(\.workStreamID)
    /// try store.movePriority(shown[3], after: shown[0], before: shown[1])   // dropped second
    /// ```
    public func movePriority(_ id: UUID, after upper: UUID?, before lower: UUID?) throws(StoreError) {
        try queueOperation(nil) { q in q.movePriority(id, after: upper, before: lower) }
    }

    /// The queues as a client shows them, given the provider sessions that are locked now.
    public func visibleQueue(lockedProviderSessions: Set<String> = []) throws(StoreError) -> (fifo: [QueueEntryVisibility], priority: [QueueEntryVisibility]) {
        let summaries = try listWorkStreams().items
        let deleted = Set(try customisations().items.filter(\.isUserDeleted).map(\.id))
        let context = QueueContext(
            providerSessionIDs: Dictionary(summaries.map { ($0.id, $0.effectiveProviderSessionID) }, uniquingKeysWith: { a, _ in a }),
            deleted: deleted, lockedProviderSessions: lockedProviderSessions)
        let settings = try settings()
        let queue = try queue()
        return (queue.fifoVisibility(context, enabled: settings.queueEnabled), queue.priorityVisibility(context, enabled: settings.priorityQueueEnabled))
    }

    /// Runs one queue change under the lock. `mustExist` names a work stream that has to exist.
    ///
    /// A change that would change no value writes nothing at all, not even the lock file's holder
    /// record: it is computed first on the queue as it is now, without the lock (readers need none,
    /// every file is always whole), and only a real change takes the lock and is computed again there.
    func queueOperation(_ mustExist: UUID?, _ change: (inout QueueV2) throws(StoreError) -> Void) throws(StoreError) {
        try requireWritable()
        if try changesNothing(mustExist, change) { return }
        try writing { () throws(StoreError) in
            if let id = mustExist, try !exists(id) {
                throw StoreError(.notFound, "Can't queue '\(id.lowercased)': there is no such work stream in '\(path)'.", path: file(workStreamFile(id)))
            }
            try mutateQueueHoldingLock(change)
        }
    }

    /// True when `change` leaves `queue.json` as it is. False when it can't tell without the lock:
    /// no `queue.json` yet (open reconciles under the lock; in a v5 store it is the empty queue) or a
    /// work stream that must exist is missing.
    private func changesNothing(_ mustExist: UUID?, _ change: (inout QueueV2) throws(StoreError) -> Void) throws(StoreError) -> Bool {
        guard let queue = try queueDocument() else { return false }
        if let id = mustExist, try !exists(id) { return false }
        var changed = queue
        try change(&changed)
        return changed == queue
    }

    /// True when the work stream's file exists (one `lstat`).
    func exists(_ id: UUID) throws(StoreError) -> Bool {
        try system.linkStatus(file(workStreamFile(id)), context: ErrorContext("queue", path)) != nil
    }

    /// Writes `queue.json` first (one write changes the whole queue), then the mirror keys of
    /// exactly the sessions whose mirror values changed, in the crash-safe order of `QueueBuilder.writeOrder`.
    /// In a v5 store (spec §12) the queue lives in `queue.json` only: nothing else is written, and
    /// a missing `queue.json` is an empty queue (there is no mirror to rebuild it from).
    ///
    /// - Parameter skipped: A work stream whose mirror the caller writes itself, after this
    ///   returns, in the same hold of the lock (`appendMessages` writes it with its messages).
    /// - Returns: The queue as it is now (changed or not).
    @discardableResult
    func mutateQueueHoldingLock(
        skippingMirrorOf skipped: UUID? = nil, reconciled: Bool = false,
        _ change: (inout QueueV2) throws(StoreError) -> Void
    ) throws(StoreError) -> QueueV2 {
        guard let old = try queueDocument() ?? (hasRenamedLayout ? QueueV2(schemaVersion: writtenVersion) : nil) else {
            try maintenance.reconcile(self)
            return try mutateQueueHoldingLock(skippingMirrorOf: skipped, reconciled: true, change)
        }
        var new = old
        try change(&new)
        guard new != old else { return old }
        new.schemaVersion = writtenVersion
        let update = QueueMirrorUpdate(from: old, to: new)
        var documents: [UUID: WorkStreamDocument] = [:]
        if !hasRenamedLayout {
            for id in update.candidates {
                do { documents[id] = try workStream(id) } catch  where error.code == .notFound { continue }
                // An older writer's change to this document's queue keys wins over queue.json (§7):
                // reconcile first, then start again from the queue it leaves.
                if !reconciled, try reconcilingOlderWrite(documents[id]!) {
                    return try mutateQueueHoldingLock(skippingMirrorOf: skipped, reconciled: true, change)
                }
            }
        }
        try write(StoreLayout.queue, new.encoded)
        guard !hasRenamedLayout else { return new }
        var updates: [UUID: [UInt8]] = [:]
        var moves: [(id: UUID, old: QueueKeys, new: QueueKeys)] = []
        for id in update.candidates where id != skipped {
            guard let document = documents[id] else { continue }
            var fields = document.fields
            let keys = update.keys(for: id, current: fields.queueKeys)
            guard keys != fields.queueKeys else { continue }
            moves.append((id, fields.queueKeys, keys))
            fields.queueKeys = keys
            var updated = document
            updated.fields = fields
            updates[id] = updated.encoded
        }
        let changes = QueueBuilder.writeOrder(moves).map {
            FileChange(directory: workStreamsDirectory, name: Store.documentName($0), bytes: updates[$0]!)
        }
        try BatchCommit.commit(changes, system: system)
        for change in changes { ownWrites.recordWrite(document: joinPath(change.directory, change.name), system: system) }
        return new
    }
}
