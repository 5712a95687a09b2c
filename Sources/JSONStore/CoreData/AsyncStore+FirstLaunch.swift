import Dispatch
import Foundation

extension AsyncStore {
    /// `CoreDataImport.firstLaunch` without blocking the caller, cancelled with the task: the
    /// move of the app's Core Data store into a new store, on the app's first launch of a
    /// version that uses this store.
    ///
    /// The import runs on its own dispatch queue. Cancelling the task stops it at the next
    /// document it stages, or before the swap, with `StoreError` `.cancelled`: its staging folder
    /// is removed and nothing is written (the next call starts again). Once the swap has started
    /// it runs to its end, cancelled or not, and the call returns its outcome.
    ///
    /// ```swift
    /// let outcome = try await AsyncStore.firstLaunchImport(
    ///     source: support + "/VoiceCode.sqlite", into: support + "/store",
    ///     preferences: .userDefaults(UserDefaults.standard.dictionaryRepresentation()),
    ///     tool: "VoiceCode", version: "4.0") { progress in
    ///     if case .phase(.importing, let done, let total?) = progress { print(done, "of", total) }
    /// }
    /// let store = try await AsyncStore.open(at: support + "/store")
    /// ```
    ///
    /// - Parameters: as `CoreDataImport.firstLaunch(source:into:preferences:allowUnknown:tool:version:progress:shouldContinue:)`;
    ///   `progress` is called on the import's queue.
    /// - Throws: what `CoreDataImport.firstLaunch` throws; `.cancelled` when the task was
    ///   cancelled before the swap started (at once when it already was before the call).
    public static func firstLaunchImport(
        source: String, into target: String, preferences: CoreDataImport.Preferences? = nil, allowUnknown: Bool = false,
        tool: String, version: String, progress: @escaping @Sendable (StoreProgress) -> Void = { _ in }
    ) async throws(StoreError) -> CoreDataImport.FirstLaunchOutcome {
        if Task.isCancelled {
            throw StoreError(
                .cancelled, "The import into '\(target)' was cancelled before it started. Nothing was written.",
                path: target, underlying: CancellationError())
        }
        let cancelled = LockedState(false)
        let queue = DispatchQueue(label: "JSONStore.AsyncStore.firstLaunchImport", qos: .userInitiated)
        let work = { () async -> Result<CoreDataImport.FirstLaunchOutcome, StoreError> in
            do throws(StoreError) {
                return .success(
                    try await run(on: queue) { () throws(StoreError) in
                        try CoreDataImport.firstLaunch(
                            source: source, into: target, preferences: preferences, allowUnknown: allowUnknown, tool: tool,
                            version: version, progress: progress, shouldContinue: { !cancelled.withLock { $0 } })
                    })
            } catch {
                return .failure(error)
            }
        }
        let result = await withTaskCancellationHandler {
            await work()
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
        return try result.get()
    }
}
