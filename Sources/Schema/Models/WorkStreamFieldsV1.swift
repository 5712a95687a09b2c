import Foundation

/// The keys of a work-stream document in schema v1 (spec §3), shared by `WorkStreamV1` and
/// `WorkStreamV2`: v2 only adds keys, so every v1 key keeps its name, type and meaning. Frozen.
public struct WorkStreamFieldsV1: Sendable, Hashable {
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
    public var messages: [MessageV1]

    public init(
        id: UUID, backendName: String, workingDirectory: String, lastModified: Date,
        isLocallyCreated: Bool = false, messageCount: Int32 = 0, preview: String = "",
        unreadCount: Int32 = 0, isInQueue: Bool = false, queuePosition: Int32 = 0,
        queuedAt: Date? = nil, isInPriorityQueue: Bool = false, priority: Int32 = 10,
        priorityOrder: Double = 0, priorityQueuedAt: Date? = nil, messages: [MessageV1] = []
    ) {
        self.id = id; self.backendName = backendName; self.workingDirectory = workingDirectory
        self.lastModified = lastModified; self.isLocallyCreated = isLocallyCreated
        self.messageCount = messageCount; self.preview = preview; self.unreadCount = unreadCount
        self.isInQueue = isInQueue; self.queuePosition = queuePosition; self.queuedAt = queuedAt
        self.isInPriorityQueue = isInPriorityQueue; self.priority = priority
        self.priorityOrder = priorityOrder; self.priorityQueuedAt = priorityQueuedAt; self.messages = messages
    }

    static let knownKeys: Set<String> = [
        "schema_version", "id", "backend_name", "working_directory", "is_locally_created", "last_modified",
        "message_count", "preview", "unread_count", "is_in_queue", "queue_position", "queued_at",
        "is_in_priority_queue", "priority", "priority_order", "priority_queued_at", "messages",
    ]

    /// Reads the v1 keys from `r`, applying the defaults of the spec's table for absent keys.
    ///
    /// `queue_position` accepts any int32: the table says ≥ 0, but negative values exist in the
    /// wild; §6 orders them as the app does (ascending, before 1) and migration renumbers them.
    /// With `messageSync` (a v3 reader), each message's `seq` and `offset` are read into its `sync`.
    init(reading r: inout ObjectReader, messageSync: Bool = false) throws(SchemaError) {
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
        var messages: [MessageV1] = []
        messages.reserveCapacity(items.count)
        let messagesPath = r.keyPath("messages")
        for (index, item) in items.enumerated() {
            messages.append(try MessageV1(json: item, path: messagesPath, index: index, readingSync: messageSync))
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
