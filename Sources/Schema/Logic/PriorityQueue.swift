import Foundation

/// Priority queue behaviour (spec §5), as pure operations on `QueueV2`.
extension QueueV2 {
    /// The default priority, also what removal resets `priority` to.
    public static let defaultPriority: Int32 = 10

    public func priorityEntry(of id: UUID) -> PriorityEntry? { priority.first { $0.workStreamID == id } }

    /// Adds a work stream at the end of a priority level (order = max order in that level, itself
    /// excluded, + 1; 1 in an empty level), or moves it there if it is already queued.
    ///
    /// The level is `level` when given; when nil, the work stream's current level if it is queued
    /// (re-adding keeps its level), else `storedPriority`, its document's `priority` key. A re-add
    /// that lands on the values it already has changes nothing. `priority_queued_at` is set on the
    /// first add only.
    ///
    /// ```swift
    /// queue.addToPriority(id, at: now)                 // P5 and queued: stays P5, goes last in P5
    /// queue.addToPriority(id, priority: 1, at: now)    // P1, last in P1
    /// ```
    ///
    /// - Parameters:
    ///   - level: The level to add at: a **lower number is more urgent** (level 1 comes before
    ///     level 10; the app offers 1 "High", 5 "Medium", 10 "Low"). The default is nil (keep the
    ///     current or stored level).
    ///   - storedPriority: The document's `priority` key, used when `level` is nil and the work
    ///     stream is not queued. The default is `defaultPriority` (10).
    ///   - date: The `priority_queued_at` of a first add.
    public mutating func addToPriority(
        _ id: UUID, priority level: Int32? = nil,
        storedPriority: Int32 = QueueV2.defaultPriority, at date: Date
    ) {
        let existing = priorityEntry(of: id)
        let level = level ?? existing?.priority ?? storedPriority
        var entries = priority.filter { $0.workStreamID != id }
        entries.append(
            PriorityEntry(
                workStreamID: id, priority: level, priorityOrder: QueueV2.endOrder(of: level, in: entries),
                priorityQueuedAt: existing?.priorityQueuedAt ?? date, unknown: existing?.unknown ?? [:]))
        setPriority(entries)
    }

    /// Removes a work stream from the priority queue. Its mirror keys are reset through
    /// `QueueMirrorUpdate` (`QueueKeys.resetPriority`): priority 10, order 0, `priority_queued_at`
    /// null. The others keep their orders: gaps remain, nothing is renumbered.
    /// - Returns: false when it was not in the priority queue.
    @discardableResult
    public mutating func removeFromPriority(_ id: UUID) -> Bool {
        let before = priority.count
        setPriority(priority.filter { $0.workStreamID != id })
        return priority.count != before
    }

    /// Changes a queued work stream's priority and moves it to the end of the new level
    /// (`priority_queued_at` is kept). Setting the priority it already has, or changing a work
    /// stream that is not queued, changes nothing.
    /// - Returns: false when it is not in the priority queue.
    @discardableResult
    public mutating func changePriority(_ id: UUID, to level: Int32) -> Bool {
        guard var entry = priorityEntry(of: id) else { return false }
        guard entry.priority != level else { return true }
        var entries = priority.filter { $0.workStreamID != id }
        entry.priority = level
        entry.priorityOrder = QueueV2.endOrder(of: level, in: entries)
        entries.append(entry)
        setPriority(entries)
        return true
    }

    /// Drag-to-reorder: puts `id` between the neighbours the user saw above and below the drop.
    ///
    /// The neighbours come from the list the user saw, which hides entries (spec §5): entries
    /// hidden between them, and neighbours that are not adjacent in the whole queue, are
    /// accepted, as the shipped app accepts them. A neighbour that is not queued counts as
    /// absent, and so does `id` itself (the app leaves the moving row out of its neighbours).
    ///
    /// - Both neighbours in one level: that level, the midpoint of their orders. Where the
    ///   midpoint equals a neighbour's order (no `Double` lies between them any more), that level
    ///   is renumbered 1…k in its current order first.
    /// - Neighbours in different levels: the lower neighbour's level (the one below), at the end
    ///   of that level (max order, `id` excluded, + 1), as the shipped app does.
    /// - Only an upper neighbour (dropped last): its level, its order + 1.
    /// - Only a lower neighbour (dropped first): its level, its order − 1.
    /// - No neighbour, or `id` not queued: nothing changes.
    ///
    /// ```swift
    /// // The user sees c, e (d is hidden between them: the user deleted it) and drops a between them.
    /// queue.movePriority(a, after: c, before: e)
    /// ```
    public mutating func movePriority(_ id: UUID, after upper: UUID?, before lower: UUID?) {
        guard var entry = priorityEntry(of: id) else { return }
        var others = priority.filter { $0.workStreamID != id }
        let upperIndex = upper.flatMap { u in others.firstIndex { $0.workStreamID == u } }
        let lowerIndex = lower.flatMap { l in others.firstIndex { $0.workStreamID == l } }
        switch (upperIndex, lowerIndex) {
        case (let u?, let l?) where others[u].priority == others[l].priority:
            var mid = QueueV2.midpoint(others[u].priorityOrder, others[l].priorityOrder)
            if u != l && !QueueV2.liesBetween(mid, others[u].priorityOrder, others[l].priorityOrder) {
                others = QueueV2.renumbered(level: others[u].priority, in: others)
                mid = QueueV2.midpoint(others[u].priorityOrder, others[l].priorityOrder)
            }
            entry.priority = others[u].priority
            entry.priorityOrder = mid
        case (_?, let l?):
            entry.priority = others[l].priority
            entry.priorityOrder = QueueV2.endOrder(of: others[l].priority, in: others)
        case (nil, let l?):
            entry.priority = others[l].priority
            entry.priorityOrder = others[l].priorityOrder - 1
        case (let u?, nil):
            entry.priority = others[u].priority
            entry.priorityOrder = others[u].priorityOrder + 1
        case (nil, nil):
            return
        }
        others.append(entry)
        setPriority(others)
    }

    private static func midpoint(_ a: Double, _ b: Double) -> Double { (a + b) / 2 }

    /// False when `mid` equals either order (the doubles have run out of precision) or is not finite.
    private static func liesBetween(_ mid: Double, _ a: Double, _ b: Double) -> Bool {
        mid.isFinite && mid != a && mid != b
    }

    static func endOrder(of level: Int32, in entries: [PriorityEntry]) -> Double {
        (entries.filter { $0.priority == level }.map(\.priorityOrder).max() ?? 0) + 1
    }

    private static func renumbered(level: Int32, in entries: [PriorityEntry]) -> [PriorityEntry] {
        var next = 0.0
        return entries.map { entry in
            guard entry.priority == level else { return entry }
            var copy = entry
            next += 1
            copy.priorityOrder = next
            return copy
        }
    }
}
