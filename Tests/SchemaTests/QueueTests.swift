import Foundation
import Testing

@testable import Schema

@Suite struct FIFOQueueTests {
    static func id(_ n: Int) -> UUID { StoreMigrationTests.id(n) }
    static let t1 = Fixtures.t0, t2 = Fixtures.t0.addingTimeInterval(60)

    @Test func sendingAddsToTheEndAndRequeueMovesToTheEnd() {
        var q = QueueV2.empty
        q.enqueue(Self.id(1), at: Self.t1)
        q.enqueue(Self.id(2), at: Self.t1)
        q.enqueue(Self.id(1), at: Self.t2)
        #expect(q.fifo.map(\.workStreamID) == [Self.id(2), Self.id(1)])
        #expect(q.fifo[1].queuedAt == Self.t2)
        #expect(q.fifoPosition(of: Self.id(1)) == 2)
    }

    @Test func removingClosesTheGap() {
        var q = QueueV2.empty
        for n in 1...4 { q.enqueue(Self.id(n), at: Self.t1) }
        let first = q.removeFromFIFO(Self.id(2))
        let second = q.removeFromFIFO(Self.id(2))
        #expect(first && !second)
        let index = QueueIndex(q)
        let blank = QueueKeys(WorkStreamKeys(id: Self.id(3), backendName: "", workingDirectory: "", lastModified: Self.t1))
        #expect(index.mirror(for: Self.id(3), current: blank).queuePosition == 2)
        #expect(index.mirror(for: Self.id(4), current: blank).queuePosition == 3)
        #expect(index.mirror(for: Self.id(2), current: blank).queuePosition == 0)
    }

    @Test func visibleQueueHidesLockedDeletedAndMissingButKeepsTheirPlaces() {
        var q = QueueV2.empty
        for n in 1...5 { q.enqueue(Self.id(n), at: Self.t1) }
        let context = QueueContext(
            providerSessionIDs: [Self.id(1): "p1", Self.id(2): "p2", Self.id(3): "p3", Self.id(5): "p5"],
            deleted: [Self.id(3)], lockedProviderSessions: ["p2"])
        #expect(q.visibleFIFO(context) == [Self.id(1), Self.id(5)])
        let all = q.fifoVisibility(context)
        #expect(all.map(\.hiddenBecause) == [[], [.locked], [.deleted], [.missing], []])
        #expect(all.last?.position == 5)
    }

    @Test func turningTheQueueOffHidesItButKeepsItsState() {
        var q = QueueV2.empty
        q.enqueue(Self.id(1), at: Self.t1)
        let context = QueueContext(providerSessionIDs: [Self.id(1): "p1"])
        #expect(q.visibleFIFO(context, enabled: false) == [])
        #expect(q.fifo.count == 1)
    }
}

@Suite struct PriorityQueueTests {
    static func id(_ n: Int) -> UUID { StoreMigrationTests.id(n) }
    static let t1 = Fixtures.t0, t2 = Fixtures.t0.addingTimeInterval(60)

    func entries(_ q: QueueV2) -> [String] {
        q.priority.map { "\($0.workStreamID.uuidString.suffix(1)):\($0.priority)/\(JSONNumber($0.priorityOrder).literal)" }
    }

    @Test func addingPutsAtTheEndOfItsLevelAndReaddingMovesToTheEnd() {
        var q = QueueV2.empty
        q.addToPriority(Self.id(1), priority: 5, at: Self.t1)
        q.addToPriority(Self.id(2), priority: 5, at: Self.t1)
        q.addToPriority(Self.id(3), priority: 1, at: Self.t1)
        #expect(entries(q) == ["3:1/1.0", "1:5/1.0", "2:5/2.0"])
        q.addToPriority(Self.id(1), priority: 5, at: Self.t2)
        #expect(entries(q) == ["3:1/1.0", "2:5/2.0", "1:5/3.0"])
        #expect(q.priorityEntry(of: Self.id(1))?.priorityQueuedAt == Self.t1, "set on the first add only")
    }

