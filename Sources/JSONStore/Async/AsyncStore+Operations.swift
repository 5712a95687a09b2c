import Foundation

// Every operation of `Store`, for `await`: each one runs the synchronous method of the same name
// (see it for what it does and throws) through `read` or `write` (see `AsyncStore`).

extension AsyncStore {
    // MARK: Reading

    /// `Store.manifest()`.
    public func manifest() async throws(StoreError) -> ManifestDocument {
        try await read { (s) throws(StoreError) in try s.manifest() }
    }

    /// `Store.workStream(_:)`.
    public func workStream(_ id: UUID) async throws(StoreError) -> WorkStreamDocument {
        try await read { (s) throws(StoreError) in try s.workStream(id) }
    }

    /// `Store.customisation(_:)`.
    public func customisation(_ id: UUID) async throws(StoreError) -> Customisation? {
        try await read { (s) throws(StoreError) in try s.customisation(id) }
    }

    /// `Store.customisations()`.
    public func customisations() async throws(StoreError) -> ScanResult<Customisation> {
        try await read { (s) throws(StoreError) in try s.customisations() }
    }

    /// `Store.settings()`.
    public func settings() async throws(StoreError) -> Settings {
        try await read { (s) throws(StoreError) in try s.settings() }
    }

    /// `Store.queueDocument()`.
    public func queueDocument() async throws(StoreError) -> Queue? {
        try await read { (s) throws(StoreError) in try s.queueDocument() }
    }

    /// `Store.queue()`.
    public func queue() async throws(StoreError) -> Queue {
        try await read { (s) throws(StoreError) in try s.queue() }
    }

    /// `Store.workStreamIDs()`.
    public func workStreamIDs() async throws(StoreError) -> ScanResult<UUID> {
        try await read { (s) throws(StoreError) in try s.workStreamIDs() }
    }

    /// `Store.listWorkStreams()`.
    public func listWorkStreams() async throws(StoreError) -> ScanResult<WorkStreamSummary> {
        try await read { (s) throws(StoreError) in try s.listWorkStreams() }
    }

    /// `Store.summary(_:)`.
    public func summary(_ id: UUID) async throws(StoreError) -> WorkStreamSummary {
        try await read { (s) throws(StoreError) in try s.summary(id) }
    }

    /// `Store.visibleQueue(lockedProviderSessions:)`.
    public func visibleQueue(lockedProviderSessions: Set<String> = []) async throws(StoreError)
        -> (fifo: [QueueEntryVisibility], priority: [QueueEntryVisibility])
    {
        let visible = try await read { (s) throws(StoreError) in
            let queues = try s.visibleQueue(lockedProviderSessions: lockedProviderSessions)
            return VisibleQueues(fifo: queues.fifo, priority: queues.priority)
        }
        return (visible.fifo, visible.priority)
    }

    // MARK: Writing

    /// `Store.withLock(_:)`: runs `body` holding the store's lock, on the store's write queue.
    /// `body` must not call this store's write methods (they would wait for the lock it holds).
    public func withLock<R: Sendable>(_ body: @escaping @Sendable () throws(StoreError) -> R) async throws(StoreError) -> R {
        try await write { (s) throws(StoreError) in try s.withLock(body) }
    }

    /// `Store.createWorkStream(id:workingDirectory:provider:at:)`.
    @discardableResult
    public func createWorkStream(
        id: UUID = UUID(), workingDirectory: String, provider: String = WorkStreamRules.defaultProvider,
        at date: Date = Date()
    ) async throws(StoreError) -> WorkStreamV3 {
        try await write { (s) throws(StoreError) in try s.createWorkStream(id: id, workingDirectory: workingDirectory, provider: provider, at: date) }
    }

    /// `Store.updateWorkStream(_:_:)`. `body` runs once, holding the lock, on the store's write queue.
    @discardableResult
    public func updateWorkStream(_ id: UUID, _ body: @escaping @Sendable (inout WorkStream) throws(StoreError) -> Void) async throws(StoreError) -> WorkStream {
        try await write { (s) throws(StoreError) in try s.updateWorkStream(id, body) }
    }

    /// `Store.appendMessages(_:_:)`.
    @discardableResult
    public func appendMessages(_ id: UUID, _ messages: [Message]) async throws(StoreError) -> WorkStream {
        try await write { (s) throws(StoreError) in try s.appendMessages(id, messages) }
    }

    /// `Store.deleteWorkStream(_:)`.
    ///
    /// - Warning: This removes the work stream and its messages from the store.
    public func deleteWorkStream(_ id: UUID) async throws(StoreError) {
        try await write { (s) throws(StoreError) in try s.deleteWorkStream(id) }
    }

