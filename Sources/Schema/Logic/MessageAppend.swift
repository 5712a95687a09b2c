import Foundation

/// What appending messages to a work stream does (spec §5, "Receiving a reply"), as the shipped
/// app does after each sync (`SessionSyncManager`): the messages join the work stream,
/// `message_count` becomes the number of messages it then holds, and an assistant reply adds it
/// to the priority queue while `priority_queue_enabled` is true.
public enum MessageAppend {
    /// The role of a reply from the agent (`Message.role`).
    public static let assistantRole = "assistant"

    /// Appends `new` to a work stream's messages: each gets the work stream's id as `session_id`
    /// (containment, spec §6 rule 4), `last_modified` moves forward to the newest message if it
    /// is later, `keep` prunes (a store's `MessageRetention`; nothing by default), and then
    /// `message_count` is the number of messages held, as the app counts them after its own prune.
    ///
    /// ```swift
    /// MessageAppend.append([reply], to: id, messages: &fields.messages,
    ///                      lastModified: &fields.keys.lastModified, messageCount: &fields.keys.messageCount)
    /// ```
    public static func append(
        _ new: [Message], to id: UUID, messages: inout [Message], lastModified: inout Date,
        messageCount: inout Int32, keep: (inout [Message]) -> Void = { _ in }
    ) {
        for var message in new {
            message.sessionID = id
            messages.append(message)
            if message.timestamp > lastModified { lastModified = message.timestamp }
        }
        keep(&messages)
        messageCount = Int32(clamping: messages.count)
    }

    /// True when appending `new` adds the work stream to the priority queue (spec §5): it holds
    /// an assistant reply (role `"assistant"`) and the user turned the priority queue on. The add
    /// is the add rule with no level given (`QueueV2.addToPriority`): a queued work stream keeps
    /// its level and goes to the end of it, one not queued goes to its stored `priority`.
    public static func addsToPriorityQueue(_ new: [Message], priorityQueueEnabled: Bool) -> Bool {
        priorityQueueEnabled && new.contains { $0.role == assistantRole }
    }
}
