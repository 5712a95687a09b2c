import Foundation
import StoreJSON

// The canonical bytes of `queue.json`, written directly (see CanonicalWriter) instead of through
// `json` and `JSONWriter`: at 50,000 work streams the `JSONValue` tree of 8,036 queue entries and
// the growing byte buffer would be ~8 MB of migrate's peak heap.

/// The key layouts of `queue.json`: the document, a FIFO entry and a priority entry.
enum QueueEncoding {
    enum Field: Sendable { case schemaVersion, fifo, priority }
    enum FIFOField: Sendable { case workStreamID, queuedAt }
    enum PriorityField: Sendable { case workStreamID, priority, priorityOrder, priorityQueuedAt }

    /// The keys `QueueV2.json` sets.
    static let document = KeyLayout<Field>(level: 0, [(.schemaVersion, "schema_version"), (.fifo, "fifo"), (.priority, "priority")])

    /// The keys `FIFOEntry.json` sets; an entry sits at level 2 (document, list, entry).
    static let fifoEntry = KeyLayout<FIFOField>(level: 2, [(.workStreamID, "work_stream_id"), (.queuedAt, "queued_at")])

    /// The keys `PriorityEntry.json` sets.
    static let priorityEntry = KeyLayout<PriorityField>(
        level: 2,
        [
            (.workStreamID, "work_stream_id"), (.priority, "priority"), (.priorityOrder, "priority_order"),
            (.priorityQueuedAt, "priority_queued_at"),
        ])

    /// Bytes of a FIFO entry with a date: 122 (see the layout above); a priority entry: at most ~190
    /// with a 24-digit order. On the high side, so the bytes are written once, into the array returned.
    static let fifoEntrySize = 128, priorityEntrySize = 200
}

extension QueueV2 {
    /// `JSONWriter.document(json)`, byte for byte (sorted keys, the same spellings and
    /// indentation), written straight into bytes with a capacity estimate.
    public var encoded: [UInt8] {
        var capacity = 96 + CanonicalWriter.estimatedSize(of: unknown)
        for entry in fifo { capacity += QueueEncoding.fifoEntrySize + CanonicalWriter.estimatedSize(of: entry.unknown) }
        for entry in priority { capacity += QueueEncoding.priorityEntrySize + CanonicalWriter.estimatedSize(of: entry.unknown) }
        return CanonicalWriter.document(capacity: capacity) { w in
            w.object(QueueEncoding.document, unknown: unknown) { w, field in
                switch field {
                case .schemaVersion: w.integer(schemaVersion)
                case .fifo:
                    w.array(count: fifo.count, level: 1) { w, index in
                        let entry = fifo[index]
                        w.object(QueueEncoding.fifoEntry, unknown: entry.unknown) { w, field in
                            switch field {
                            case .workStreamID: w.uuid(entry.workStreamID)
                            case .queuedAt: w.date(entry.queuedAt)
                            }
                        }
                    }
                case .priority:
                    w.array(count: priority.count, level: 1) { w, index in
                        let entry = priority[index]
                        w.object(QueueEncoding.priorityEntry, unknown: entry.unknown) { w, field in
                            switch field {
                            case .workStreamID: w.uuid(entry.workStreamID)
                            case .priority: w.integer(entry.priority)
                            case .priorityOrder: w.double(entry.priorityOrder)
                            case .priorityQueuedAt: w.date(entry.priorityQueuedAt)
                            }
                        }
                    }
                }
            }
        }
    }
}
