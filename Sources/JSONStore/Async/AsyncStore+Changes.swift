extension AsyncStore {
    /// `Store.changes(includingOwnWrites:options:)`, started without blocking the caller (it lists the store).
    public func changes(includingOwnWrites: Bool = true, options: StoreChanges.Options = StoreChanges.Options()) async throws(StoreError) -> StoreChanges {
        try await read { (s) throws(StoreError) in try s.changes(includingOwnWrites: includingOwnWrites, options: options) }
    }
}
