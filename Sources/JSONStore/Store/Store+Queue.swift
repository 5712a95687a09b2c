import Foundation

extension Store {
    /// The queue as v2 code sees it: `queue.json`, or (v1 store) the queue built from the session keys.
    public func queue() throws(StoreError) -> QueueV2 {
        if case .needsMigration = compatibility {
            return QueueBuilder.build(from: try listWorkStreams().items.map(\.queueSummary))
        }
        if let queue = try queueDocument() { return queue }
        return QueueBuilder.build(from: try listWorkStreams().items.map(\.queueSummary))
    }

    /// Sending a message: adds the work stream to the end of the FIFO queue, or moves it there.
    public func enqueue(_ id: UUID, at date: Date = Date()) throws(StoreError) {
        try queueOperation(id) { q in q.enqueue(id, at: date) }
    }

    /// Removes a work stream from the FIFO queue, closing the gap.
    public func removeFromQueue(_ id: UUID) throws(StoreError) {
        try queueOperation(nil) { q in q.removeFromFIFO(id) }
    }

    /// Adds to (or re-adds at the end of) a priority level. The default priority is 10.
    public func addToPriorityQueue(_ id: UUID, priority: Int32 = QueueV2.defaultPriority, at date: Date = Date()) throws(StoreError) {
        try queueOperation(id) { q in q.addToPriority(id, priority: priority, at: date) }
    }

    /// Removes from the priority queue; the mirror's priority keys are reset (spec §5).
    public func removeFromPriorityQueue(_ id: UUID) throws(StoreError) {
        try queueOperation(nil) { q in q.removeFromPriority(id) }
    }

    /// Moves a queued work stream to the end of another priority level.
    public func changePriority(_ id: UUID, to priority: Int32) throws(StoreError) {
        try queueOperation(nil) { q in q.changePriority(id, to: priority) }
    }

    /// Drag-to-reorder in the priority queue; see `QueueV2.movePriority`.
    public func movePriority(_ id: UUID, after upper: UUID?, before lower: UUID?) throws(StoreError) {
        try queueOperation(nil) { (q) throws(StoreError) in
            do throws(SchemaError) { try q.movePriority(id, after: upper, before: lower) } catch {
                throw StoreError(.conflict, "Can't move '\(id.lowercased)' in the priority queue of '\(path)': \(error.detail ?? error.reason).", path: file(StoreLayout.queue), underlying: error)
            }
        }
    }

    /// The queues as a client shows them, given the provider sessions that are locked now.
    public func visibleQueue(lockedProviderSessions: Set<String> = []) throws(StoreError) -> (fifo: [QueueEntryVisibility], priority: [QueueEntryVisibility]) {
        let summaries = try listWorkStreams().items
        let deleted = Set(try customizations().items.filter(\.isUserDeleted).map(\.id))
        let context = QueueContext(providerSessionIDs: Dictionary(summaries.map { ($0.id, $0.effectiveProviderSessionID) }, uniquingKeysWith: { a, _ in a }),
                                   deleted: deleted, lockedProviderSessions: lockedProviderSessions)
        let settings = try settings()
        let queue = try queue()
        return (queue.fifoVisibility(context, enabled: settings.queueEnabled), queue.priorityVisibility(context, enabled: settings.priorityQueueEnabled))
    }

    /// Runs one queue change under the lock. `mustExist` names a work stream that has to exist.
    func queueOperation(_ mustExist: UUID?, _ change: (inout QueueV2) throws(StoreError) -> Void) throws(StoreError) {
        try withLock { () throws(StoreError) in
            if let id = mustExist, try system.linkStatus(file(Store.sessionFile(id)), context: ErrorContext("queue", path)) == nil {
                throw StoreError(.notFound, "Can't queue '\(id.lowercased)': there is no such work stream in '\(path)'.", path: file(Store.sessionFile(id)))
            }
            try mutateQueueHoldingLock(change)
        }
    }

    /// Writes `queue.json` first (one write changes the whole queue), then the mirror keys of
    /// exactly the sessions whose mirror values changed, in the crash-safe order of `QueueBuilder.writeOrder`.
    func mutateQueueHoldingLock(_ change: (inout QueueV2) throws(StoreError) -> Void) throws(StoreError) {
        guard let old = try queueDocument() else {
            try maintenance.reconcile(self)
            return try mutateQueueHoldingLock(change)
        }
        var new = old
        try change(&new)
        guard new != old else { return }
        new.schemaVersion = DocumentVersion.current
        try write(StoreLayout.queue, new.encoded)
        let oldIndex = QueueIndex(old), newIndex = QueueIndex(new)
        let blank = QueueKeys(SessionFieldsV1(id: UUID(), backendName: "", workingDirectory: "", lastModified: Date(timeIntervalSince1970: 0)))
        let removedFromPriority = Set(old.priority.map(\.workStreamID)).subtracting(new.priority.map(\.workStreamID))
        let candidates = Set(old.fifo.map(\.workStreamID) + old.priority.map(\.workStreamID) + new.fifo.map(\.workStreamID) + new.priority.map(\.workStreamID))
            .filter { oldIndex.mirror(for: $0, current: blank) != newIndex.mirror(for: $0, current: blank) }
        var updates: [UUID: [UInt8]] = [:]
        var moves: [(id: UUID, old: QueueKeys, new: QueueKeys)] = []
        for id in candidates {
            let document: SessionDocument
            do { document = try workStream(id) } catch where error.code == .notFound { continue }
            var fields = document.fields
            var keys = newIndex.mirror(for: id, current: fields.queueKeys)
            if removedFromPriority.contains(id) { keys.resetPriority() }
            guard keys != fields.queueKeys else { continue }
            moves.append((id, fields.queueKeys, keys))
            fields.queueKeys = keys
            var updated = document
            updated.fields = fields
            updates[id] = updated.encoded
        }
        let changes = QueueBuilder.writeOrder(moves).map {
            FileChange(directory: sessionsDirectory, name: Store.documentName($0), bytes: updates[$0]!)
        }
        try BatchCommit.commit(changes, system: system)
    }
}
