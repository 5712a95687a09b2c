import Foundation
import Testing

@testable import JSONStore

/// `ParallelPipeline` (the export's loop) must give exactly what a sequential loop gives: every
/// result, in item order, on the calling thread; stop once `consume` throws, with no work running
/// after it returns.
@Suite struct ParallelPipelineTests {
    private func failure(_ item: Int) -> StoreError {
        StoreError(.invalidDocument, "item \(item) is bad", path: "/store/\(item)")
    }

    private func runCollecting(_ items: [Int], system: SystemCalls) throws -> [String] {
        var seen: [String] = []
        try ParallelPipeline.run(
            items, system: system,
            work: { (item) -> Result<Int, StoreError> in
                item % 7 == 3 ? .failure(StoreError(.invalidDocument, "item \(item) is bad", path: "/store/\(item)")) : .success(item * 2)
            },
            consume: { (item, result) throws(StoreError) in
                switch result {
                case .success(let value): seen.append("\(item)=\(value)")
                case .failure(let error): seen.append("\(item)!\(error.message)")
                }
            })
        return seen
    }

    private func expected(_ items: [Int]) -> [String] {
        items.map { $0 % 7 == 3 ? "\($0)!item \($0) is bad" : "\($0)=\($0 * 2)" }
    }

    @Test func resultsComeBackInItemOrderOnTheRealFileSystem() throws {
        // Several batches and a partial one, so the hand-over between batches is crossed.
        let items = Array((0..<(7 * ParallelBatches.batchSize + 17)).reversed())
        #expect(try runCollecting(items, system: .real) == expected(items))
    }

    @Test func aTestSeamRunsItemsOneByOneInOrder() throws {
        let items = Array(0..<300)
        let seam = SystemCalls(calls: FaultInjectingCalls())
        #expect(try runCollecting(items, system: seam) == expected(items))
    }

    @Test func emptySingleAndOneBatchRuns() throws {
        #expect(try runCollecting([], system: .real) == [])
        #expect(try runCollecting([3], system: .real) == ["3!item 3 is bad"])
        let one = Array(0..<ParallelBatches.batchSize)
        #expect(try runCollecting(one, system: .real) == expected(one))
    }

    @Test func anErrorThrownByConsumeStopsAfterTheBatchInFlight() throws {
        let items = Array(0..<(6 * ParallelBatches.batchSize))
        let worked = Counter()
        var consumed = 0
        #expect(throws: StoreError.self) {
            try ParallelPipeline.run(
                items, system: .real,
                work: { (item) -> Result<Int, StoreError> in
                    worked.increment()
                    return .success(item)
                },
                consume: { (item, _) throws(StoreError) in
                    consumed += 1
                    if item == 10 { throw failure(item) }
                })
        }
        #expect(consumed == 11)
        // The first batch and the one started while it was consumed, and nothing after the return.
        #expect(worked.value == 2 * ParallelBatches.batchSize)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(worked.value == 2 * ParallelBatches.batchSize)
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.guarded { count += 1 } }
        var value: Int { lock.guarded { count } }
    }
}
