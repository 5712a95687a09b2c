import Foundation

/// The seven per-session queue keys: the v1 queue, kept in v2 as a mirror of `queue.json`.
public struct QueueKeys: Sendable, Hashable {
    public var isInQueue: Bool
    public var queuePosition: Int32
    public var queuedAt: Date?
    public var isInPriorityQueue: Bool
    public var priority: Int32
    public var priorityOrder: Double
    public var priorityQueuedAt: Date?

    public init(_ f: WorkStreamKeys) {
        isInQueue = f.isInQueue; queuePosition = f.queuePosition; queuedAt = f.queuedAt
        isInPriorityQueue = f.isInPriorityQueue; priority = f.priority; priorityOrder = f.priorityOrder
        priorityQueuedAt = f.priorityQueuedAt
    }

    /// The values removal from the FIFO queue sets (spec §5): not queued, position 0, `queued_at` null.
    public mutating func resetFIFO() {
        isInQueue = false; queuePosition = 0; queuedAt = nil
    }

    /// The values removal from the priority queue resets to (spec §5).
    public mutating func resetPriority() {
        isInPriorityQueue = false; priority = QueueV2.defaultPriority; priorityOrder = 0; priorityQueuedAt = nil
    }

    /// The defaults of spec §3: not queued anywhere, priority 10, order 0, no dates.
    public static let defaults = QueueKeys()

    public init(
        isInQueue: Bool = false, queuePosition: Int32 = 0, queuedAt: Date? = nil, isInPriorityQueue: Bool = false,
        priority: Int32 = QueueV2.defaultPriority, priorityOrder: Double = 0, priorityQueuedAt: Date? = nil
    ) {
        self.isInQueue = isInQueue; self.queuePosition = queuePosition; self.queuedAt = queuedAt
        self.isInPriorityQueue = isInPriorityQueue; self.priority = priority; self.priorityOrder = priorityOrder
        self.priorityQueuedAt = priorityQueuedAt
    }
}

extension WorkStreamKeys {
    /// The queue keys of this document, read and written together.
    public var queueKeys: QueueKeys {
        get { QueueKeys(self) }
        set {
            isInQueue = newValue.isInQueue; queuePosition = newValue.queuePosition; queuedAt = newValue.queuedAt
            isInPriorityQueue = newValue.isInPriorityQueue; priority = newValue.priority
            priorityOrder = newValue.priorityOrder; priorityQueuedAt = newValue.priorityQueuedAt
        }
    }
}

/// What the queue logic needs to know of one session document, without its messages.
public struct WorkStreamQueueSummary: Sendable, Hashable {
    public var id: UUID
    public var schemaVersion: Int
    public var keys: QueueKeys

    public init(id: UUID, schemaVersion: Int, keys: QueueKeys) {
        self.id = id; self.schemaVersion = schemaVersion; self.keys = keys
    }

    public init(_ document: WorkStreamDocument) {
        self.init(id: document.fields.id, schemaVersion: document.schemaVersion, keys: document.fields.queueKeys)
    }
}

/// `queue.json` indexed by work stream, to compute each session's mirror in O(1).
public struct QueueIndex: Sendable {
    public let queue: QueueV2
    private let fifoIndex: [UUID: Int]
    private let priorityByID: [UUID: PriorityEntry]

    public init(_ queue: QueueV2) {
        self.queue = queue
        var fifoIndex: [UUID: Int] = [:]
        for (i, e) in queue.fifo.enumerated() { fifoIndex[e.workStreamID] = i }
        self.fifoIndex = fifoIndex
        self.priorityByID = Dictionary(queue.priority.map { ($0.workStreamID, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The mirror keys `queue.json` implies for a session whose keys are now `current`.
    ///
    /// A queued work stream gets its entry's values and position = index + 1. One that is not
    /// queued gets `is_in_queue` false and position 0 (§6 rule 5), `is_in_priority_queue` false;
    /// its other keys keep their values (only an explicit removal resets the priority keys).
    public func mirror(for id: UUID, current: QueueKeys) -> QueueKeys {
        var keys = current
        if let i = fifoIndex[id] {
            keys.isInQueue = true; keys.queuePosition = Int32(i + 1); keys.queuedAt = queue.fifo[i].queuedAt
        } else {
            keys.isInQueue = false; keys.queuePosition = 0
        }
        if let e = priorityByID[id] {
            keys.isInPriorityQueue = true; keys.priority = e.priority
            keys.priorityOrder = e.priorityOrder; keys.priorityQueuedAt = e.priorityQueuedAt
        } else {
            keys.isInPriorityQueue = false
        }
        return keys
    }
}

/// What one queue operation (`old` → `new`) does to the per-session mirror keys (spec §5).
///
/// Every work stream whose entry changed gets the keys `new` implies (`QueueIndex.mirror`). One
/// that the operation removed from a list also gets that list's removal values: `queued_at` null
/// for the FIFO queue, priority 10, order 0 and `priority_queued_at` null for the priority queue.
/// The migration and the §7 reconcile use `QueueIndex.mirror` alone: only an explicit removal resets.
package struct QueueMirrorUpdate: Sendable {
    package let old: QueueIndex
    package let new: QueueIndex
    private let removedFromFIFO: Set<UUID>
    private let removedFromPriority: Set<UUID>

    package init(from old: QueueV2, to new: QueueV2) {
        self.old = QueueIndex(old); self.new = QueueIndex(new)
        removedFromFIFO = Set(old.fifo.map(\.workStreamID)).subtracting(new.fifo.map(\.workStreamID))
        removedFromPriority = Set(old.priority.map(\.workStreamID)).subtracting(new.priority.map(\.workStreamID))
    }

    /// The work streams whose mirror may change: those whose entry differs between the two queues.
    package var candidates: Set<UUID> {
        let blank = QueueKeys.defaults
        let all =
            old.queue.fifo.map(\.workStreamID) + old.queue.priority.map(\.workStreamID)
            + new.queue.fifo.map(\.workStreamID) + new.queue.priority.map(\.workStreamID)
        return Set(all).filter { old.mirror(for: $0, current: blank) != new.mirror(for: $0, current: blank) }
    }

    /// The mirror keys of a session whose keys are now `current`, after the operation.
    package func keys(for id: UUID, current: QueueKeys) -> QueueKeys {
        var keys = new.mirror(for: id, current: current)
        if removedFromFIFO.contains(id) { keys.resetFIFO() }
        if removedFromPriority.contains(id) { keys.resetPriority() }
        return keys
    }
}
