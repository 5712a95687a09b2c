import Dispatch
import Foundation

extension AsyncStore {
    /// `StoreUpgrade.run` without blocking the caller, cancelled with the task.
    ///
    /// The upgrade runs on its own dispatch queue. Cancelling the task stops it at the next safe
    /// point (`StoreUpgrade.Checkpoint`: before validation, before the lock, before the backup,
    /// between the verified backup and the migration) with `StoreError` `.cancelled`, whose
    /// message says what was done: nothing, or a verified backup that is kept and no change to
    /// the store. Once the migration has started it runs to its commit, cancelled or not, and the
    /// call returns its outcome. A wait for another process's lock inside the upgrade is not cut
    /// short by cancelling; it ends at the lock timeout.
    ///
    /// ```swift
    /// let task = Task { try await AsyncStore.upgrade(at: path, tool: "MyApp", version: "3.1") { print($0) } }
    /// task.cancel()   // the user pressed Cancel: `.cancelled`, the store unchanged
    /// ```
    ///
    /// - Parameters: as `StoreUpgrade.run(at:to:backup:tool:version:progress:shouldContinue:)`;
    ///   `progress` is called on the upgrade's queue, with the same events (their `.progress`
    ///   values are the `StoreProgress` of every phase).
    /// - Throws: what `StoreUpgrade.run` throws; `.cancelled` when the task was cancelled before
    ///   the migration started (at once when it already was before the call).
    public static func upgrade(
        at path: String, to target: Int? = nil, backup: StoreUpgrade.BackupPolicy = .defaultFolder,
        tool: String, version: String,
        progress: @escaping @Sendable (StoreUpgrade.Event) -> Void = { _ in }
    ) async throws(StoreError) -> StoreUpgrade.Outcome {
        if Task.isCancelled {
            throw StoreError(
                .cancelled, "The upgrade of '\(path)' was cancelled before it started. Nothing was changed.",
                path: path, underlying: CancellationError())
        }
        let cancelled = LockedState(false)
        let queue = DispatchQueue(label: "JSONStore.AsyncStore.upgrade", qos: .userInitiated)
        let upgrade = { () async -> Result<StoreUpgrade.Outcome, StoreError> in
            do throws(StoreError) {
                return .success(
                    try await run(on: queue) { () throws(StoreError) in
                        try StoreUpgrade.run(
                            at: path, to: target, backup: backup, tool: tool, version: version, progress: progress,
                            shouldContinue: { !cancelled.withLock { $0 } })
                    })
            } catch {
                return .failure(error)
            }
        }
        let result = await withTaskCancellationHandler {
            await upgrade()
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
        return try result.get()
    }
}
