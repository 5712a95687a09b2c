import Foundation
import StoreJSON
import TestSupport
import Testing

@testable import JSONStore

/// `Store.Options.messageRetention`: the newest N messages kept on write. The prune leaves
/// `message_count` as it is; an append sets it to the messages held after the prune (spec §5).
@Suite struct MessageRetentionTests {
    static let t0 = RFC3339.parse("2025-11-20T10:00:00.000Z")!

    /// Message number `n` of work stream `stream`: id `…-<n>`, `n` seconds after t0.
    static func message(_ n: Int, of stream: UUID) -> Message {
        Message(
            id: UUID(uuidString: String(format: "20000000-0000-4000-8000-%012d", n))!, sessionID: stream, role: "user",
            text: "message \(n)", timestamp: t0.addingTimeInterval(Double(n)))
    }

    static func ids(_ numbers: ClosedRange<Int>) -> [UUID] {
        numbers.map { UUID(uuidString: String(format: "20000000-0000-4000-8000-%012d", $0))! }
    }

    /// `message_count` is the number held after each append, as the app counts after its prune; it
    /// used to stay at the backend's count (1234 here) through every append.
    @Test func appPresetPrunesToTheNewestFiftyOnceThereAreMoreThanSixtyAndCountsWhatIsHeld() throws {
        let folder = TemporaryDirectory()
        _ = try Store.create(at: folder("store"))
        let store = try Store.open(at: folder("store"), options: Store.Options(messageRetention: .app))
        let id = try store.createWorkStream(workingDirectory: "/w").id
        try store.updateWorkStream(id) { $0.fields.messageCount = 1234 }
        for n in 1...60 { try store.appendMessages(id, [Self.message(n, of: id)]) }
        #expect(try store.workStream(id).messages?.map(\.id) == Self.ids(1...60), "60 is not more than 60: nothing pruned")

        let pruned = try store.appendMessages(id, [Self.message(61, of: id)])
        #expect(pruned.fields.messages.map(\.id) == Self.ids(12...61))
        #expect(try store.workStream(id).messages?.map(\.id) == Self.ids(12...61))
        #expect(try store.workStream(id).fields.messageCount == 50)

        for n in 62...70 { try store.appendMessages(id, [Self.message(n, of: id)]) }
        #expect(try store.workStream(id).messages?.map(\.id) == Self.ids(12...70), "59 messages: below the threshold again")
        try store.appendMessages(id, [Self.message(71, of: id), Self.message(72, of: id)])
        #expect(try store.workStream(id).messages?.map(\.id) == Self.ids(23...72))
        #expect(try store.summary(id).messageCount == 50)
        #expect(try store.summary(id).storedMessages == 50)
    }

    @Test func retentionKeepsExactlyTheNewestNOnEveryWriteWhenTheThresholdIsN() async throws {
        let folder = TemporaryDirectory()
        let store = try await AsyncStore.create(at: folder("store"), options: Store.Options(messageRetention: MessageRetention(keep: 3, whenMoreThan: 3)))
        let id = try await store.createWorkStream(workingDirectory: "/w").id
        try await store.appendMessages(id, (1...10).map { Self.message($0, of: id) })
        #expect(try await store.workStream(id).messages?.map(\.id) == Self.ids(8...10))
        try await store.appendMessages(id, [Self.message(11, of: id)])
        #expect(try await store.workStream(id).messages?.map(\.id) == Self.ids(9...11))
        #expect(try await store.workStream(id).fields.messageCount == 3, "the messages held after the append")
    }

    @Test func aWriteOfAnotherKeyPrunesMessagesAnotherWriterLeft() throws {
        let folder = TemporaryDirectory()
        let plain = try Store.create(at: folder("store"))
        let id = try plain.createWorkStream(workingDirectory: "/w").id
        try plain.appendMessages(id, (1...70).map { Self.message($0, of: id) })
        #expect(try plain.workStream(id).messages?.count == 70, "retention is off by default")

        let pruning = try Store.open(at: folder("store"), options: Store.Options(messageRetention: .app))
        #expect(try pruning.workStream(id).messages?.count == 70, "reading never prunes")
        try pruning.updateWorkStream(id) { $0.fields.unreadCount = 2 }
        #expect(try plain.workStream(id).messages?.map(\.id) == Self.ids(21...70))
        #expect(try plain.workStream(id).fields.messageCount == 70, "an update's prune leaves message_count; the append set it")
    }

    @Test func pruneIsAPureRuleOverTheArray() {
        var messages = (1...5).map { Self.message($0, of: UUID()) }
        #expect(MessageRetention(keep: 2, whenMoreThan: 4).prune(&messages) == 3)
        #expect(messages.map(\.text) == ["message 4", "message 5"])
        #expect(MessageRetention(keep: 2, whenMoreThan: 4).prune(&messages) == 0)
    }
}
