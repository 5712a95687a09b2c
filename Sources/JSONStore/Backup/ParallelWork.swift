import Foundation

/// Runs independent pieces of work (reading, hashing and decoding one file each) on several
/// threads, one per processor up to `maximumThreads`, and returns their results in order.
///
/// Used for the real file system only: a test seam need not be thread-safe, and the power-loss
/// model records calls in order, so through a seam the work runs one piece after another. On an
/// error, no new piece starts and the first error is thrown.
enum ParallelWork {
    static let maximumThreads = 8

    static func map<T>(_ count: Int, threaded: Bool,
                       _ body: @Sendable (Int) throws(StoreError) -> T) throws(StoreError) -> [T] {
        let threads = min(ProcessInfo.processInfo.activeProcessorCount, maximumThreads, count)
        guard threaded, threads > 1 else {
            var results: [T] = []
            results.reserveCapacity(count)
            for index in 0 ..< count { results.append(try body(index)) }
            return results
        }
        let state = State<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let index = state.next() {
                do throws(StoreError) {
                    state.store(try body(index), at: index)
                } catch {
                    state.fail(error)
                    return
                }
            }
        }
        return try state.results()
    }

    /// What the threads share: the next piece to take, the results so far, the first error.
    private final class State<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var taken = 0
        private var values: [T?]
        private var error: StoreError?

        init(count: Int) { values = Array(repeating: nil, count: count) }

        /// The next piece to run, or nil when all are taken or one failed.
        func next() -> Int? {
            locked {
                guard error == nil, taken < values.count else { return nil }
                taken += 1
                return taken - 1
            }
        }

        func store(_ value: T, at index: Int) { locked { values[index] = value } }
        func fail(_ failure: StoreError) { locked { if error == nil { error = failure } } }

        func results() throws(StoreError) -> [T] {
            let (values, error) = locked { (self.values, self.error) }
            if let error { throw error }
            return values.map { value in
                guard let value else { preconditionFailure("ParallelWork: a piece finished without a result") }
                return value
            }
        }

        /// `NSLock.withLock` needs macOS 14; the package supports macOS 13.
        private func locked<R>(_ body: () -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body()
        }
    }
}
