import Foundation

extension Store {
    /// What `updateWorkStream`'s body may not change, checked before anything is written: the id
    /// (it is the file name) and the seven queue keys (the mirror of `queue.json`, spec §5, which
    /// only the queue methods keep in step).
    ///
    /// - Throws: `StoreError` `.invalidArgument` naming the work stream, the keys and the methods
    ///   to use instead; nothing was written.
    func checkUpdate(_ id: UUID, before: WorkStreamV3, after: WorkStreamV3) throws(StoreError) {
        // The path only for the errors: building it on every update costs measurable time.
        var target: String { file(workStreamFile(id)) }
        if after.fields.id != id {
            let fix = "Leave 'id' as it is; to use another id, create a new work stream with createWorkStream(id:workingDirectory:)."
            throw StoreError(
                .invalidArgument,
                "Can't update work stream '\(id.lowercased)' in '\(path)': the change sets its id "
                    + "to '\(after.fields.id.lowercased)', but a work stream's id is its file name. \(fix) "
                    + "Nothing was written.", path: target, recovery: .advice(fix))
        }
        let changed = Self.changedQueueKeys(before.fields.queueKeys, after.fields.queueKeys)
        guard !changed.isEmpty else { return }
        let fix =
            "Change the queue with enqueue, removeFromQueue, addToPriorityQueue, removeFromPriorityQueue, changePriority "
            + "or movePriority, which keep queue.json and these keys in step."
        throw StoreError(
            .invalidArgument,
            "Can't update work stream '\(id.lowercased)' in '\(path)': the change sets "
                + "\(changed.joined(separator: ", ")), which only the queue methods may change. \(fix) Nothing was written.",
            path: target, recovery: .advice(fix))
    }

    /// The spec names (§3) of the queue keys that differ.
    static func changedQueueKeys(_ old: QueueKeys, _ new: QueueKeys) -> [String] {
        var names: [String] = []
        if old.isInQueue != new.isInQueue { names.append("is_in_queue") }
        if old.queuePosition != new.queuePosition { names.append("queue_position") }
        if old.queuedAt != new.queuedAt { names.append("queued_at") }
        if old.isInPriorityQueue != new.isInPriorityQueue { names.append("is_in_priority_queue") }
        if old.priority != new.priority { names.append("priority") }
        if old.priorityOrder != new.priorityOrder && !(old.priorityOrder.isNaN && new.priorityOrder.isNaN) {
            names.append("priority_order")
        }
        if old.priorityQueuedAt != new.priorityQueuedAt { names.append("priority_queued_at") }
        return names
    }
}
