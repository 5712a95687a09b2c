import Foundation
import StoreJSON

/// `queue.json` (v2 only, spec §4): the FIFO queue and the priority queue in one document, so one
/// write changes the whole queue at once. The per-session queue keys are a mirror for v1 readers.
public struct QueueV2: Sendable, Hashable {
    public var schemaVersion: Int
    /// In queue order: the entry at index i has position i + 1.
    public var fifo: [FIFOEntry]
    /// Sorted by (priority, priority order, id); kept sorted by every operation.
    public private(set) var priority: [PriorityEntry]
    public var unknown: JSONObject

    public init(
        fifo: [FIFOEntry] = [], priority: [PriorityEntry] = [], unknown: JSONObject = [:],
        schemaVersion: Int = DocumentVersion.current
    ) {
        self.schemaVersion = schemaVersion; self.fifo = fifo
        self.priority = priority.sorted(by: PriorityEntry.queueOrder); self.unknown = unknown
    }

    /// An empty queue.
    public static let empty = QueueV2()

    /// Replaces the priority list, sorting it into queue order.
    public mutating func setPriority(_ entries: [PriorityEntry]) { priority = entries.sorted(by: PriorityEntry.queueOrder) }

    /// Decodes `queue.json`.
    /// - Throws: `SchemaError`, including `.invalidValue` when a work stream appears twice in one list.
    package init(json: JSONValue, acceptingNewerVersions: Bool = false) throws(SchemaError) {
        var r = try ObjectReader(json, path: "")
        let version = try DocumentVersion.read(&r, supported: 2...DocumentVersion.newest, acceptingNewer: acceptingNewerVersions, kind: "queue")
        var fifo: [FIFOEntry] = []
        for (index, item) in (try r.array("fifo") ?? []).enumerated() {
            fifo.append(try FIFOEntry(json: item, path: "fifo", index: index))
        }
        var priority: [PriorityEntry] = []
        for (index, item) in (try r.array("priority") ?? []).enumerated() {
            priority.append(try PriorityEntry(json: item, path: "priority", index: index))
        }
        try QueueV2.checkUnique(fifo.map(\.workStreamID), list: "fifo")
        try QueueV2.checkUnique(priority.map(\.workStreamID), list: "priority")
        self.init(fifo: fifo, priority: priority, unknown: r.unknownKeys(), schemaVersion: version)
    }

    public init(bytes: [UInt8], acceptingNewerVersions: Bool = false) throws(SchemaError) {
        try self.init(json: try DocumentVersion.parse(bytes), acceptingNewerVersions: acceptingNewerVersions)
    }

    private static func checkUnique(_ ids: [UUID], list: String) throws(SchemaError) {
        var seen: Set<UUID> = []
        for (index, id) in ids.enumerated() where !seen.insert(id).inserted {
            throw SchemaError(
                code: .invalidValue, keyPath: "\(list)[\(index)].work_stream_id",
                detail: "work stream '\(id.lowercased)' appears more than once in '\(list)'; a work stream is queued at most once")
        }
    }

    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("schema_version", schemaVersion)
        w.set("fifo", .array(fifo.map(\.json)))
        w.set("priority", .array(priority.map(\.json)))
        return w.value
    }

    // `encoded`: QueueV2+Encoding.swift.
}

/// One FIFO queue entry.
public struct FIFOEntry: Sendable, Hashable {
    public var workStreamID: UUID
    public var queuedAt: Date?
    public var unknown: JSONObject

    public init(workStreamID: UUID, queuedAt: Date?, unknown: JSONObject = [:]) {
        self.workStreamID = workStreamID; self.queuedAt = queuedAt; self.unknown = unknown
    }

    init(json: JSONValue, path: String, index: Int? = nil) throws(SchemaError) {
        var r = try ObjectReader(json, path: path, index: index, keys: FIFOEntry.readerKeys)
        workStreamID = try r.uuid("work_stream_id")
        queuedAt = try r.optionalDate("queued_at")
        unknown = r.unknownKeys()
    }

    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("work_stream_id", workStreamID)
        w.set("queued_at", queuedAt)
        return w.value
    }
}

/// One priority queue entry.
public struct PriorityEntry: Sendable, Hashable {
    public var workStreamID: UUID
    /// The level: a **lower number is more urgent** (1 before 10; the app offers 1 "High",
    /// 5 "Medium" and 10 "Low", spec §3). 10 by default.
    public var priority: Int32
    /// The place inside the level: lower comes first.
    public var priorityOrder: Double
    public var priorityQueuedAt: Date?
    public var unknown: JSONObject

    public init(workStreamID: UUID, priority: Int32, priorityOrder: Double, priorityQueuedAt: Date?, unknown: JSONObject = [:]) {
        self.workStreamID = workStreamID; self.priority = priority; self.priorityOrder = priorityOrder
        self.priorityQueuedAt = priorityQueuedAt; self.unknown = unknown
    }

    init(json: JSONValue, path: String, index: Int? = nil) throws(SchemaError) {
        var r = try ObjectReader(json, path: path, index: index, keys: PriorityEntry.readerKeys)
        workStreamID = try r.uuid("work_stream_id")
        priority = try r.int32("priority", nonNegative: false, default: 10)
        priorityOrder = try r.double("priority_order", default: 0)
        priorityQueuedAt = try r.optionalDate("priority_queued_at")
        unknown = r.unknownKeys()
    }

    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("work_stream_id", workStreamID)
        w.set("priority", priority)
        w.set("priority_order", priorityOrder)
        w.set("priority_queued_at", priorityQueuedAt)
        return w.value
    }

    /// Spec §4: priority ascending, then order ascending, then id.
    public static func queueOrder(_ a: PriorityEntry, _ b: PriorityEntry) -> Bool {
        if a.priority != b.priority { return a.priority < b.priority }
        if a.priorityOrder != b.priorityOrder { return a.priorityOrder < b.priorityOrder }
        return a.workStreamID.lowercased < b.workStreamID.lowercased
    }
}
