import Foundation
import Testing

@testable import Schema

// Spec §5 states the shipped app's queue rules. Each test below restates one or more of the app's
// tests (reifying/untethered, ios/VoiceCodeTests/QueueManagementTests.swift and
// PriorityQueueManagementTests.swift) as input → expected output on `QueueV2` and the mirror keys;
// the comment above each names the app tests it restates.

/// Shared builders: work stream n has id …000n; `entries` shows the priority list as "n:level/order".
private enum Q {
    static func id(_ n: Int) -> UUID { StoreMigrationTests.id(n) }
    static let t1 = Fixtures.t0, t2 = Fixtures.t0.addingTimeInterval(60)

    static func entries(_ q: QueueV2) -> [String] {
        q.priority.map { "\($0.workStreamID.uuidString.suffix(1)):\($0.priority)/\(JSONNumber($0.priorityOrder).literal)" }
    }

    /// A priority queue built by adding (level, n) pairs in order, each at the end of its level.
    static func priority(_ adds: [(Int32, Int)]) -> QueueV2 {
        var q = QueueV2.empty
        for (level, n) in adds { q.addToPriority(id(n), priority: level, at: t1) }
        return q
    }

    /// The mirror keys `queue` implies for work stream n, starting from a new document's keys.
    static func mirror(_ q: QueueV2, _ n: Int) -> QueueKeys {
        QueueIndex(q).mirror(for: id(n), current: QueueKeys(WorkStreamKeys(id: id(n), backendName: "", workingDirectory: "", lastModified: t1)))
    }
}

@Suite struct FIFOQueueAppRulesTests {
    // Restates testRemoveFromMiddleCompactsPositions and testRemoveFromEndDoesNotAffectOthers.
    @Test func removingNullsQueuedAtAndClosesTheGap() {
        var q = QueueV2.empty
        for n in 1...3 { q.enqueue(Q.id(n), at: Q.t1) }
        let old = q
        q.removeFromFIFO(Q.id(2))
        let update = QueueMirrorUpdate(from: old, to: q)
        let removed = update.keys(for: Q.id(2), current: Q.mirror(old, 2))
        #expect(!removed.isInQueue && removed.queuePosition == 0 && removed.queuedAt == nil)
        #expect(update.keys(for: Q.id(3), current: Q.mirror(old, 3)).queuePosition == 2)
        #expect(update.candidates == [Q.id(2), Q.id(3)], "work stream 1 keeps position 1: its file is not written")

        let beforeEnd = q
        q.removeFromFIFO(Q.id(3))
        #expect(QueueMirrorUpdate(from: beforeEnd, to: q).candidates == [Q.id(3)], "removing the last moves no other")
        #expect(q.fifo.map(\.workStreamID) == [Q.id(1)])
    }

    // Restates testRemoveNonQueuedSessionHasNoEffect.
    @Test func removingAWorkStreamThatIsNotQueuedChangesNothing() {
        var q = QueueV2.empty
        q.enqueue(Q.id(1), at: Q.t1)
        let before = q
        let removed = q.removeFromFIFO(Q.id(2))
        #expect(!removed)
        #expect(q == before)
        #expect(QueueMirrorUpdate(from: before, to: q).candidates.isEmpty)
    }

    /// Only an explicit removal nulls `queued_at`: the migration's mirror (§6) keeps it.
    @Test func theMigrationMirrorKeepsQueuedAtOfAWorkStreamThatIsNotQueued() {
        var stale = QueueKeys(WorkStreamKeys(id: Q.id(1), backendName: "", workingDirectory: "", lastModified: Q.t1))
        stale.queuedAt = Q.t1
        #expect(QueueIndex(.empty).mirror(for: Q.id(1), current: stale).queuedAt == Q.t1)
    }
}

@Suite struct PriorityQueueAddAppRulesTests {
    // Restates testAddToPriorityQueue, testPriorityOrderUniqueness and testFetchMaxPriorityOrder
    // (a session whose priority is 5 is added at level 5).
    @Test func addingWithoutALevelUsesTheStoredPriority() {
        var q = QueueV2.empty
        q.addToPriority(Q.id(1), at: Q.t1)
        q.addToPriority(Q.id(2), storedPriority: 5, at: Q.t1)
        q.addToPriority(Q.id(3), storedPriority: 5, at: Q.t2)
        #expect(Q.entries(q) == ["2:5/1.0", "3:5/2.0", "1:10/1.0"])
        #expect(q.priorityEntry(of: Q.id(3))?.priorityQueuedAt == Q.t2)
    }

