import Foundation
import StoreJSON
import Testing

@testable import JSONStore

/// Spec §5 through `Store`, on a copy of `Samples/v2-store`: what each queue call writes to
/// `queue.json` and to the mirror keys, and that a call which changes no value writes nothing.
/// The rules themselves, restated from the shipped app's tests, are in `QueueAppRulesTests`.
@Suite struct StoreQueueRulesTests {
    /// The sample's work streams. FIFO: a, b, c. Priority: c P1/1, d P1/2, e P10/1.5, f P10/2.
    /// e is not in the FIFO queue but keeps a `queued_at` from v1; g is in no queue.
    enum Sample {
        static let a = UUID(uuidString: "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b")!
        static let b = UUID(uuidString: "555a622d-4eba-4eda-8989-fc9e679fc303")!
        static let c = UUID(uuidString: "ec3629cb-f446-449f-b8a0-f43e156345d8")!
        static let d = UUID(uuidString: "683f9ade-0200-46b6-be6c-47f29ee5bdeb")!
        static let e = UUID(uuidString: "ad63adfa-7ad7-45dc-882c-80791120b6cc")!
        static let f = UUID(uuidString: "1caaa999-8519-45f8-b97b-72e5454d2aee")!
        static let g = UUID(uuidString: "c25e47cd-f10a-49a3-9ec4-a9355366da75")!
        static let names = [a: "a", b: "b", c: "c", d: "d", e: "e", f: "f", g: "g"]
    }

    /// The priority queue as "name:level/order".
    private static func priorityList(_ store: Store) throws -> [String] {
        try store.queue().priority.map { "\(Sample.names[$0.workStreamID] ?? "?"):\($0.priority)/\(JSONNumber($0.priorityOrder).literal)" }
    }

    private static func expectMirrorAgrees(_ store: Store, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let summaries = try store.listWorkStreams().items.map(\.queueSummary)
        #expect(RollbackCheck.checkMirror(sessions: summaries, queue: try store.queue()) == nil, sourceLocation: sourceLocation)
    }

