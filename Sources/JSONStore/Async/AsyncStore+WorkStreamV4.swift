import Foundation

// The v4 work-stream API of `Store` (spec §11, `Store+WorkStreamV4.swift`), for `await`: each
// runs the synchronous method of the same name through `read` or `write` (see `AsyncStore`).

extension AsyncStore {
    /// `Store.workStreamV4(_:)`.
    public func workStreamV4(_ id: UUID) async throws(StoreError) -> SessionV4 {
        try await read { (s) throws(StoreError) in try s.workStreamV4(id) }
    }

    /// `Store.createWorkStreamV4(id:workingDirectory:provider:at:)`.
    @discardableResult
    public func createWorkStreamV4(id: UUID = UUID(), workingDirectory: String, provider: String = WorkStreamRules.defaultProvider,
                                   at date: Date = Date()) async throws(StoreError) -> SessionV4 {
        try await write { (s) throws(StoreError) in try s.createWorkStreamV4(id: id, workingDirectory: workingDirectory, provider: provider, at: date) }
    }

    /// `Store.updateWorkStreamV4(_:_:)`. `body` runs once, holding the lock, on the store's write queue.
    @discardableResult
    public func updateWorkStreamV4(_ id: UUID, _ body: @escaping @Sendable (inout SessionV4) throws(StoreError) -> Void) async throws(StoreError) -> SessionV4 {
        try await write { (s) throws(StoreError) in try s.updateWorkStreamV4(id, body) }
    }

    /// `Store.appendMessagesV4(_:_:)`.
    @discardableResult
    public func appendMessagesV4(_ id: UUID, _ messages: [MessageV1]) async throws(StoreError) -> SessionV4 {
        try await write { (s) throws(StoreError) in try s.appendMessagesV4(id, messages) }
    }
}
