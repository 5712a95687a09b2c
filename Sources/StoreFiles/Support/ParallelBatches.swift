import Dispatch
import Foundation

/// Runs independent per-item work (decode, migrate, encode one work stream) on every core, in
/// bounded batches, and hands the results back in item order on the calling thread.
///
/// A migration is CPU-bound (parsing and encoding JSON), and each work stream is independent
/// until the queue step. Items are processed `batchSize` at a time: the workers of one batch
/// run concurrently, then `consume` sees each result in order, so reports, progress and error
/// lists come out exactly as a sequential loop would give them, and memory holds at most one
/// batch of results. Through a test seam (`SystemCalls` other than the real calls, which need
/// not be thread-safe) or on one core, items run one by one on the calling thread.
package enum ParallelBatches {
    package static let batchSize = 64

    /// How many threads work at once: the active cores, at most 8.
    static var workers: Int { min(8, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Applies `work` to every item, then `consume` to each (item, result) in item order.
    ///
    /// - Parameters:
    ///   - items: the inputs.
    ///   - system: the calls `work` makes; anything but the real calls runs sequentially.
    ///   - work: called from several threads at once on the real file system; must be thread-safe.
    ///   - consume: called on the calling thread, in item order, with each item's result.
    ///     An error it throws stops the run (items of later batches are not worked on).
    package static func run<Item: Sendable, Output: Sendable>(
        _ items: [Item], system: SystemCalls,
        work: @Sendable (Item) -> Result<Output, StoreError>,
        consume: (Item, Result<Output, StoreError>) throws(StoreError) -> Void
    ) throws(StoreError) {
        let threads = system.calls is PosixCalls ? workers : 1
        guard threads > 1, items.count > 1 else {
            for item in items { try consume(item, work(item)) }
            return
        }
        var start = 0
        while start < items.count {
            let batch = Array(items[start..<min(start + batchSize, items.count)])
            let results = Results<Output>(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: threads) { worker in
                for index in stride(from: worker, to: batch.count, by: threads) {
                    results.set(index, work(batch[index]))
                }
            }
            for (index, item) in batch.enumerated() { try consume(item, results.take(index)) }
            start += batch.count
        }
    }

    /// One batch's results, written by the workers (each index once) and read after they finish
    /// (also `ParallelPipeline`'s).
    final class Results<Output: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Result<Output, StoreError>?]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ result: Result<Output, StoreError>) { lock.guarded { slots[index] = result } }
        func take(_ index: Int) -> Result<Output, StoreError> {
            lock.guarded {
                guard let result = slots[index] else { preconditionFailure("ParallelBatches: no result for item \(index)") }
                slots[index] = nil
                return result
            }
        }
    }
}
