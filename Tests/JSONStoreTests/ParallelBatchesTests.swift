import Foundation
import Testing

@testable import JSONStore

/// `ParallelBatches` must give exactly what a sequential loop gives: every result, in item
/// order, on the calling thread; and stop working once `consume` throws.
@Suite struct ParallelBatchesTests {
    private func failure(_ item: Int) -> StoreError {
        StoreError(.invalidDocument, "item \(item) is bad", path: "/store/\(item)")
    }

    private func runCollecting(_ items: [Int], system: SystemCalls) throws -> [String] {
        var seen: [String] = []
        try ParallelBatches.run(
            items, system: system,
            work: { (item) -> Result<Int, StoreError> in
                item % 7 == 3 ? .failure(failure(item)) : .success(item * 2)
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
        // 3 batches and a partial one, so batch boundaries are crossed.
        let items = Array((0..<(3 * ParallelBatches.batchSize + 17)).reversed())
        #expect(try runCollecting(items, system: .real) == expected(items))
    }

    @Test func aTestSeamRunsItemsOneByOneInOrder() throws {
        let items = Array(0..<100)
        let seam = SystemCalls(calls: FaultInjectingCalls())
        #expect(try runCollecting(items, system: seam) == expected(items))
    }

    @Test func emptyAndSingleItemRuns() throws {
        #expect(try runCollecting([], system: .real) == [])
        #expect(try runCollecting([3], system: .real) == ["3!item 3 is bad"])
    }

    @Test func anErrorThrownByConsumeStopsLaterBatches() throws {
        let items = Array(0..<(5 * ParallelBatches.batchSize))
        let worked = Counter()
        var consumed = 0
        #expect(throws: StoreError.self) {
            try ParallelBatches.run(
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
        // Only the first batch was worked on.
        #expect(worked.value == ParallelBatches.batchSize)
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.guarded { count += 1 } }
        var value: Int { lock.guarded { count } }
    }
}
