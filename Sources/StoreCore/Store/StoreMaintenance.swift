/// The work that opening a store for writing runs but that belongs to other parts of the
/// library: finishing a restore killed between its renames (JSONStore's `Restore/`) and the queue
/// reconcile of spec §7 (JSONStore's `Migration/`).
///
/// `Store/` only calls these. The library's wiring (`Library.swift`, in JSONStore) fills them in,
/// so the store does not depend on code that depends on it: the migrator holds a `Store`, and a
/// restore moves whole store folders. The compiler enforces it: `StoreCore` cannot import
/// `JSONStore`.
package struct StoreMaintenance: Sendable {
    /// Finishes or rolls back a restore or import into `path` that was killed between its
    /// renames. Returns the sentence for `Store.warnings`, or nil when there was nothing to do
    /// (then it writes nothing).
    var finishInterruptedRestore: @Sendable (_ path: String, _ options: Store.Options, _ system: SystemCalls) throws(StoreError) -> String?

    /// The §7 reconcile of a writable store, for a caller that holds the store's lock.
    var reconcile: @Sendable (_ store: Store) throws(StoreError) -> Void

    package init(
        finishInterruptedRestore: @escaping @Sendable (_ path: String, _ options: Store.Options, _ system: SystemCalls) throws(StoreError) -> String?,
        reconcile: @escaping @Sendable (_ store: Store) throws(StoreError) -> Void
    ) {
        self.finishInterruptedRestore = finishInterruptedRestore
        self.reconcile = reconcile
    }
}