    /// `Store.setCustomName(_:_:at:)`.
    @discardableResult
    public func setCustomName(_ id: UUID, _ name: String?, at date: Date = Date()) async throws(StoreError) -> Customisation {
        try await write { (s) throws(StoreError) in try s.setCustomName(id, name, at: date) }
    }

    /// `Store.setUserDeleted(_:_:at:)`.
    @discardableResult
    public func setUserDeleted(_ id: UUID, _ deleted: Bool, at date: Date = Date()) async throws(StoreError) -> Customisation {
        try await write { (s) throws(StoreError) in try s.setUserDeleted(id, deleted, at: date) }
    }

    /// `Store.settingsDocument()`.
    public func settingsDocument() async throws(StoreError) -> Settings? {
        try await read { (s) throws(StoreError) in try s.settingsDocument() }
    }

    /// `Store.draft(of:)`.
    public func draft(of id: UUID) async throws(StoreError) -> String? {
        try await read { (s) throws(StoreError) in try s.draft(of: id) }
    }

    /// `Store.setDraft(_:for:at:)`.
    @discardableResult
    public func setDraft(_ text: String, for id: UUID, at date: Date = Date()) async throws(StoreError) -> Customisation? {
        try await write { (s) throws(StoreError) in try s.setDraft(text, for: id, at: date) }
    }

    /// `Store.updateSettings(_:)`.
    @discardableResult
    public func updateSettings(_ body: @escaping @Sendable (inout Settings) -> Void) async throws(StoreError) -> Settings {
        try await write { (s) throws(StoreError) in try s.updateSettings(body) }
    }

    // MARK: Queues

    /// `Store.enqueue(_:at:)`.
    public func enqueue(_ id: UUID, at date: Date = Date()) async throws(StoreError) {
        try await write { (s) throws(StoreError) in try s.enqueue(id, at: date) }
    }

    /// `Store.removeFromQueue(_:)`.
    public func removeFromQueue(_ id: UUID) async throws(StoreError) {
        try await write { (s) throws(StoreError) in try s.removeFromQueue(id) }
    }

    /// `Store.addToPriorityQueue(_:priority:at:)`. A lower `priority` is more urgent (1 before 10).
    public func addToPriorityQueue(_ id: UUID, priority: Int32? = nil, at date: Date = Date()) async throws(StoreError) {
        try await write { (s) throws(StoreError) in try s.addToPriorityQueue(id, priority: priority, at: date) }
    }

    /// `Store.removeFromPriorityQueue(_:)`.
    public func removeFromPriorityQueue(_ id: UUID) async throws(StoreError) {
        try await write { (s) throws(StoreError) in try s.removeFromPriorityQueue(id) }
    }

    /// `Store.changePriority(_:to:)`.
    public func changePriority(_ id: UUID, to priority: Int32) async throws(StoreError) {
        try await write { (s) throws(StoreError) in try s.changePriority(id, to: priority) }
    }

    /// `Store.takeNextFromQueue(lockedProviderSessions:)`: the head of the FIFO queue, chosen and
    /// removed under one hold of the lock (no other process can take the same work stream).
    @discardableResult
    public func takeNextFromQueue(lockedProviderSessions: Set<String> = []) async throws(StoreError) -> FIFOEntry? {
        try await write { (s) throws(StoreError) in try s.takeNextFromQueue(lockedProviderSessions: lockedProviderSessions) }
    }

    /// `Store.takeNextFromPriorityQueue(lockedProviderSessions:)`: the most urgent work stream (the
    /// lowest `priority` number: 1 before 10), chosen and removed under one hold of the lock.
    @discardableResult
    public func takeNextFromPriorityQueue(lockedProviderSessions: Set<String> = []) async throws(StoreError) -> PriorityEntry? {
        try await write { (s) throws(StoreError) in try s.takeNextFromPriorityQueue(lockedProviderSessions: lockedProviderSessions) }
    }

    /// `Store.movePriority(_:after:before:)`.
    public func movePriority(_ id: UUID, after upper: UUID?, before lower: UUID?) async throws(StoreError) {
        try await write { (s) throws(StoreError) in try s.movePriority(id, after: upper, before: lower) }
    }
}

/// `visibleQueue`'s two lists, carried across the queue as one Sendable value.
private struct VisibleQueues: Sendable {
    var fifo: [QueueEntryVisibility]
    var priority: [QueueEntryVisibility]
}
