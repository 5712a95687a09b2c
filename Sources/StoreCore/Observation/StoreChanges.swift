import Foundation

/// The changes to a store's documents, by any process, as an `AsyncSequence` (see `Store.changes`).
///
/// Watching starts when the sequence is made and stops when it is dropped, when the task
/// iterating it is cancelled, or at `stop()`. One consumer: iterate it once.
///
/// ```swift
/// for await change in try store.changes(includingOwnWrites: false) {
///     switch change {
///     case .documents(let changes): refresh(changes.map(\.document))
///     case .reread: refreshEverything()
///     }
/// }
/// ```
public struct StoreChanges: AsyncSequence, Sendable {
    public typealias Element = StoreChange

    /// How changes are noticed and delivered.
    public struct Options: Sendable {
        /// How folders are watched. The default is `.automatic` (inotify, kqueue; polling as the fallback).
        public var notification: ChangeNotification
        /// How long after the first notification of a burst the store is looked at: the writes of that
        /// window become one event. The default is 50 ms.
        public var coalescing: Duration
        /// How many changed documents wait for a consumer before they are dropped for one `.reread`.
        /// The default is 1,000.
        public var maximumPending: Int

        public init(notification: ChangeNotification = .automatic, coalescing: Duration = .milliseconds(50), maximumPending: Int = 1_000) {
            self.notification = notification
            self.coalescing = coalescing
            self.maximumPending = maximumPending
        }
    }

    let watcher: StoreWatcher
    private let doorbell: AsyncStream<Void>

    init(store: Store, includingOwnWrites: Bool, options: Options) throws(StoreError) {
        let (doorbell, ring) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let watcher = try StoreWatcher(store: store, includingOwnWrites: includingOwnWrites, options: options, doorbell: ring)
        ring.onTermination = { _ in watcher.stop() }
        self.watcher = watcher
        self.doorbell = doorbell
    }

    /// Stops watching: the iteration ends after the changes already seen.
    public func stop() { watcher.stop() }

    public func makeAsyncIterator() -> Iterator {
        Iterator(bell: doorbell.makeAsyncIterator(), watcher: watcher)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var bell: AsyncStream<Void>.Iterator
        let watcher: StoreWatcher

        /// The next change; nil once watching stopped (or the task was cancelled).
        public mutating func next() async -> StoreChange? {
            while await bell.next() != nil {
                if let change = watcher.takePending() { return change }
            }
            return watcher.takePending()
        }
    }
}

extension Store {
    /// The changes made to this store's documents from now on, by any process: which documents,
    /// created, modified or deleted, coalesced (see `StoreChanges.Options.coalescing`); a consumer that
    /// falls behind gets one `.reread` instead of a growing backlog.
    ///
    /// Built on the platform's file-change notifications (inotify on Linux, a `DispatchSource`
    /// file-system object per folder on Apple platforms), with polling as the fallback (see
    /// `ChangeNotification`). Only documents are reported: `store.json`, `settings.json`,
    /// `queue.json`, work streams and customisations; temp files and the lock never are.
    ///
    /// ```swift
    /// let changes = try store.changes(includingOwnWrites: false)
    /// Task { for await change in changes { await reload(change) } }
    /// ```
    ///
    /// - Parameters:
    ///   - includingOwnWrites: Whether the writes of this process (through any `Store` or `AsyncStore`
    ///     of this path) are reported too. The default is `true`. See `OwnWrites` for the exact rule.
    ///   - options: How changes are noticed and delivered. The default is `StoreChanges.Options()`.
    /// - Throws: `StoreError` when the store's folders can't be listed to start with.
    public func changes(includingOwnWrites: Bool = true, options: StoreChanges.Options = StoreChanges.Options()) throws(StoreError) -> StoreChanges {
        try StoreChanges(store: self, includingOwnWrites: includingOwnWrites, options: options)
    }
}