    @Test func removingResetsTheMirrorKeys() {
        var q = QueueV2.empty
        q.addToPriority(Self.id(1), priority: 1, at: Self.t1)
        let removed = q.removeFromPriority(Self.id(1))
        #expect(removed)
        var keys = QueueKeys(
            WorkStreamKeys(
                id: Self.id(1), backendName: "", workingDirectory: "", lastModified: Self.t1,
                isInPriorityQueue: true, priority: 1, priorityOrder: 1, priorityQueuedAt: Self.t1))
        keys.resetPriority()
        #expect(keys.priority == 10 && keys.priorityOrder == 0 && keys.priorityQueuedAt == nil && !keys.isInPriorityQueue)
        #expect(q.priority.isEmpty)
    }

    @Test func changingPriorityMovesToTheEndOfTheNewLevel() {
        var q = QueueV2.empty
        q.addToPriority(Self.id(1), priority: 1, at: Self.t1)
        q.addToPriority(Self.id(2), priority: 10, at: Self.t1)
        q.addToPriority(Self.id(3), priority: 10, at: Self.t1)
        let changed = q.changePriority(Self.id(1), to: 10)
        #expect(changed)
        #expect(entries(q) == ["2:10/1.0", "3:10/2.0", "1:10/3.0"])
        let unknown = q.changePriority(Self.id(9), to: 1)
        #expect(!unknown)
    }

    @Test func dragBetweenNeighboursOfOneLevelTakesTheMidpoint() throws {
        var q = QueueV2.empty
        for n in 1...3 { q.addToPriority(Self.id(n), priority: 5, at: Self.t1) }
        q.movePriority(Self.id(3), after: Self.id(1), before: Self.id(2))
        #expect(entries(q) == ["1:5/1.0", "3:5/1.5", "2:5/2.0"])
    }

    /// Spec §5 (the app's rule): the lower neighbour's level, at the end of that level. It used
    /// to go just before the lower neighbour (order − 1, "3:10/0.0").
    @Test func dragBetweenLevelsGoesToTheEndOfTheLowerNeighboursLevel() throws {
        var q = QueueV2.empty
        q.addToPriority(Self.id(1), priority: 1, at: Self.t1)
        q.addToPriority(Self.id(2), priority: 10, at: Self.t1)
        q.addToPriority(Self.id(3), priority: 10, at: Self.t1)
        q.movePriority(Self.id(3), after: Self.id(1), before: Self.id(2))
        #expect(entries(q) == ["1:1/1.0", "2:10/1.0", "3:10/2.0"])
    }

    @Test func dragToTheTopOrBottomUsesTheOnlyNeighbour() throws {
        var q = QueueV2.empty
        for n in 1...3 { q.addToPriority(Self.id(n), priority: 5, at: Self.t1) }
        q.movePriority(Self.id(3), after: nil, before: Self.id(1))
        #expect(entries(q) == ["3:5/0.0", "1:5/1.0", "2:5/2.0"])
        q.movePriority(Self.id(3), after: Self.id(2), before: nil)
        #expect(entries(q) == ["1:5/1.0", "2:5/2.0", "3:5/3.0"])
    }

    @Test func exhaustedMidpointsRenumberTheLevel() throws {
        var q = QueueV2.empty
        for n in 1...3 { q.addToPriority(Self.id(n), priority: 5, at: Self.t1) }
        for _ in 0..<80 {
            q.movePriority(Self.id(3), after: Self.id(1), before: Self.id(2))
            q.movePriority(Self.id(2), after: Self.id(1), before: Self.id(3))
        }
        #expect(q.priority.map(\.workStreamID) == [Self.id(1), Self.id(2), Self.id(3)])
        let orders = q.priority.map(\.priorityOrder)
        #expect(orders[0] < orders[1] && orders[1] < orders[2])
    }

