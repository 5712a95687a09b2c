extension Restore {
    /// The error a read of `store` gets while a restore into it has not finished (see
    /// `StoreError.Code.restoreInterrupted`), or nil when no restore journal is next to it or
    /// `store.json` is in place. Reads only; `recoverInterrupted` finishes the restore.
    public static func interruptedError(store: String) -> StoreError? {
        InterruptedRestore.error(store, system: .real)
    }
}
