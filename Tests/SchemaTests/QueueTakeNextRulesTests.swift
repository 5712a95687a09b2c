import Foundation
import Testing

@testable import Schema

// The library's one-step "take the next" (QueueV2.takeNextFromFIFO, takeNextFromPriority): the
// first entry a client shows, removed by its list's removal rule. Pure: no disk.

private enum L {
    static func id(_ n: Int) -> UUID { StoreMigrationTests.id(n) }
    static let t1 = Fixtures.t0, t2 = Fixtures.t0.addingTimeInterval(60)

    /// Every work stream 1…n exists; `deleted` are the ones the user deleted, `locked` those whose
    /// provider session ("p<n>") is locked.
    static func context(_ n: Int, deleted: Set<Int> = [], locked: Set<Int> = []) -> QueueContext {
        QueueContext(
            providerSessionIDs: Dictionary(uniqueKeysWithValues: (1...n).map { (id($0), "p\($0)") }),
            deleted: Set(deleted.map(id)), lockedProviderSessions: Set(locked.map { "p\($0)" }))
    }
}

@Suite struct TakeNextRulesTests {
    @Test func takingTheNextFIFOEntrySkipsHiddenOnesWhichKeepTheirPlace() {
        var q = QueueV2.empty
        for n in 1...4 { q.enqueue(L.id(n), at: L.t1) }
        let context = L.context(4, deleted: [1], locked: [2])
        let taken = q.takeNextFromFIFO(where: context.shows)
        #expect(taken == FIFOEntry(workStreamID: L.id(3), queuedAt: L.t1))
        #expect(q.fifo.map(\.workStreamID) == [1, 2, 4].map(L.id), "1 and 2 keep their places; 4 moves up")
        #expect(q.takeNextFromFIFO(where: context.shows)?.workStreamID == L.id(4))
        let rest = q
        #expect(q.takeNextFromFIFO(where: context.shows) == nil, "only hidden entries are left")
        #expect(q == rest)
    }

    @Test func takingTheNextPriorityEntryTakesTheLowestNumberFirst() {
        var q = QueueV2.empty
        q.addToPriority(L.id(1), priority: 10, at: L.t1)
        q.addToPriority(L.id(2), priority: 5, at: L.t1)
        q.addToPriority(L.id(3), priority: 1, at: L.t1)
        q.addToPriority(L.id(4), priority: 1, at: L.t2)
        let everyone = L.context(4)
        #expect(q.takeNextFromPriority(where: everyone.shows)?.workStreamID == L.id(3), "priority 1 is the most urgent")
        #expect(q.takeNextFromPriority(where: everyone.shows) == PriorityEntry(workStreamID: L.id(4), priority: 1, priorityOrder: 2, priorityQueuedAt: L.t2))
        #expect(q.takeNextFromPriority(where: L.context(4, deleted: [2]).shows)?.workStreamID == L.id(1), "5 is hidden: 10 is next")
        #expect(q.priority.map(\.workStreamID) == [L.id(2)])
        let old = q
        _ = q.takeNextFromPriority(where: everyone.shows)
        let keys = QueueMirrorUpdate(from: old, to: q).keys(
            for: L.id(2), current: QueueKeys(isInPriorityQueue: true, priority: 5, priorityOrder: 1, priorityQueuedAt: L.t1))
        #expect(keys == QueueKeys(), "taken: removed as removeFromPriority removes (priority 10, order 0, no date)")
        #expect(q.takeNextFromPriority(where: everyone.shows) == nil)
    }

    @Test func aFailingCheckStopsTheTakeAndChangesNothing() {
        struct Unreadable: Error {}
        var q = QueueV2.empty
        q.enqueue(L.id(1), at: L.t1)
        let before = q
        #expect(throws: Unreadable.self) { try q.takeNextFromFIFO { _ throws(Unreadable) in throw Unreadable() } }
        #expect(q == before)
    }
}