    /// Sets the modification time of every entry under `root` (the root too, dot names too) to
    /// 2001: any later write then shows in a snapshot, however coarse the file system's clock.
    private static func ageEverything(_ root: String) throws {
        let past: [FileAttributeKey: Any] = [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)]
        let entries = try FileManager.default.subpathsOfDirectory(atPath: root).map { root + "/" + $0 }
        for path in entries.sorted(by: { $0.count > $1.count }) + [root] {
            try FileManager.default.setAttributes(past, ofItemAtPath: path)
        }
    }

    // Spec §5, FIFO removal (the app's testRemoveFromMiddleCompactsPositions).
    @Test func removingFromTheFIFOQueueNullsQueuedAtInTheMirror() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        try store.removeFromQueue(Sample.b)
        let removed = try store.workStream(Sample.b).fields
        #expect(!removed.isInQueue && removed.queuePosition == 0 && removed.queuedAt == nil)
        #expect(try store.queue().fifo.map(\.workStreamID) == [Sample.a, Sample.c])
        #expect(try store.workStream(Sample.c).fields.queuePosition == 2)
        try Self.expectMirrorAgrees(store)
    }

    // Spec §5, adding without a level (the app's testAutoAddMovesSessionToEndWhenOthersExist):
    // a queued P1 work stream stays P1. It used to go to P10 with the default argument.
    @Test func readdingWithoutALevelKeepsTheLevelAndMovesToTheEnd() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        try store.addToPriorityQueue(Sample.c, at: StoreFixtures.t0)
        #expect(try Self.priorityList(store) == ["d:1/2.0", "c:1/3.0", "e:10/1.5", "f:10/2.0"])
        let fields = try store.workStream(Sample.c).fields
        #expect(fields.priority == 1 && fields.priorityOrder == 3)
        #expect(fields.priorityQueuedAt == RFC3339.parse("2025-11-05T10:16:02.500Z"), "kept: set on the first add only")
        try Self.expectMirrorAgrees(store)
    }

    // Spec §5, adding without a level (the app's testFetchMaxPriorityOrder, where a session whose
    // `priority` is 5 is added at level 5): a work stream not queued gets its stored `priority`.
    @Test func addingWithoutALevelUsesTheDocumentsStoredPriority() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v4-store", as: "store")
        let file = path + "/sessions/\(Sample.g.lowercased).json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\"priority\": 10,"))
        try text.replacingOccurrences(of: "\"priority\": 10,", with: "\"priority\": 5,").write(toFile: file, atomically: true, encoding: .utf8)
        let store = try Store.open(at: path)
        try store.addToPriorityQueue(Sample.g, at: StoreFixtures.t0)
        #expect(try Self.priorityList(store) == ["c:1/1.0", "d:1/2.0", "g:5/1.0", "e:10/1.5", "f:10/2.0"])
        #expect(try store.workStream(Sample.g).fields.priorityQueuedAt == StoreFixtures.t0)
        try Self.expectMirrorAgrees(store)
    }

    // Spec §5, drag between levels (the app's testReorderBetweenDifferentPriorities): c (P1)
    // dropped between d (P1) and e (P10) goes to P10, after f, the end of that level.
    @Test func dropBetweenLevelsGoesToTheEndOfTheLowerNeighboursLevel() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        try store.movePriority(Sample.c, after: Sample.d, before: Sample.e)
        #expect(try Self.priorityList(store) == ["d:1/2.0", "e:10/1.5", "f:10/2.0", "c:10/3.0"])
        let fields = try store.workStream(Sample.c).fields
        #expect(fields.priority == 10 && fields.priorityOrder == 3)
        try Self.expectMirrorAgrees(store)
    }

    // Spec §5: a drag between the neighbours the user saw, with a user-deleted entry between them.
    // The priority queue shows c, g, e, f (d, deleted, is hidden between c and g); e is dropped
    // between c and g: their midpoint. It used to be refused with "not neighbours" (`.conflict`).
    @Test func dropBetweenVisibleNeighboursAcrossAHiddenEntry() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        try store.addToPriorityQueue(Sample.g, priority: 1, at: StoreFixtures.t0)
        let shown = try store.visibleQueue().priority.filter(\.isVisible).map(\.workStreamID)
        #expect(shown == [Sample.c, Sample.g, Sample.e, Sample.f])
        try store.movePriority(Sample.e, after: Sample.c, before: Sample.g)
        #expect(try Self.priorityList(store) == ["c:1/1.0", "d:1/2.0", "e:1/2.0", "g:1/3.0", "f:10/2.0"])
        #expect(try store.visibleQueue().priority.filter(\.isVisible).map(\.workStreamID) == [Sample.c, Sample.e, Sample.g, Sample.f])
        let fields = try store.workStream(Sample.e).fields
        #expect(fields.priority == 1 && fields.priorityOrder == 2)
        try Self.expectMirrorAgrees(store)
    }

    /// Every §5 call that changes no value writes nothing: no file's bytes or modification time
    /// change, not even the lock file's holder record. A real change afterwards does show.
    @Test func queueCallsThatChangeNoValueWriteNothing() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v4-store", as: "store")
        let store = try Store.open(at: path)
        try Self.ageEverything(path)
        let before = snapshot(path, includingRoot: true)
        #expect(before[".lock"] != nil, "opening for writing made the lock file: a lock would rewrite it")

        try store.removeFromQueue(Sample.e)  // not queued (testRemoveNonQueuedSessionHasNoEffect)
        try store.removeFromPriorityQueue(Sample.g)  // not queued (testRemoveFromPriorityQueueWhenNotInQueue)
        try store.addToPriorityQueue(Sample.d)  // already last of P1 (testAddToPriorityQueueIdempotent)
        try store.changePriority(Sample.d, to: 1)  // same level (testChangePriorityIdempotent)
        try store.changePriority(Sample.g, to: 5)  // not queued (testChangePriorityNotInQueue)
        try store.movePriority(Sample.d, after: nil, before: nil)  // no neighbour (testReorderSingleItem)
        try store.movePriority(Sample.g, after: Sample.c, before: Sample.d)  // not queued (testReorderSessionNotInQueue)

        #expect(snapshot(path, includingRoot: true) == before)
        #expect(try store.workStream(Sample.e).fields.queuedAt != nil, "a removal of one not queued nulls nothing")

        try store.changePriority(Sample.d, to: 5)
        #expect(snapshot(path, includingRoot: true) != before)
    }

    /// Spec §5: a neighbour that is not queued counts as absent. A drop beside one used to be
    /// refused (`.conflict`); with no other neighbour it now changes nothing and writes nothing.
    @Test func dropBesideAWorkStreamNotQueuedCountsItAsAbsent() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v4-store", as: "store")
        let store = try Store.open(at: path)
        let before = tree(path)
        try store.movePriority(Sample.c, after: Sample.g, before: nil)
        #expect(tree(path) == before)
        try store.movePriority(Sample.c, after: Sample.g, before: Sample.f)  // only f counts: just before it
        #expect(try Self.priorityList(store) == ["d:1/2.0", "c:10/1.0", "e:10/1.5", "f:10/2.0"])
        try Self.expectMirrorAgrees(store)
    }
}
