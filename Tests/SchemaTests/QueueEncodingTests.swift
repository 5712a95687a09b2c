import Foundation
import Testing

@testable import Schema
@testable import StoreJSON

/// `QueueV2.encoded` (written directly, issue 19) against the reference path it replaces,
/// `JSONWriter.document(queue.json)`, byte for byte.
@Suite struct QueueEncodingTests {
    static func expectMatchesReference(_ queue: QueueV2, _ label: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        let direct = queue.encoded, reference = JSONWriter.document(queue.json)
        #expect(
            direct == reference, "\(label)\n\(String(decoding: direct, as: UTF8.self))\n!=\n\(String(decoding: reference, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    static func id(_ n: Int) -> UUID { UUIDText.parse(String(format: "00000000-0000-4000-8000-%012x", n))! }
    static let t0 = RFC3339.parse("2025-11-20T10:00:00.000Z")!

    @Test func emptyQueueIsWrittenExactly() {
        #expect(
            String(decoding: QueueV2.empty.encoded, as: UTF8.self) == """
                {
                  "fifo": [],
                  "priority": [],
                  "schema_version": \(DocumentVersion.current)
                }

                """)
        Self.expectMatchesReference(.empty)
        Self.expectMatchesReference(QueueV2(schemaVersion: 2))
    }

    @Test func fifoOnlyQueueIsWrittenExactly() {
        let queue = QueueV2(
            fifo: [FIFOEntry(workStreamID: Self.id(2), queuedAt: Self.t0), FIFOEntry(workStreamID: Self.id(1), queuedAt: nil)],
            schemaVersion: 2)
        #expect(
            String(decoding: queue.encoded, as: UTF8.self) == """
                {
                  "fifo": [
                    {
                      "queued_at": "2025-11-20T10:00:00.000Z",
                      "work_stream_id": "00000000-0000-4000-8000-000000000002"
                    },
                    {
                      "queued_at": null,
                      "work_stream_id": "00000000-0000-4000-8000-000000000001"
                    }
                  ],
                  "priority": [],
                  "schema_version": 2
                }

                """)
        Self.expectMatchesReference(queue)
    }

    @Test func priorityOnlyAndBothListsMatchTheReference() {
        let priority = [
            PriorityEntry(workStreamID: Self.id(3), priority: -1, priorityOrder: 2.5, priorityQueuedAt: Self.t0),
            PriorityEntry(workStreamID: Self.id(4), priority: .max, priorityOrder: 0, priorityQueuedAt: nil),
            PriorityEntry(workStreamID: Self.id(5), priority: .min, priorityOrder: 1e-300, priorityQueuedAt: Self.t0),
            PriorityEntry(workStreamID: Self.id(6), priority: 10, priorityOrder: -123456789.125, priorityQueuedAt: Self.t0),
        ]
        let priorityOnly = QueueV2(priority: priority, schemaVersion: 3)
        #expect(
            String(decoding: priorityOnly.encoded, as: UTF8.self).contains(
                """
                  "priority": [
                    {
                      "priority": -2147483648,
                      "priority_order": 1e-300,
                      "priority_queued_at": "2025-11-20T10:00:00.000Z",
                      "work_stream_id": "00000000-0000-4000-8000-000000000005"
                    },
                """))
        Self.expectMatchesReference(priorityOnly, "priority only")
        let fifo = (0..<50).map { FIFOEntry(workStreamID: Self.id(100 + $0), queuedAt: $0 % 3 == 0 ? nil : Self.t0.addingTimeInterval(Double($0) * 0.001)) }
        Self.expectMatchesReference(QueueV2(fifo: fifo, priority: priority, schemaVersion: 2), "both")
    }

    /// Unknown keys at the top and in entries: before, between and after the known ones, one equal
    /// to a known key (the model's value wins), nested values.
    @Test func unknownKeysAreMergedAsTheReferenceDoes() {
        let unknown: JSONObject = [
            "a": .array([.null, .bool(true)]), "fifo": .string("shadowed"), "g": .object(["x": .number(JSONNumber(literal: "1.0")!)]),
            "schema_version_": .null, "zzz": .string("tab\there"), "": .bool(false),
        ]
        let entryUnknown: JSONObject = [
            "priority_": .number(JSONNumber(literal: "2")!), "work_stream_id": .string("shadowed"), "a": .object([:]), "zz": .array([]),
        ]
        let queue = QueueV2(
            fifo: [FIFOEntry(workStreamID: Self.id(1), queuedAt: Self.t0, unknown: entryUnknown)],
            priority: [PriorityEntry(workStreamID: Self.id(2), priority: 1, priorityOrder: 1, priorityQueuedAt: nil, unknown: entryUnknown)],
            unknown: unknown, schemaVersion: 2)
        let text = String(decoding: queue.encoded, as: UTF8.self)
        #expect(!text.contains("shadowed"))
        #expect(text.contains("\"zzz\": \"tab\\there\""))
        Self.expectMatchesReference(queue)
    }

    @Test func randomQueuesMatchTheReference() {
        var random = RandomModels(seed: 20_261_124)
        for round in 0..<300 {
            let fifo = (0..<random.below(12)).map { _ in
                FIFOEntry(workStreamID: random.uuid(), queuedAt: random.optionalDate(), unknown: random.unknownMembers())
            }
            let priority = (0..<random.below(12)).map { _ in
                PriorityEntry(
                    workStreamID: random.uuid(), priority: random.int32(), priorityOrder: random.double(),
                    priorityQueuedAt: random.optionalDate(), unknown: random.unknownMembers())
            }
            Self.expectMatchesReference(
                QueueV2(fifo: fifo, priority: priority, unknown: random.unknownMembers(), schemaVersion: random.version()),
                "round \(round)")
        }
    }

    /// A queue of 8,000 entries (the 50,000 store's) is written once into the array returned:
    /// the estimate holds, and the bytes match the reference.
    @Test func largeQueueMatchesTheReferenceAndFitsTheEstimate() {
        let fifo = (0..<6_000).map { FIFOEntry(workStreamID: Self.id($0), queuedAt: Self.t0) }
        let priority = (0..<2_000).map {
            PriorityEntry(workStreamID: Self.id(10_000 + $0), priority: Int32($0 % 20), priorityOrder: Double($0) / 3, priorityQueuedAt: Self.t0)
        }
        let queue = QueueV2(fifo: fifo, priority: priority, schemaVersion: 2)
        let bytes = queue.encoded
        #expect(bytes == JSONWriter.document(queue.json))
        #expect(bytes.count <= 96 + 6_000 * QueueEncoding.fifoEntrySize + 2_000 * QueueEncoding.priorityEntrySize)
    }
}
