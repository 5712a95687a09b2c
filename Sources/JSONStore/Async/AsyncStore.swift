import Dispatch
import Foundation

/// The store for `async` code: every `Store` operation, callable with `await` from any task or
/// actor (the main actor included) without blocking the caller's thread.
///
/// The synchronous work runs on the store's own dispatch queues, never on the caller's thread or
/// the cooperative pool: reads on a concurrent queue, writes one at a time on a serial queue (so
/// this process's writes never contend for the lock with each other). Waiting for another
/// process's lock does not hold a thread either: a write tries the lock once (`flock` with
/// `LOCK_NB`), and while another holder has it the task sleeps 20 ms (`Task.sleep`) between tries,
/// up to `Store.Options.lockTimeout`. Cancelling the task ends the wait at once with a
/// `StoreError` `.cancelled`, and nothing is written. A write that already holds the lock runs
/// to its end: it is durable when the call returns, as with `Store`. A call made from a task
/// already cancelled throws `.cancelled` without doing anything.
///
/// The errors are the same `StoreError`s as the synchronous API's, plus `.cancelled`.
///
/// ```swift
/// let store = try await AsyncStore.open(at: path)
/// let stream = try await store.createWorkStream(workingDirectory: "/Users/ana/app")
/// try await store.appendMessages(stream.id, [message])
/// let listing = try await store.listWorkStreams()
/// ```
public final class AsyncStore: Sendable {
    /// The synchronous store, with the options given (reads from it need no `await`).
    public let store: Store
    /// The same store with a lock timeout of zero: each write tries the lock once, and `write`
    /// waits between tries without holding a thread.
    private let worker: Store
    private let reads: DispatchQueue
    /// The serial queue of this store's writes (internal for tests, which hold it to delay a try).
    let writes: DispatchQueue

    /// How long a write sleeps between two tries of a lock another holder has: 20 ms, as `StoreLock` polls.
    static let lockPollInterval: Duration = .milliseconds(20)

    /// Wraps an open store. Its `options.lockTimeout` is how long a write waits for the lock.
    public init(_ store: Store) {
        self.store = store
        worker = store.with(options: store.options.tryingLockOnce)
        reads = DispatchQueue(label: "JSONStore.AsyncStore.reads", qos: .userInitiated, attributes: .concurrent)
        writes = DispatchQueue(label: "JSONStore.AsyncStore.writes", qos: .userInitiated)
    }

    /// `Store.open(at:options:)` without blocking the caller: opening for writing takes the lock
    /// once (temp-file sweep, queue reconcile), waiting for it as a write does.
    ///
    /// - Throws: what `Store.open` throws, or `.cancelled` when the task is cancelled while waiting.
    public static func open(at path: String, options: Store.Options = Store.Options()) async throws(StoreError) -> AsyncStore {
        let trying = options.tryingLockOnce
        let queue = DispatchQueue(label: "JSONStore.AsyncStore.open", qos: .userInitiated)
        let opened = try await retryingLock(path: path, timeout: options.lockTimeout) { () throws(StoreError) in
            try await run(on: queue) { () throws(StoreError) in try Store.open(at: path, options: trying) }
        }
        return AsyncStore(opened.with(options: options))
    }

    /// `Store.create(at:options:now:)` without blocking the caller.
    ///
    /// - Throws: what `Store.create` throws, or `.cancelled`.
    public static func create(at path: String, options: Store.Options = Store.Options(), now: Date = Date()) async throws(StoreError) -> AsyncStore {
        let trying = options.tryingLockOnce
        let queue = DispatchQueue(label: "JSONStore.AsyncStore.create", qos: .userInitiated)
        let created = try await retryingLock(path: path, timeout: options.lockTimeout) { () throws(StoreError) in
            try await run(on: queue) { () throws(StoreError) in try Store.create(at: path, options: trying, now: now) }
        }
        return AsyncStore(created.with(options: options))
    }

    /// The store folder, as given.
    public var path: String { store.path }

    // MARK: Running the synchronous work

    /// Runs a read on the concurrent queue.
    func read<R: Sendable>(_ work: @escaping @Sendable (Store) throws(StoreError) -> R) async throws(StoreError) -> R {
        if Task.isCancelled { throw Self.cancelled(path, doing: "read", waiting: false) }
        let store = worker
        return try await Self.run(on: reads) { () throws(StoreError) in try work(store) }
    }

    /// Runs a write on the serial queue, trying the lock once per run and sleeping between runs
    /// while another holder has it. A run that finds the lock taken has only read (every write
    /// method reads before it takes the lock, then re-reads under it), so running it again is safe.
    func write<R: Sendable>(_ work: @escaping @Sendable (Store) throws(StoreError) -> R) async throws(StoreError) -> R {
        let store = worker, queue = writes
        return try await Self.retryingLock(path: path, timeout: self.store.options.lockTimeout) { () throws(StoreError) in
            try await Self.run(on: queue) { () throws(StoreError) in try work(store) }
        }
    }

    /// Calls `attempt` until it does not throw `.locked` or `timeout` has passed (then the last
    /// `.locked`, naming the holder, is thrown), sleeping `lockPollInterval` between calls.
    ///
    /// A try that found the lock taken after the task was cancelled ends the wait with
    /// `.cancelled`, even when the timeout passed during that try (a busy queue or machine can
    /// hold one try that long): the caller asked to stop, and nothing was written either way.
    private static func retryingLock<R: Sendable>(
        path: String, timeout: Duration, _ attempt: () async throws(StoreError) -> R
    ) async throws(StoreError) -> R {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var waited = false
        while true {
            if Task.isCancelled { throw cancelled(path, doing: "write to", waiting: waited) }
            do {
                return try await attempt()
            } catch  where error.code == .locked {
                if Task.isCancelled { throw cancelled(path, doing: "write to", waiting: true) }
                guard clock.now < deadline else { throw error }
                waited = true
                do { try await Task.sleep(for: min(lockPollInterval, clock.now.duration(to: deadline))) } catch {
                    throw cancelled(path, doing: "write to", waiting: true)
                }
            }
        }
    }

    /// Runs `work` on `queue` and resumes the caller with its result; the caller's thread is free meanwhile.
    static func run<R: Sendable>(on queue: DispatchQueue, _ work: @escaping @Sendable () throws(StoreError) -> R) async throws(StoreError) -> R {
        let result: Result<R, StoreError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result { () throws(StoreError) in try work() }) }
        }
        return try result.get()
    }

    /// "Can't write to '/data/store': the task was cancelled while it waited for the store's lock. Nothing was written."
    static func cancelled(_ path: String, doing action: String, waiting: Bool) -> StoreError {
        let when = waiting ? "while it waited for the store's lock" : "before the call ran"
        return StoreError(
            .cancelled, "Can't \(action) '\(path)': the task was cancelled \(when). Nothing was written.",
            path: path, underlying: CancellationError())
    }
}

extension Store.Options {
    /// These options with a lock timeout of zero: a write tries the lock once (`AsyncStore` waits between tries).
    var tryingLockOnce: Store.Options {
        var options = self
        options.lockTimeout = .zero
        return options
    }
}

extension Store {
    /// This store with other options (the same path, classification and seams).
    func with(options: Options) -> Store {
        Store(
            path: path, options: options, compatibility: compatibility, warnings: warnings, system: system, maintenance: maintenance,
            ownWrites: ownWrites)
    }
}