    // Restates testAutoAddMovesToEndOfPriorityLevel, testAutoAddMovesSessionToEndWhenOthersExist
    // and testSessionUpdatedAutoAddPreservesQueuedAt.
    @Test func readdingWithoutALevelKeepsTheLevelAndMovesToTheEndOfIt() {
        var q = Q.priority([(5, 1), (5, 2), (1, 3), (1, 4)])
        q.addToPriority(Q.id(1), at: Q.t2)
        q.addToPriority(Q.id(3), storedPriority: 10, at: Q.t2)  // queued: its level wins over the stored one
        #expect(Q.entries(q) == ["4:1/2.0", "3:1/3.0", "2:5/2.0", "1:5/3.0"])
        #expect(q.priorityEntry(of: Q.id(1))?.priorityQueuedAt == Q.t1, "set on the first add only")
    }

    // Restates testAddToPriorityQueueIdempotent and testAddToPriorityQueueNoNotificationWhenAlreadyAtEnd.
    @Test func readdingTheLastOfItsLevelChangesNothing() {
        var q = Q.priority([(1, 1), (5, 2), (5, 3)])
        let before = q
        q.addToPriority(Q.id(1), at: Q.t2)
        q.addToPriority(Q.id(3), at: Q.t2)
        #expect(q == before)
    }

    // Restates testReaddingWithDifferentPriority and testStateConsistencyAfterOperations: removal
    // resets the stored priority to 10, so a later add without a level goes to level 10.
    @Test func addingAfterRemovalGoesToTheResetLevel() {
        var q = Q.priority([(5, 1)])
        let old = q
        q.removeFromPriority(Q.id(1))
        let keys = QueueMirrorUpdate(from: old, to: q).keys(for: Q.id(1), current: Q.mirror(old, 1))
        #expect(keys.priority == 10 && keys.priorityOrder == 0 && keys.priorityQueuedAt == nil && !keys.isInPriorityQueue)
        q.addToPriority(Q.id(2), at: Q.t1)
        q.addToPriority(Q.id(3), at: Q.t1)
        q.addToPriority(Q.id(1), storedPriority: keys.priority, at: Q.t2)
        #expect(Q.entries(q) == ["2:10/1.0", "3:10/2.0", "1:10/3.0"])
    }

    // Restates testRemovingMiddleSessionLeavesGap and testMultipleRemovalsAccumulateGaps.
    @Test func removingLeavesTheOthersOrdersAndTheirGaps() {
        var q = Q.priority([(10, 1), (10, 2), (10, 3)])
        q.removeFromPriority(Q.id(2))
        #expect(Q.entries(q) == ["1:10/1.0", "3:10/3.0"])
        q.addToPriority(Q.id(4), at: Q.t1)
        #expect(Q.entries(q) == ["1:10/1.0", "3:10/3.0", "4:10/4.0"])
    }
}

@Suite struct PriorityQueueChangeAppRulesTests {
    // Restates testChangePriorityIdempotent, testChangePriorityExcludesSelfInMaxOrderCalculation,
    // testChangePriorityNotInQueue and testChangePriorityNotInQueueProduction.
    @Test func changingToTheSameLevelOrOfAWorkStreamNotQueuedChangesNothing() {
        var q = Q.priority([(1, 1), (1, 2)])
        let before = q
        let same = q.changePriority(Q.id(1), to: 1)
        let notQueued = q.changePriority(Q.id(3), to: 1)
        #expect(same && !notQueued)
        #expect(q == before)
    }

    // Restates testChangePriorityToSamePriorityAsOtherSession, testRapidPriorityChanges and
    // testPriorityQueuedAtUnchangedOnPriorityChange.
    @Test func eachChangeGoesToTheEndOfTheNewLevelAndKeepsQueuedAt() {
        var q = Q.priority([(1, 1), (5, 2), (10, 3)])
        q.changePriority(Q.id(3), to: 1)
        #expect(Q.entries(q) == ["1:1/1.0", "3:1/2.0", "2:5/1.0"])
        q.changePriority(Q.id(1), to: 10)
        q.changePriority(Q.id(2), to: 1)
        q.changePriority(Q.id(1), to: 1)
        #expect(Q.entries(q) == ["3:1/2.0", "2:1/3.0", "1:1/4.0"])
        #expect(q.priority.allSatisfy { $0.priorityQueuedAt == Q.t1 })
    }
}

@Suite struct PriorityQueueDragAppRulesTests {
    // Restates testReorderBetweenSamePriority and testReorderMaintainsSortedOrder.
    @Test func dropBetweenNeighboursOfOneLevelTakesTheirMidpoint() throws {
        var q = Q.priority([(10, 1), (10, 2), (10, 3), (10, 4)])
        q.movePriority(Q.id(4), after: Q.id(1), before: Q.id(2))
        #expect(Q.entries(q) == ["1:10/1.0", "4:10/1.5", "2:10/2.0", "3:10/3.0"])
    }

    // Restates testReorderBetweenDifferentPriorities: P1 dropped between a P5 and a P10 goes to
    // P10 at order 2 (after the P10 neighbour's 1), not just before it.
    @Test func dropBetweenLevelsGoesToTheEndOfTheLowerNeighboursLevel() throws {
        var q = Q.priority([(5, 1), (10, 2), (1, 3)])
        q.movePriority(Q.id(3), after: Q.id(1), before: Q.id(2))
        #expect(Q.entries(q) == ["1:5/1.0", "2:10/1.0", "3:10/2.0"])
    }

