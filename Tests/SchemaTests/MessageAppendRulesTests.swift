import Foundation
import Testing

@testable import Schema

// Spec §5, "Receiving a reply", as the shipped app's SessionSyncManager does it: message_count
// after an append, and when a reply adds the work stream to the priority queue. Pure: no disk.

private enum L {
    static func id(_ n: Int) -> UUID { StoreMigrationTests.id(n) }
    static let t1 = Fixtures.t0, t2 = Fixtures.t0.addingTimeInterval(60)

    static func message(_ role: String, at date: Date, in session: UUID = UUID()) -> Message {
        Message(id: UUID(), sessionID: session, role: role, text: role, timestamp: date)
    }
}

@Suite struct MessageAppendAppRulesTests {
    // Spec §5: message_count becomes the number of messages held after the append, as the app
    // sets it after each sync (SessionSyncManager: messageCount = the rows it holds). It used to
    // stay at 0.
    @Test func appendingSetsTheCountToTheMessagesHeld() {
        let id = L.id(1)
        var messages = [L.message("user", at: L.t1, in: id)]
        var lastModified = L.t1, count: Int32 = 0
        MessageAppend.append(
            [L.message("user", at: L.t2), L.message("assistant", at: L.t1)], to: id,
            messages: &messages, lastModified: &lastModified, messageCount: &count)
        #expect(count == 3 && messages.count == 3)
        #expect(messages.allSatisfy { $0.sessionID == id }, "containment: the work stream's id")
        #expect(lastModified == L.t2, "the newest message's time")
    }

    // The app counts after its own prune (CDMessage.pruneOldMessages, then messageCount -= deleted).
    @Test func theCountIsTakenAfterThePrune() {
        var messages: [Message] = [], lastModified = L.t1, count: Int32 = 99
        MessageAppend.append(
            (0..<7).map { L.message("user", at: L.t1.addingTimeInterval(Double($0))) }, to: L.id(1),
            messages: &messages, lastModified: &lastModified, messageCount: &count,
            keep: { $0.removeFirst($0.count - 5) })
        #expect(count == 5 && messages.count == 5)
    }

    // Restates testAutoAddRequiresPriorityQueueEnabled and testAutoAddWhenEnabled: only an
    // assistant reply, and only while priority_queue_enabled is true, adds to the priority queue.
    @Test func onlyAnAssistantReplyWithThePriorityQueueOnAddsToIt() {
        let reply = [L.message("user", at: L.t1), L.message("assistant", at: L.t1)]
        #expect(MessageAppend.addsToPriorityQueue(reply, priorityQueueEnabled: true))
        #expect(!MessageAppend.addsToPriorityQueue(reply, priorityQueueEnabled: false))
        #expect(!MessageAppend.addsToPriorityQueue([L.message("user", at: L.t1)], priorityQueueEnabled: true))
        #expect(!MessageAppend.addsToPriorityQueue([], priorityQueueEnabled: true))
    }
}
