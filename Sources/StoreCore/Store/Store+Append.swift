import Foundation

/// Appending messages, as the shipped app records a sync (spec §5, `MessageAppend`): the messages
/// join the work stream, `message_count` becomes the number it then holds (after the store's
/// `MessageRetention`, if any), and an assistant reply adds the work stream to the priority queue
/// while `settings.json`'s `priority_queue_enabled` is true, in the same hold of the lock.
///
/// ```swift
/// try store.appendMessages(id, [Message(id: UUID(), sessionID: id, role: "assistant",
///                                       text: "Fixed.", timestamp: Date())])
/// ```
extension Store {
    /// Appends messages to a work stream. Their `session_id` is set to the work stream (containment,
    /// spec §6 rule 4), `last_modified` moves forward to the newest message if it is later, and
    /// `message_count` becomes the number of messages the document then holds.
    ///
    /// When one of them is an assistant reply (role `"assistant"`) and `priority_queue_enabled` is
    /// true, the work stream is added to the priority queue as `addToPriorityQueue(id)` adds it
    /// (a queued one keeps its level and goes to the end of it; one not queued goes to its stored
    /// `priority`, 10 by default; `priority_queued_at` is now on a first add), under the same lock:
    /// `queue.json` is written first, then the document with its messages and its mirror keys.
    ///
    /// - Returns: The work stream as written.
    /// - Throws: `.notFound` without such a work stream; `.unsupportedVersion` on a v5 store (use
    ///   `appendMessagesToRenamedWorkStream`); a document or system-call error.
    @discardableResult
    public func appendMessages(_ id: UUID, _ messages: [Message]) throws(StoreError) -> WorkStream {
        try requireV3Layout("append messages to work stream '\(id.lowercased)'", use: "appendMessagesToRenamedWorkStream(_:_:)")
        let append = { (session: inout WorkStreamV3) throws(StoreError) -> Void in
            MessageAppend.append(
                messages, to: id, messages: &session.fields.messages, lastModified: &session.fields.keys.lastModified,
                messageCount: &session.fields.keys.messageCount, keep: self.retain)
        }
        // Without a reply to queue (the common case) this is one document's write, in a group commit.
        guard try queuesReply(messages) else { return try updateWorkStream(id, append) }
        return try writing { () throws(StoreError) in
            guard try queuesReply(messages) else { return try updateHoldingLock(id, after: nil, append) }
            let now = Date()
            return try updateHoldingLock(
                id, after: nil,
                mirror: { (session) throws(StoreError) -> QueueKeys in
                    let queue = try self.mutateQueueHoldingLock(skippingMirrorOf: id) { q in
                        q.addToPriority(id, storedPriority: session.fields.priority, at: now)
                    }
                    return QueueIndex(queue).mirror(for: id, current: session.fields.queueKeys)
                }, append)
        }
    }

    /// `appendMessages` for a store at v5 (spec §12): the same rules, with no mirror keys; the
    /// document is written first, then `queue.json` (the queue lives there only).
    ///
    /// - Throws: `.notFound` without such a work stream; `.unsupportedVersion` on a store below v5
    ///   (use `appendMessages`); a document or system-call error.
    @discardableResult
    public func appendMessagesToRenamedWorkStream(_ id: UUID, _ messages: [Message]) throws(StoreError) -> RenamedWorkStream {
        try requireRenamedLayout("append messages to work stream '\(id.lowercased)'", use: "appendMessages(_:_:)")
        return try writing { () throws(StoreError) in
            let session = try updateV4HoldingLock(id) { (session) throws(StoreError) in
                MessageAppend.append(
                    messages, to: id, messages: &session.messages, lastModified: &session.lastModified,
                    messageCount: &session.messageCount, keep: self.retain)
            }
            if try queuesReply(messages) {
                let now = Date()
                try mutateQueueHoldingLock { q in q.addToPriority(id, at: now) }
            }
            return session
        }
    }

    /// The store's `MessageRetention` as `MessageAppend`'s prune (nothing without one).
    private func retain(_ messages: inout [Message]) {
        options.messageRetention?.prune(&messages)
    }

    /// Whether an append of `messages` adds to the priority queue, by `settings.json` as read now:
    /// asked before the lock to choose the path (a reply with the priority queue off is written
    /// as any update is), and again under it, where the answer counts. Settings are read only for
    /// an assistant reply.
    private func queuesReply(_ messages: [Message]) throws(StoreError) -> Bool {
        guard MessageAppend.addsToPriorityQueue(messages, priorityQueueEnabled: true) else { return false }
        return MessageAppend.addsToPriorityQueue(messages, priorityQueueEnabled: try settings().priorityQueueEnabled)
    }
}
