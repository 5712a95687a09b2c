import Foundation

// The v5 work-stream API of `Store` (spec §12, `Store+RenamedWorkStream.swift`), for `await`: each
// runs the synchronous method of the same name through `read` or `write` (see `AsyncStore`).

extension AsyncStore {
    /// `Store.renamedWorkStream(_:)`.
    public func renamedWorkStream(_ id: UUID) async throws(StoreError) -> RenamedWorkStream {
        try await read { (s) throws(StoreError) in try s.renamedWorkStream(id) }
    }

    /// `Store.createRenamedWorkStream(id:workingDirectory:provider:at:)`.
    @discardableResult
    public func createRenamedWorkStream(
        id: UUID = UUID(), workingDirectory: String, provider: String = WorkStreamRules.defaultProvider,
        at date: Date = Date()
    ) async throws(StoreError) -> WorkStreamV5 {
        try await write { (s) throws(StoreError) in try s.createRenamedWorkStream(id: id, workingDirectory: workingDirectory, provider: provider, at: date) }
    }

    /// `Store.updateRenamedWorkStream(_:_:)`. `body` runs once, holding the lock, on the store's write queue.
    @discardableResult
    public func updateRenamedWorkStream(_ id: UUID, _ body: @escaping @Sendable (inout RenamedWorkStream) throws(StoreError) -> Void) async throws(StoreError)
        -> RenamedWorkStream
    {
        try await write { (s) throws(StoreError) in try s.updateRenamedWorkStream(id, body) }
    }

    /// `Store.appendMessagesToRenamedWorkStream(_:_:)`.
    @discardableResult
    public func appendMessagesToRenamedWorkStream(_ id: UUID, _ messages: [Message]) async throws(StoreError) -> RenamedWorkStream {
        try await write { (s) throws(StoreError) in try s.appendMessagesToRenamedWorkStream(id, messages) }
    }
}
