import Foundation
import StoreJSON
import Testing

@testable import JSONStore

/// The one-step "take the next" on `Store` and `AsyncStore`, on a copy of `Samples/v4-store`
/// (FIFO a, b, c; priority c P1/1, d P1/2 (deleted by the user), e P10/1.5, f P10/2).
@Suite struct StoreTakeNextTests {
    typealias Sample = StoreQueueRulesTests.Sample

    @Test func takingTheNextFIFOEntryRemovesItAsRemoveFromQueueDoes() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        try store.setUserDeleted(Sample.a, true)
        let c = try store.summary(Sample.c).effectiveProviderSessionID
        let taken = try store.takeNextFromQueue(lockedProviderSessions: [c])
        #expect(taken == FIFOEntry(workStreamID: Sample.b, queuedAt: RFC3339.parse("2025-11-04T15:24:05.930Z")), "a is deleted: skipped")
        #expect(try store.queue().fifo.map(\.workStreamID) == [Sample.a, Sample.c])
        let b = try store.workStream(Sample.b).fields
        #expect(!b.isInQueue && b.queuePosition == 0 && b.queuedAt == nil)
        #expect(try store.workStream(Sample.c).fields.queuePosition == 2)
        #expect(try store.takeNextFromQueue(lockedProviderSessions: [c]) == nil, "a hidden, c locked")
        #expect(try store.takeNextFromQueue()?.workStreamID == Sample.c)
        #expect(try store.takeNextFromQueue() == nil)
        #expect(try store.queue().fifo.map(\.workStreamID) == [Sample.a], "the hidden entry keeps its place")
        try StoreQueueLibraryTests.expectMirrorAgrees(store)
    }

    @Test func takingTheNextPriorityEntryTakesTheMostUrgent() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        try store.changePriority(Sample.f, to: 5)
        let taken = try store.takeNextFromPriorityQueue()
        #expect(taken?.workStreamID == Sample.c && taken?.priority == 1 && taken?.priorityOrder == 1)
        let c = try store.workStream(Sample.c).fields
        #expect(!c.isInPriorityQueue && c.priority == 10 && c.priorityOrder == 0 && c.priorityQueuedAt == nil)
        #expect(try store.takeNextFromPriorityQueue()?.workStreamID == Sample.f, "d (P1) is deleted: P5 is next, before P10")
        #expect(try store.takeNextFromPriorityQueue()?.workStreamID == Sample.e)
        #expect(try store.takeNextFromPriorityQueue() == nil)
        #expect(try StoreQueueLibraryTests.priorityList(store) == ["d:1/2.0"])
        try StoreQueueLibraryTests.expectMirrorAgrees(store)
    }

    @Test func anEmptyQueueGivesNilAndWritesNothing() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v4-store", as: "store")
        let store = try Store.open(at: path)
        for id in [Sample.a, Sample.b, Sample.c] { try store.removeFromQueue(id) }
        let before = snapshot(path, includingRoot: true)
        #expect(try store.takeNextFromQueue() == nil)
        #expect(snapshot(path, includingRoot: true) == before, "no lock taken, no file written")
    }

    @Test func asyncStoreTakesTheNextToo() async throws {
        let folder = TemporaryDirectory()
        let store = try await AsyncStore.open(at: try folder.copySample("v4-store", as: "store"))
        #expect(try await store.takeNextFromQueue()?.workStreamID == Sample.a)
        #expect(try await store.takeNextFromPriorityQueue()?.workStreamID == Sample.c)
        #expect(try await store.queue().fifo.map(\.workStreamID) == [Sample.b, Sample.c])
    }

    /// Three processes serve one queue at once: each work stream is taken exactly once. Reading the
    /// queue and then removing its head, under two holds of the lock, would hand some out twice.
    @Test(.timeLimit(.minutes(2)))
    func processesServingOneQueueNeverTakeTheSameWorkStream() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v4-store", as: "store")
        let store = try Store.open(at: path)
        var queued = Set([Sample.a, Sample.b, Sample.c])
        for _ in 0..<27 {
            let id = try store.createWorkStream(workingDirectory: "/w").id
            try store.enqueue(id)
            queued.insert(id)
        }
        let takers = try (0..<3).map { _ in try ChildProcess(["take-next", path, "fifo"]) }
        var taken: [UUID] = []
        for taker in takers {
            let lines = taker.lines()
            #expect(taker.wait().status == 0)
            #expect(lines.last == "done")
            taken += lines.compactMap { $0.hasPrefix("took ") ? UUID(uuidString: String($0.dropFirst(5))) : nil }
        }
        #expect(taken.count == queued.count && Set(taken) == queued, "each taken exactly once")
        #expect(try store.queue().fifo.isEmpty)
        try StoreQueueLibraryTests.expectMirrorAgrees(store)
    }
}