    /// Spec §5: a neighbour that is not queued, or that is the moving work stream itself, counts
    /// as absent; neighbours that are not adjacent are accepted. All three used to be refused
    /// ("not in the priority queue", "cannot be its own neighbour", "are not neighbours").
    @Test func dragBesideANeighbourNotQueuedOrItselfTreatsItAsAbsent() {
        var q = QueueV2.empty
        for n in 1...3 { q.addToPriority(Self.id(n), priority: 5, at: Self.t1) }
        q.movePriority(Self.id(3), after: Self.id(9), before: Self.id(1))  // 9 is not queued: only a lower neighbour
        #expect(entries(q) == ["3:5/0.0", "1:5/1.0", "2:5/2.0"])
        q.movePriority(Self.id(2), after: Self.id(2), before: Self.id(3))  // itself: only a lower neighbour
        #expect(entries(q) == ["2:5/-1.0", "3:5/0.0", "1:5/1.0"])
        let before = q
        q.movePriority(Self.id(1), after: Self.id(1), before: Self.id(9))  // no neighbour left: nothing changes
        #expect(q == before)
        q.movePriority(Self.id(1), after: Self.id(2), before: Self.id(1))  // itself below: only an upper neighbour
        #expect(entries(q) == ["2:5/-1.0", "1:5/0.0", "3:5/0.0"], "order −1 + 1; the tie with 3 is broken by id")
    }
}

@Suite struct WorkStreamRulesTests {
    @Test(arguments: [
        ("Fix login crash", true), ("", false), ("   ", false),
        ("4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69", false), ("4F1C2A9E-8B7D-4C3E-9A1F-0D2E3C4B5A69", false),
        ("4f1c2a9e-8b7d-4c3e-9a1f", true),
    ])
    func backendNameIsValidOnlyWhenNonEmptyAndNotAUUID(name: String, valid: Bool) {
        #expect(WorkStreamRules.isValidDisplayName(name) == valid)
    }

    @Test func customNameTakesPrecedenceThenBackendNameThenPlaceholder() {
        let custom = Customisation(id: Fixtures.id, createdAt: Fixtures.t0, customName: "Mine")
        let empty = Customisation(id: Fixtures.id, createdAt: Fixtures.t0, customName: "")
        #expect(WorkStreamRules.displayName(backendName: "Backend", customisation: custom) == "Mine")
        #expect(WorkStreamRules.displayName(backendName: "Backend", customisation: empty) == "Backend")
        #expect(WorkStreamRules.displayName(backendName: "4F1C2A9E-8B7D-4C3E-9A1F-0D2E3C4B5A69", customisation: nil) == WorkStreamRules.placeholderName)
        #expect(WorkStreamRules.displayName(backendName: "", customisation: nil) == "Untitled work stream")
    }

    @Test func effectiveValuesFallBackToIDAndClaude() throws {
        let v1 = WorkStreamDocument.v1(try Fixtures.sessionV1())
        #expect(WorkStreamRules.effectiveProviderSessionID(v1) == Fixtures.id.lowercased)
        #expect(WorkStreamRules.effectiveProvider(v1) == "claude")
        let rolledBack = WorkStreamDocument.v1(try Fixtures.sessionV1("\"provider_session_id\": \"abc\", \"provider\": \"cursor\""))
        #expect(WorkStreamRules.effectiveProviderSessionID(rolledBack) == "abc")
        #expect(WorkStreamRules.effectiveProvider(rolledBack) == "cursor")
    }

    @Test func newWorkStreamIsADualWriteWithEmptyBackendName() throws {
        let upper = UUID(uuidString: "4F1C2A9E-8B7D-4C3E-9A1F-0D2E3C4B5A69")!
        let s = WorkStreamRules.newWorkStream(id: upper, workingDirectory: "/w", createdAt: Fixtures.t0)
        #expect(s.backendName == "")
        #expect(s.providerSessionID == "4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69")
        #expect(s.provider == "claude")
        let v1 = try WorkStreamV1(bytes: s.encoded, acceptingNewerVersions: true)
        #expect(v1.fields.keys == s.fields.keys && v1.fields.messages.isEmpty, "a v1 reader sees every v1 key")
    }
}
