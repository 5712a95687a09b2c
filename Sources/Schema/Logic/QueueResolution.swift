import Foundation

/// Which side is the truth about the queue (spec §7).
package enum QueueTruth: String, Sendable, Hashable {
    /// The per-session keys: a v1 store, a missing `queue.json`, or a session written by a v1 writer.
    case sessionKeys = "session_keys"
    /// `queue.json`: every session is v2; the mirror is rewritten from it.
    case queueDocument = "queue_json"
}

/// The queue after applying the §6/§7 rules, and what changed in `queue.json`.
package struct ResolvedQueue: Sendable, Hashable {
    package var queue: QueueV2
    package var truth: QueueTruth
    /// Changes to `queue.json`; empty when its bytes stay the same.
    package var changes: [Change]
}

package enum QueueResolution {
    /// Decides the truth and computes the queue.
    ///
    /// If the store is v1, or `queue.json` is absent, or any session document has
    /// `schema_version` < 2, the queue is rebuilt from the per-session keys (§6 rules 5–6).
    /// Otherwise `queue.json` is the truth, minus entries whose work stream does not exist
    /// (a v1 writer deletes the file but cannot touch `queue.json`; keeping the entry would make
    /// the queue a v1 reader derives differ from `queue.json`, check (d)).
    /// Unknown keys of `queue.json` and of surviving entries are kept.
    ///
    /// `queue.json` gets `schema_version` `target` (the version the store is at, or is migrated to).
    /// `sessions` is any collection, so that a migration passes a view of its staged work streams
    /// instead of a copy of their summaries (goal 5 of `Benchmarks/`).
    package static func resolve(
        manifestVersion: Int, target: Int, sessions: some Collection<WorkStreamQueueSummary>,
        existing: QueueV2?
    ) -> ResolvedQueue {
        let rebuild = manifestVersion < 2 || existing == nil || sessions.contains { $0.schemaVersion < 2 }
        var queue: QueueV2
        var changes: [Change] = []
        if rebuild {
            queue = QueueBuilder.build(from: sessions)
            if let existing { queue = carryUnknownKeys(from: existing, to: queue) }
        } else {
            let existingIDs = Set(sessions.map(\.id))
            queue = existing!
            for e in queue.fifo where !existingIDs.contains(e.workStreamID) { changes.append(.queueEntryDropped(list: "fifo", workStreamID: e.workStreamID)) }
            for e in queue.priority where !existingIDs.contains(e.workStreamID) {
                changes.append(.queueEntryDropped(list: "priority", workStreamID: e.workStreamID))
            }
            queue.fifo.removeAll { !existingIDs.contains($0.workStreamID) }
            queue.setPriority(queue.priority.filter { existingIDs.contains($0.workStreamID) })
        }
        // A rebuilt queue is written by this run at `target`; an existing one keeps a newer version.
        queue.schemaVersion = rebuild ? max(existing?.schemaVersion ?? target, target) : max(queue.schemaVersion, target)
        if existing.map({ $0.encoded != queue.encoded }) ?? true {
            changes.insert(.queueBuilt(fifo: queue.fifo.count, priority: queue.priority.count), at: 0)
        } else {
            changes = []
        }
        return ResolvedQueue(queue: queue, truth: rebuild ? .sessionKeys : .queueDocument, changes: changes)
    }

    private static func carryUnknownKeys(from old: QueueV2, to new: QueueV2) -> QueueV2 {
        let fifoUnknown = Dictionary(old.fifo.map { ($0.workStreamID, $0.unknown) }, uniquingKeysWith: { a, _ in a })
        let priorityUnknown = Dictionary(old.priority.map { ($0.workStreamID, $0.unknown) }, uniquingKeysWith: { a, _ in a })
        var result = new
        result.unknown = old.unknown
        for i in result.fifo.indices { result.fifo[i].unknown = fifoUnknown[result.fifo[i].workStreamID] ?? [:] }
        result.setPriority(
            result.priority.map {
                var e = $0; e.unknown = priorityUnknown[e.workStreamID] ?? [:]; return e
            })
        return result
    }
}
