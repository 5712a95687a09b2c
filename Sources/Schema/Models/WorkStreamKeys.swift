import Foundation

/// The v1 keys of a work stream other than `messages` (spec §3), which every version has: what
/// code that works on work streams of any version reads and sets (listing, the queue mirror,
/// checks), through ``WorkStreamDocument/fields``. A v5 work stream's `name` is its
/// `backendName`; its queue keys are the defaults (it has no mirror).
public struct WorkStreamKeys: Sendable, Hashable {
    /// The work-stream id; equals the file name without `.json`.
    public var id: UUID
    /// A display name, or a UUID string, or `""` (a known inconsistency of v1): see `WorkStreamRules`.
    public var backendName: String
    public var workingDirectory: String
    /// Created on this device, not yet known to the backend. The default is `false`.
    public var isLocallyCreated: Bool
    public var lastModified: Date
    /// As reported by the backend, not the number of messages kept. The default is 0.
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

    public init(
        id: UUID, backendName: String, workingDirectory: String, lastModified: Date,
        isLocallyCreated: Bool = false, messageCount: Int32 = 0, preview: String = "",
        unreadCount: Int32 = 0, isInQueue: Bool = false, queuePosition: Int32 = 0,
        queuedAt: Date? = nil, isInPriorityQueue: Bool = false, priority: Int32 = 10,
        priorityOrder: Double = 0, priorityQueuedAt: Date? = nil
    ) {
        self.id = id; self.backendName = backendName; self.workingDirectory = workingDirectory
        self.lastModified = lastModified; self.isLocallyCreated = isLocallyCreated
        self.messageCount = messageCount; self.preview = preview; self.unreadCount = unreadCount
        self.isInQueue = isInQueue; self.queuePosition = queuePosition; self.queuedAt = queuedAt
        self.isInPriorityQueue = isInPriorityQueue; self.priority = priority
        self.priorityOrder = priorityOrder; self.priorityQueuedAt = priorityQueuedAt
    }
}
