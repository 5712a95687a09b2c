import Foundation

/// Builds `queue.json` from the per-session queue keys (spec §6 rules 5–6, and the §7 rebuild).
public enum QueueBuilder {
    /// FIFO: sessions with `is_in_queue`, ordered by `queue_position` ascending as the shipped
    /// app's queue list sorts them (a stale 0, or a negative position, first), then `queued_at`
    /// (null last), then id. Priority: sessions with `is_in_priority_queue`, sorted
    /// by (priority, order, id). Also what a v1 reader derives from the mirror (check (d)).
    public static func build(from sessions: some Collection<WorkStreamQueueSummary>) -> QueueV2 {
        let fifo = sessions.filter(\.keys.isInQueue).sorted(by: fifoOrder)
            .map { FIFOEntry(workStreamID: $0.id, queuedAt: $0.keys.queuedAt) }
        let priority = sessions.filter(\.keys.isInPriorityQueue).map {
            PriorityEntry(
                workStreamID: $0.id, priority: $0.keys.priority, priorityOrder: $0.keys.priorityOrder,
                priorityQueuedAt: $0.keys.priorityQueuedAt)
        }
        return QueueV2(fifo: fifo, priority: priority)
    }

    static func fifoOrder(_ a: WorkStreamQueueSummary, _ b: WorkStreamQueueSummary) -> Bool {
        let pa = effectivePosition(a.keys.queuePosition), pb = effectivePosition(b.keys.queuePosition)
        if pa != pb { return pa < pb }
        switch (a.keys.queuedAt, b.keys.queuedAt) {
        case (let x?, let y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.id.lowercased < b.id.lowercased
        }
    }

    /// The position as the app sorts it: the stored value, so a stale 0 or a negative one sorts
    /// before 1. Not queued counts as after every position (`writeOrder`).
    private static func effectivePosition(_ p: Int32) -> Int64 { Int64(p) }

    /// The order in which to write sessions whose mirror changes, so that a v1 reader derives the
    /// same FIFO order from the files after every prefix of the writes (a crash between two
    /// renames then changes nothing a v1 reader sees, and a resumed run computes the same queue).
    ///
    /// Sessions moving to a smaller position are written first, in ascending new position; then
    /// those moving to a larger position, in descending new position; then all others by id.
    /// Proof sketch: when a session moves down to i, every earlier entry already holds a position
    /// < i and every later one a position > i (old positions are sorted); symmetrically for moves up.
    public static func writeOrder(_ changes: [(id: UUID, old: QueueKeys, new: QueueKeys)]) -> [UUID] {
        func old(_ k: QueueKeys) -> Int64 { k.isInQueue ? effectivePosition(k.queuePosition) : Int64.max }
        var down: [(Int32, UUID)] = [], up: [(Int32, UUID)] = [], rest: [UUID] = []
        for c in changes {
            guard c.new.isInQueue, c.old.isInQueue else { rest.append(c.id); continue }
            let from = old(c.old), to = Int64(c.new.queuePosition)
            if to < from { down.append((c.new.queuePosition, c.id)) } else if to > from { up.append((c.new.queuePosition, c.id)) } else { rest.append(c.id) }
        }
        return down.sorted { $0.0 < $1.0 }.map(\.1) + up.sorted { $0.0 > $1.0 }.map(\.1)
            + rest.sorted { $0.lowercased < $1.lowercased }
    }
}
