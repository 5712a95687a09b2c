import Foundation
import StoreJSON
import Testing

@testable import JSONStore

/// Spec §5, "Receiving a reply", through `Store` on a copy of `Samples/v4-store`
/// (priority_queue_enabled is true there): `message_count` after an append, and a reply added to
/// the priority queue. The pure rules are in SchemaTests' MessageAppendRulesTests.
@Suite struct StoreQueueLibraryTests {
    typealias Sample = StoreQueueRulesTests.Sample

    static func priorityList(_ store: Store) throws -> [String] {
        try store.queue().priority.map { "\(Sample.names[$0.workStreamID] ?? "?"):\($0.priority)/\(JSONNumber($0.priorityOrder).literal)" }
    }

    static func expectMirrorAgrees(_ store: Store, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let summaries = try store.listWorkStreams().items.map(\.queueSummary)
        #expect(RollbackCheck.checkMirror(sessions: summaries, queue: try store.queue()) == nil, sourceLocation: sourceLocation)
    }

    static func reply(_ id: UUID, _ role: String = "assistant", at date: Date = StoreFixtures.t0) -> Message {
        Message(id: UUID(), sessionID: id, role: role, text: "The token is read before it is set.", timestamp: date)
    }

    // message_count is the number of messages held after the append (the app's sync). g holds
    // 2 messages and a count of 2; b holds 3 with a backend count of 7. It used to be left as it was.
    @Test func appendingSetsMessageCountToTheMessagesHeld() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        #expect(try store.appendMessages(Sample.g, [Self.reply(Sample.g, "user"), Self.reply(Sample.g, "user")]).fields.messageCount == 4)
        #expect(try store.appendMessages(Sample.b, [Self.reply(Sample.b, "user")]).fields.messageCount == 4)
        #expect(try store.workStream(Sample.b).fields.messageCount == 4, "written")
        let created = try store.createWorkStream(workingDirectory: "/w")
        #expect(try store.appendMessages(created.id, []).fields.messageCount == 0)
    }

    // With the app's retention (keep 50 once above 60), the count is taken after the prune.
    @Test func theCountIsTakenAfterTheRetentionPrune() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"), options: Store.Options(messageRetention: .app))
        let many = (0..<58).map { _ in Self.reply(Sample.g, "user") }
        #expect(try store.appendMessages(Sample.g, many).fields.messageCount == 60, "2 + 58, not above 60: all kept")
        let session = try store.appendMessages(Sample.g, [Self.reply(Sample.g, "user")])
        #expect(session.fields.messages.count == 50 && session.fields.messageCount == 50)
    }

    // An assistant reply adds the work stream to the priority queue while priority_queue_enabled
    // is true, as the app's SessionSyncManager does (restates testAutoAddWhenEnabled and
    // testSessionUpdatedAutoAddPreservesQueuedAt): g, not queued, goes to its stored level 10 at
    // the end; c, queued at P1, moves to the end of P1 and keeps its priority_queued_at.
    @Test func anAssistantReplyAddsToThePriorityQueue() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        let before = Date()
        let g = try store.appendMessages(Sample.g, [Self.reply(Sample.g)])
        #expect(try Self.priorityList(store) == ["c:1/1.0", "d:1/2.0", "e:10/1.5", "f:10/2.0", "g:10/3.0"])
        #expect(g.fields.isInPriorityQueue && g.fields.priority == 10 && g.fields.priorityOrder == 3, "the document written has its mirror")
        let queuedAt = try #require(g.fields.priorityQueuedAt)
        #expect(queuedAt >= before.addingTimeInterval(-0.001) && queuedAt <= Date(), "now, on a first add")
        let cQueuedAt = try store.workStream(Sample.c).fields.priorityQueuedAt
        try store.appendMessages(Sample.c, [Self.reply(Sample.c, "user"), Self.reply(Sample.c)])
        #expect(try Self.priorityList(store) == ["d:1/2.0", "c:1/3.0", "e:10/1.5", "f:10/2.0", "g:10/3.0"])
        #expect(try store.workStream(Sample.c).fields.priorityQueuedAt == cQueuedAt)
        #expect(try store.workStream(Sample.c).messages?.count == 6)
        try Self.expectMirrorAgrees(store)
    }

    // Restates testAutoAddRequiresPriorityQueueEnabled: with the switch off, or for a user message,
    // the queue is not touched (queue.json keeps its bytes).
    @Test func noReplyOrTheSwitchOffLeavesTheQueue() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v4-store", as: "store")
        let store = try Store.open(at: path)
        let queue = contents(path + "/queue.json")
        try store.appendMessages(Sample.g, [Self.reply(Sample.g, "user")])
        try store.updateSettings { $0.priorityQueueEnabled = false }
        try store.appendMessages(Sample.g, [Self.reply(Sample.g)])
        #expect(contents(path + "/queue.json") == queue)
        #expect(try !store.workStream(Sample.g).fields.isInPriorityQueue)
    }

    // The same rule on a v5 store (spec §12: the queue lives in queue.json only).
    @Test func anAssistantReplyAddsToThePriorityQueueOfAV5Store() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try V5Store.make(folder))
        try store.updateSettings { $0.priorityQueueEnabled = true }
        let session = try store.appendMessagesToRenamedWorkStream(V5Store.released, [Self.reply(V5Store.released)])
        #expect(session.messageCount == Int32(session.messages.count))
        #expect(try store.queue().priority.last?.workStreamID == V5Store.released)
        #expect(try store.queue().priority.last?.priority == 10)
    }
}
