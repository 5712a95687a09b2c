import Foundation

/// The keys of a work-stream document in schema v1 (spec §3), with the messages of one schema
/// version: ``WorkStreamFieldsV1`` (v1 and v2: ``MessageV1``) and ``WorkStreamFieldsV3`` (v3 and
/// v4: ``MessageV3``). Later versions only add keys, so every v1 key keeps its name, type and
/// meaning. Frozen.
public struct WorkStreamFields<Message: Sendable & Hashable>: Sendable, Hashable {
    /// The work-stream id; equals the file name without `.json`.
    public var id: UUID
    /// A display name, or a UUID string, or `""` (a known inconsistency of v1): see `WorkStreamRules`.
    public var backendName: String
    public var workingDirectory: String
    /// Created on this device, not yet known to the backend. The default is `false`.
    public var isLocallyCreated: Bool
    public var lastModified: Date
    /// As reported by the backend, not the length of `messages`. The default is 0.
    public var messageCount: Int32
    /// The default is `""`.
    public var preview: String
    /// The default is 0.
    public var unreadCount: Int32
    /// FIFO queue membership. The default is `false`.
    public var isInQueue: Bool
    /// 1-based FIFO position; 0 = not in the queue. The default is 0.
    public var queuePosition: Int32
    /// The default is nil.
    public var queuedAt: Date?
    /// The default is `false`.
    public var isInPriorityQueue: Bool
    /// Lower is more urgent; the app shows 1, 5, 10. The default is 10.
    public var priority: Int32
    /// Order inside one priority level. The default is 0.
    public var priorityOrder: Double
    /// The default is nil.
    public var priorityQueuedAt: Date?
    /// The locally kept tail of the conversation. The default is empty.
    public var messages: [Message]

    public init(
        id: UUID, backendName: String, workingDirectory: String, lastModified: Date,
        isLocallyCreated: Bool = false, messageCount: Int32 = 0, preview: String = "",
        unreadCount: Int32 = 0, isInQueue: Bool = false, queuePosition: Int32 = 0,
        queuedAt: Date? = nil, isInPriorityQueue: Bool = false, priority: Int32 = 10,
        priorityOrder: Double = 0, priorityQueuedAt: Date? = nil, messages: [Message] = []
    ) {
        self.id = id; self.backendName = backendName; self.workingDirectory = workingDirectory
        self.lastModified = lastModified; self.isLocallyCreated = isLocallyCreated
        self.messageCount = messageCount; self.preview = preview; self.unreadCount = unreadCount
        self.isInQueue = isInQueue; self.queuePosition = queuePosition; self.queuedAt = queuedAt
        self.isInPriorityQueue = isInPriorityQueue; self.priority = priority
        self.priorityOrder = priorityOrder; self.priorityQueuedAt = priorityQueuedAt; self.messages = messages
    }

    /// The keys of `keys`, with `messages`.
    public init(_ keys: WorkStreamKeys, messages: [Message]) {
        self.init(
            id: keys.id, backendName: keys.backendName, workingDirectory: keys.workingDirectory,
            lastModified: keys.lastModified, isLocallyCreated: keys.isLocallyCreated, messageCount: keys.messageCount,
            preview: keys.preview, unreadCount: keys.unreadCount, isInQueue: keys.isInQueue,
            queuePosition: keys.queuePosition, queuedAt: keys.queuedAt, isInPriorityQueue: keys.isInPriorityQueue,
            priority: keys.priority, priorityOrder: keys.priorityOrder, priorityQueuedAt: keys.priorityQueuedAt,
            messages: messages)
    }

    /// Every key but `messages`, read and written together.
    public var keys: WorkStreamKeys {
        get {
            WorkStreamKeys(
                id: id, backendName: backendName, workingDirectory: workingDirectory, lastModified: lastModified,
                isLocallyCreated: isLocallyCreated, messageCount: messageCount, preview: preview,
                unreadCount: unreadCount, isInQueue: isInQueue, queuePosition: queuePosition, queuedAt: queuedAt,
                isInPriorityQueue: isInPriorityQueue, priority: priority, priorityOrder: priorityOrder,
                priorityQueuedAt: priorityQueuedAt)
        }
        set { self = WorkStreamFields(newValue, messages: messages) }
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
        id = try r.uuid("id")
        backendName = try r.string("backend_name")
        workingDirectory = try r.string("working_directory")
        isLocallyCreated = try r.bool("is_locally_created", default: false)
        lastModified = try r.date("last_modified")
        messageCount = try r.int32("message_count", nonNegative: true, default: 0)
        preview = try r.string("preview", default: "")
        unreadCount = try r.int32("unread_count", nonNegative: true, default: 0)
        isInQueue = try r.bool("is_in_queue", default: false)
        queuePosition = try r.int32("queue_position", nonNegative: false, default: 0)
        queuedAt = try r.optionalDate("queued_at")
        isInPriorityQueue = try r.bool("is_in_priority_queue", default: false)
        priority = try r.int32("priority", nonNegative: false, default: 10)
        priorityOrder = try r.double("priority_order", default: 0)
        priorityQueuedAt = try r.optionalDate("priority_queued_at")
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
        w.set("id", id)
        w.set("backend_name", backendName)
        w.set("working_directory", workingDirectory)
        w.set("is_locally_created", isLocallyCreated)
        w.set("last_modified", lastModified)
        w.set("message_count", messageCount)
        w.set("preview", preview)
        w.set("unread_count", unreadCount)
        w.set("is_in_queue", isInQueue)
        w.set("queue_position", queuePosition)
        w.set("queued_at", queuedAt)
        w.set("is_in_priority_queue", isInPriorityQueue)
        w.set("priority", priority)
        w.set("priority_order", priorityOrder)
        w.set("priority_queued_at", priorityQueuedAt)
        w.set("messages", .array(messages.map(\.json)))
    }
}
