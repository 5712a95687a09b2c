import Foundation

/// FIFO queue behaviour (spec §5), as pure operations on `QueueV2`.
extension QueueV2 {
    /// The 1-based FIFO position of a work stream, or nil when it is not queued.
    public func fifoPosition(of id: UUID) -> Int? {
        fifo.firstIndex { $0.workStreamID == id }.map { $0 + 1 }
    }

    /// Sending a message: adds the work stream to the end of the FIFO queue, or moves it to the
    /// end if it is already queued. `queuedAt` becomes the time of this add.
    public mutating func enqueue(_ id: UUID, at date: Date) {
        let kept = fifo.first { $0.workStreamID == id }?.unknown ?? [:]
        fifo.removeAll { $0.workStreamID == id }
        fifo.append(FIFOEntry(workStreamID: id, queuedAt: date, unknown: kept))
    }

    /// Removes a work stream from the FIFO queue and closes the gap (positions stay 1…n).
    /// - Returns: false when it was not queued.
    @discardableResult
    public mutating func removeFromFIFO(_ id: UUID) -> Bool {
        guard let index = fifo.firstIndex(where: { $0.workStreamID == id }) else { return false }
        fifo.remove(at: index)
        return true
    }

    /// Removes a work stream from both lists (used when it is deleted).
    /// - Returns: true when either list changed.
    @discardableResult
    public mutating func removeEverywhere(_ id: UUID) -> Bool {
        let a = removeFromFIFO(id)
        let b = removeFromPriority(id)
        return a || b
    }
}

/// Why a client hides a queue entry (spec §5). Hidden entries keep their place.
public enum HiddenReason: String, Sendable, Hashable, CaseIterable {
    /// `queue_enabled` / `priority_queue_enabled` is false: the whole queue is hidden, its state kept.
    case queueDisabled = "queue_disabled"
    /// The work stream's provider session is locked: the agent is still working.
    case locked
    /// The user deleted (hid) the work stream.
    case deleted
    /// No work-stream document exists for the entry.
    case missing
}

/// One queue entry with its place in the full list and whether a client shows it.
public struct QueueEntryVisibility: Sendable, Hashable {
    public var workStreamID: UUID
    /// 1-based place in the full list (hidden entries keep theirs).
    public var position: Int
    /// Empty when visible.
    public var hiddenBecause: [HiddenReason]
    public var isVisible: Bool { hiddenBecause.isEmpty }
}

/// What a client knows about the work streams when it computes the visible queue.
public struct QueueContext: Sendable {
    /// Effective provider session id of every existing work stream.
    public var providerSessionIDs: [UUID: String]
    /// Work streams the user deleted (`is_user_deleted`).
    public var deleted: Set<UUID>
    /// Provider sessions that are locked (agent still working). Not knowable offline.
    public var lockedProviderSessions: Set<String>

    public init(providerSessionIDs: [UUID: String], deleted: Set<UUID> = [], lockedProviderSessions: Set<String> = []) {
        self.providerSessionIDs = providerSessionIDs; self.deleted = deleted
        self.lockedProviderSessions = lockedProviderSessions
    }

    func reasons(for id: UUID, enabled: Bool) -> [HiddenReason] {
        var reasons: [HiddenReason] = []
        if !enabled { reasons.append(.queueDisabled) }
        if let provider = providerSessionIDs[id] {
            if lockedProviderSessions.contains(provider) { reasons.append(.locked) }
        } else {
            reasons.append(.missing)
        }
        if deleted.contains(id) { reasons.append(.deleted) }
        return reasons
    }
}

extension QueueV2 {
    /// Every FIFO entry with its position and the reasons a client would hide it.
    public func fifoVisibility(_ context: QueueContext, enabled: Bool = true) -> [QueueEntryVisibility] {
        fifo.enumerated().map { index, entry in
            QueueEntryVisibility(
                workStreamID: entry.workStreamID, position: index + 1,
                hiddenBecause: context.reasons(for: entry.workStreamID, enabled: enabled))
        }
    }

    /// Every priority entry, in queue order, with the reasons a client would hide it.
    public func priorityVisibility(_ context: QueueContext, enabled: Bool = true) -> [QueueEntryVisibility] {
        priority.enumerated().map { index, entry in
            QueueEntryVisibility(
                workStreamID: entry.workStreamID, position: index + 1,
                hiddenBecause: context.reasons(for: entry.workStreamID, enabled: enabled))
        }
    }

    /// The FIFO work streams a client shows, in order.
    public func visibleFIFO(_ context: QueueContext, enabled: Bool = true) -> [UUID] {
        fifoVisibility(context, enabled: enabled).filter(\.isVisible).map(\.workStreamID)
    }

    /// The priority work streams a client shows, in order.
    public func visiblePriority(_ context: QueueContext, enabled: Bool = true) -> [UUID] {
        priorityVisibility(context, enabled: enabled).filter(\.isVisible).map(\.workStreamID)
    }
}
