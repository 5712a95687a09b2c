import Foundation

/// A work stream's v1 keys (``WorkStreamKeys``) with the messages of one schema version:
/// ``WorkStreamFieldsV1`` (v1 and v2: ``MessageV1``) and ``WorkStreamFieldsV3`` (v3 and v4:
/// ``MessageV3``). Later versions only add keys, so every v1 key keeps its name, type and meaning.
/// Each key reads and writes as a property of its own (`fields.priority`). Frozen.
@dynamicMemberLookup
public struct WorkStreamFields<Message: Sendable & Hashable>: Sendable, Hashable {
    /// Every key but `messages`.
    public var keys: WorkStreamKeys
    /// The locally kept tail of the conversation. The default is empty.
    public var messages: [Message]

    public init(_ keys: WorkStreamKeys, messages: [Message] = []) {
        self.keys = keys; self.messages = messages
    }

    @inlinable public subscript<T>(dynamicMember key: WritableKeyPath<WorkStreamKeys, T>) -> T {
        get { keys[keyPath: key] }
        set { keys[keyPath: key] = newValue }
    }
}

/// The v1 keys with v1 messages: `WorkStreamV1` and `WorkStreamV2`.
public typealias WorkStreamFieldsV1 = WorkStreamFields<MessageV1>

extension WorkStreamFields where Message: WorkStreamMessage {
    /// Reads the v1 keys from `r`, applying the defaults of the spec's table for absent keys,
    /// and each message as `Message` reads it.
    ///
    /// `queue_position` accepts any int32: the table says ≥ 0, but negative values exist in the
    /// wild; §6 orders them as the app does (ascending, before 1) and migration renumbers them.
    init(reading r: inout ObjectReader) throws(SchemaError) {
        let id = try r.uuid("id")
        let backendName = try r.string("backend_name")
        let workingDirectory = try r.string("working_directory")
        let isLocallyCreated = try r.bool("is_locally_created", default: false)
        let lastModified = try r.date("last_modified")
        let messageCount = try r.int32("message_count", nonNegative: true, default: 0)
        let preview = try r.string("preview", default: "")
        let unreadCount = try r.int32("unread_count", nonNegative: true, default: 0)
        let isInQueue = try r.bool("is_in_queue", default: false)
        let queuePosition = try r.int32("queue_position", nonNegative: false, default: 0)
        let queuedAt = try r.optionalDate("queued_at")
        let isInPriorityQueue = try r.bool("is_in_priority_queue", default: false)
        let priority = try r.int32("priority", nonNegative: false, default: 10)
        let priorityOrder = try r.double("priority_order", default: 0)
        let priorityQueuedAt = try r.optionalDate("priority_queued_at")
        keys = WorkStreamKeys(
            id: id, backendName: backendName, workingDirectory: workingDirectory, lastModified: lastModified,
            isLocallyCreated: isLocallyCreated, messageCount: messageCount, preview: preview,
            unreadCount: unreadCount, isInQueue: isInQueue, queuePosition: queuePosition, queuedAt: queuedAt,
            isInPriorityQueue: isInPriorityQueue, priority: priority, priorityOrder: priorityOrder,
            priorityQueuedAt: priorityQueuedAt)
        let items = try r.array("messages") ?? []
        var messages: [Message] = []
        messages.reserveCapacity(items.count)
        let messagesPath = r.keyPath("messages")
        for (index, item) in items.enumerated() {
            messages.append(try Message(json: item, path: messagesPath, index: index))
        }
        self.messages = messages
    }

    /// Writes every v1 key explicitly (optional values as `null`).
    func write(into w: inout ObjectWriter) {
        w.set("id", keys.id)
        w.set("backend_name", keys.backendName)
        w.set("working_directory", keys.workingDirectory)
        w.set("is_locally_created", keys.isLocallyCreated)
        w.set("last_modified", keys.lastModified)
        w.set("message_count", keys.messageCount)
        w.set("preview", keys.preview)
        w.set("unread_count", keys.unreadCount)
        w.set("is_in_queue", keys.isInQueue)
        w.set("queue_position", keys.queuePosition)
        w.set("queued_at", keys.queuedAt)
        w.set("is_in_priority_queue", keys.isInPriorityQueue)
        w.set("priority", keys.priority)
        w.set("priority_order", keys.priorityOrder)
        w.set("priority_queued_at", keys.priorityQueuedAt)
        w.set("messages", .array(messages.map(\.json)))
    }
}
