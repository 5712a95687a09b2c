import Foundation

/// The queue's integrity rule (spec §5, §7): every entry of `queue.json` names an existing work
/// stream; a client hides an entry that does not, and the §7 reconcile drops it. One rule for
/// `StoreValidator` (validate) and `StoreVerifier` (verify), which word it each their own way.
enum QueueIntegrity {
    /// An entry whose work stream does not exist.
    struct MissingEntry: Sendable, Equatable {
        enum List: String, Sendable { case fifo, priority }
        /// The list, by its key in `queue.json`.
        var list: List
        /// The entry's position in that list.
        var index: Int
        var workStreamID: UUID
    }

    /// The entries of `queue` whose work stream is not in `existing`: the FIFO list first, each
    /// list in order.
    static func missingEntries(_ queue: QueueV2, existing: Set<UUID>) -> [MissingEntry] {
        let lists: [(MissingEntry.List, [UUID])] = [(.fifo, queue.fifo.map(\.workStreamID)), (.priority, queue.priority.map(\.workStreamID))]
        return lists.flatMap { list, ids in
            ids.enumerated().filter { !existing.contains($0.element) }.map { MissingEntry(list: list, index: $0.offset, workStreamID: $0.element) }
        }
    }
}