    // Restates testReorderAcrossPriorityBoundary, with a fuller lower level: the end of the level
    // is its max order + 1, below every entry of it.
    @Test func dropBetweenLevelsGoesBelowTheWholeLowerLevel() throws {
        var q = Q.priority([(1, 1), (5, 2), (10, 3), (10, 4)])
        q.movePriority(Q.id(1), after: Q.id(2), before: Q.id(3))
        #expect(Q.entries(q) == ["2:5/1.0", "3:10/1.0", "4:10/2.0", "1:10/3.0"])
    }

    // Restates testReorderToTop, testReorderToBottom and testMultipleReorders.
    @Test func dropAtTheTopOrBottomUsesTheOnlyNeighbour() throws {
        var q = Q.priority([(10, 1), (10, 2), (10, 3), (10, 4)])
        q.movePriority(Q.id(4), after: nil, before: Q.id(1))
        q.movePriority(Q.id(2), after: Q.id(3), before: nil)
        #expect(Q.entries(q) == ["4:10/0.0", "1:10/1.0", "3:10/3.0", "2:10/4.0"])
    }

    // Spec §5, drag with the neighbours the user saw (the app's reorderPriorityQueue takes them from
    // the list it shows, which hides deleted work streams): 2 and 3 are hidden between 1 and 4.
    // Dropping 5 between 1 and 4 takes their midpoint; it used to be refused ("not neighbours").
    @Test func dropBetweenVisibleNeighboursWithHiddenEntriesBetweenTakesTheirMidpoint() {
        var q = Q.priority([(10, 1), (10, 2), (10, 3), (10, 4), (10, 5)])
        let shown = QueueContext(
            providerSessionIDs: Dictionary(uniqueKeysWithValues: (1...5).map { (Q.id($0), "p\($0)") }),
            deleted: [Q.id(2), Q.id(3)])
        #expect(q.visiblePriority(shown) == [1, 4, 5].map(Q.id))
        q.movePriority(Q.id(5), after: Q.id(1), before: Q.id(4))
        #expect(Q.entries(q) == ["1:10/1.0", "2:10/2.0", "5:10/2.5", "3:10/3.0", "4:10/4.0"])
        #expect(q.visiblePriority(shown) == [1, 5, 4].map(Q.id))
    }

    // Spec §5, drag between levels with a hidden level between them: the lower neighbour's level,
    // at its end (the app's testReorderBetweenDifferentPriorities, with a hidden P5 entry between).
    @Test func dropBetweenVisibleNeighboursOfTwoLevelsWithAHiddenLevelBetween() {
        var q = Q.priority([(1, 1), (1, 5), (5, 2), (10, 3), (10, 4)])
        q.movePriority(Q.id(1), after: Q.id(5), before: Q.id(3))
        #expect(Q.entries(q) == ["5:1/2.0", "2:5/1.0", "3:10/1.0", "4:10/2.0", "1:10/3.0"])
    }

    // Spec §5: the midpoint is renumbered only when it equals a neighbour's order; here the two
    // neighbours the user saw hold the same order (the app's testFetchLimitCausesDuplicateOrders...),
    // with a hidden entry between: the level is renumbered 1…k, then the midpoint is taken.
    @Test func dropBetweenNeighboursOfEqualOrderRenumbersTheLevelFirst() {
        var q = QueueV2(priority: [
            PriorityEntry(workStreamID: Q.id(1), priority: 10, priorityOrder: 1, priorityQueuedAt: Q.t1),
            PriorityEntry(workStreamID: Q.id(2), priority: 10, priorityOrder: 1, priorityQueuedAt: Q.t1),
            PriorityEntry(workStreamID: Q.id(3), priority: 10, priorityOrder: 1, priorityQueuedAt: Q.t1),
            PriorityEntry(workStreamID: Q.id(4), priority: 10, priorityOrder: 2, priorityQueuedAt: Q.t1),
        ])
        q.movePriority(Q.id(4), after: Q.id(1), before: Q.id(3))
        #expect(Q.entries(q) == ["1:10/1.0", "2:10/2.0", "4:10/2.0", "3:10/3.0"])
    }

    // Restates testReorderSingleItem, testReorderEmptyQueueIsNoOp and testReorderSessionNotInQueue.
    @Test func dropWithNoNeighbourOrOfAWorkStreamNotQueuedChangesNothing() throws {
        var q = Q.priority([(5, 1)])
        let before = q
        q.movePriority(Q.id(1), after: nil, before: nil)
        q.movePriority(Q.id(2), after: nil, before: Q.id(1))
        q.movePriority(Q.id(2), after: Q.id(1), before: nil)
        #expect(q == before)
    }
}
