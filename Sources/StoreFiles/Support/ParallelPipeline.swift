import Dispatch
import Foundation

/// `ParallelBatches` with the next batch's work running while the calling thread consumes the
/// current one: for passes whose `consume` is itself expensive (an export hashes and writes
/// every line on the calling thread, about a third of its CPU). With `ParallelBatches` the other
/// cores wait during each `consume`; here they are already working on the next batch.
///
/// Results are still consumed in item order on the calling thread, at most two batches are in
/// memory, and through a test seam (`SystemCalls` other than the real calls) or on one core
/// everything runs one by one on the calling thread, exactly as `ParallelBatches` does.
package enum ParallelPipeline {
    /// Applies `work` to every item, then `consume` to each (item, result) in item order.
    ///
    /// - Parameters:
    ///   - work: called from other threads on the real file system; must be thread-safe. It
    ///     never runs after this function returns or throws.
    ///   - consume: called on the calling thread, in item order. An error it throws stops the run
    ///     once the batch in flight has finished.
    package static func run<Item: Sendable, Output: Sendable>(
        _ items: [Item], system: SystemCalls,
        work: @escaping @Sendable (Item) -> Result<Output, StoreError>,
        consume: (Item, Result<Output, StoreError>) throws(StoreError) -> Void
    ) throws(StoreError) {
        let threads = system.calls is PosixCalls ? ParallelBatches.workers : 1
        let size = ParallelBatches.batchSize
        guard threads > 1, items.count > size else {
            for item in items { try consume(item, work(item)) }
            return
        }
        let ranges = stride(from: 0, to: items.count, by: size).map { $0..<min($0 + size, items.count) }
        var inFlight = Batch(items: items, range: ranges[0], threads: threads, work: work)
        for (number, range) in ranges.enumerated() {
            inFlight.done.wait()
            let current = inFlight
            if number + 1 < ranges.count { inFlight = Batch(items: items, range: ranges[number + 1], threads: threads, work: work) }
            do {
                for index in range { try consume(items[index], current.results.take(index - range.lowerBound)) }
            } catch {
                inFlight.done.wait()  // `work` must not outlive the call
                throw error
            }
        }
    }

    /// One batch being worked on by `threads` threads, started at once.
    private struct Batch<Output: Sendable> {
        let results: ParallelBatches.Results<Output>
        let done = DispatchGroup()

        init<Item: Sendable>(items: [Item], range: Range<Int>, threads: Int, work: @escaping @Sendable (Item) -> Result<Output, StoreError>) {
            let results = ParallelBatches.Results<Output>(count: range.count)
            self.results = results
            DispatchQueue.global().async(group: done) {
                DispatchQueue.concurrentPerform(iterations: threads) { worker in
                    for index in stride(from: worker, to: range.count, by: threads) {
                        results.set(index, work(items[range.lowerBound + index]))
                    }
                }
            }
        }
    }
}
