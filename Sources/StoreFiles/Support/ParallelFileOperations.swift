import Dispatch
import Foundation

/// Many independent file operations (renames over documents, removals of old documents), from
/// several threads when the real file system is used: replacing or removing a file frees the old
/// one inside the call, which on this machine's ext4 (mounted with `discard`) took 0.6–3.6 ms
/// each, while independent frees overlap well (8 threads ran 12× faster). Through a test seam
/// (which need not be thread-safe) they run one by one.
package enum ParallelFileOperations {
    static let threads = 8
    static let minimumForThreads = 32

    /// Runs `operation(i)` for `i` in `0..<count` until one fails.
    /// - Returns: the first error and which operations completed (nil when all did).
    package static func run(
        count: Int, system: SystemCalls,
        operation: @Sendable (Int) throws(StoreError) -> Void
    ) -> (error: StoreError, done: [Bool])? {
        guard count >= minimumForThreads, system.calls is PosixCalls else {
            for index in 0..<count {
                do { try operation(index) } catch {
                    return (error, (0..<count).map { $0 < index })
                }
            }
            return nil
        }
        let state = State(count: count)
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
            for index in stride(from: worker, to: count, by: threads) {
                guard !state.failed else { return }
                do throws(StoreError) {
                    try operation(index)
                    state.markDone(index)
                } catch {
                    state.fail(error)
                    return
                }
            }
        }
        return state.outcome
    }

    /// What the threads share: which operations are done, and the first error.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var done: [Bool]
        private var error: StoreError?
        init(count: Int) { done = Array(repeating: false, count: count) }
        var failed: Bool { lock.guarded { error != nil } }
        var outcome: (error: StoreError, done: [Bool])? { lock.guarded { error.map { ($0, done) } } }
        func markDone(_ index: Int) { lock.guarded { done[index] = true } }
        func fail(_ failure: StoreError) { lock.guarded { if error == nil { error = failure } } }
    }
}

/// Renames many temp files over their documents (`ParallelFileOperations`). On an error, every
/// temp file not renamed is removed and the first error is thrown.
package enum ParallelRename {
    /// Renames `count` temp files; `paths(i)` gives the `i`-th (temp file, document), made when
    /// needed rather than held in a list for all of them.
    package static func run(count: Int, system: SystemCalls, paths: @Sendable (Int) -> (from: String, to: String)) throws(StoreError) {
        let failure = ParallelFileOperations.run(count: count, system: system) { (index) throws(StoreError) in
            let rename = paths(index)
            try system.rename(rename.from, to: rename.to, context: ErrorContext("write", rename.to))
        }
        guard let (error, done) = failure else { return }
        for index in 0..<count where !done[index] { system.removeLeftover(paths(index).from) }
        throw error
    }
}
