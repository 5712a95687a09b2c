import Foundation
import Schema
import StoreJSON

/// Makes a realistic schema-v1 store from a seed: the same seed and sizes always give the same
/// bytes, on every platform. For benchmarks and tests.
///
/// Each work stream is made from its own generator (seed, index), so documents are produced one
/// at a time and memory does not grow with the number of work streams. Files are canonical
/// (`JSONWriter.document` of the v1 models), and carry the v1 edge cases of `Samples/v1-store`
/// at low rates: UUID and empty backend names, duplicate, gapped and stale queue positions,
/// messages whose `session_id` names another work stream, unknown keys (including the number
/// literal `1.0`), documents with only the required keys, `priority_order` written as `0`,
/// customisations with empty or null names, deleted work streams and orphan customisations.
///
/// ```swift
/// let generator = StoreGenerator(seed: 42, workStreams: 2_000, messagesPerStream: 50)
/// let summary = try generator.write(to: "/tmp/bench-store")
/// print(summary) // 2000 work streams, 100000 messages, … in /tmp/bench-store
/// ```
public struct StoreGenerator: Sendable {
    public let seed: UInt64
    public let workStreams: Int
    public let messagesPerStream: Int
    /// The schema version of the generated store. Only 1 is supported: migrate the store to get v2.
    public let version: Int

    /// - Precondition: `workStreams` and `messagesPerStream` are ≥ 0 and `version` is 1.
    public init(seed: UInt64, workStreams: Int, messagesPerStream: Int, version: Int = 1) {
        precondition(workStreams >= 0 && messagesPerStream >= 0, "StoreGenerator: sizes must be ≥ 0")
        precondition(version == 1, "StoreGenerator: only schema version 1 is generated; migrate the store for v2")
        self.seed = seed; self.workStreams = workStreams; self.messagesPerStream = messagesPerStream; self.version = version
    }

    /// What was generated.
    public struct Summary: Sendable, Hashable, CustomStringConvertible {
        public var workStreams = 0
        public var messages = 0
        public var customisations = 0
        public var orphanCustomisations = 0
        public var fifoQueued = 0
        public var priorityQueued = 0
        public var files = 0
        public var bytes = 0

        public var description: String {
            "\(workStreams) work streams, \(messages) messages, \(customisations) customisations (\(orphanCustomisations) orphans), "
                + "\(fifoQueued) in the FIFO queue, \(priorityQueued) in the priority queue; \(files) files, \(bytes) bytes"
        }
    }

    /// Produces every document in order (sessions, user customisations, settings, `store.json`
    /// last), as a path relative to the store and the file's bytes. Pure: writes nothing.
    @discardableResult
    public func forEachDocument(_ body: (_ relativePath: String, _ bytes: [UInt8]) throws -> Void) rethrows -> Summary {
        var summary = Summary()
        func emit(_ path: String, _ bytes: [UInt8]) throws {
            summary.files += 1; summary.bytes += bytes.count
            try body(path, bytes)
        }
        var fifo = FIFOCounter()
        for index in 0..<workStreams {
            let session = makeWorkStream(index, fifo: &fifo)
            summary.workStreams += 1
            summary.messages += session.messages
            if session.fifoQueued { summary.fifoQueued += 1 }
            if session.priorityQueued { summary.priorityQueued += 1 }
            try emit(StoreLayout.workStreamPath(workStreamID(index)), JSONWriter.document(session.json))
        }
        for index in 0..<workStreams {
            guard let doc = customisation(index) else { continue }
            summary.customisations += 1
            try emit(StoreLayout.customisationPath(doc.id), doc.encoded)
        }
        for index in 0..<orphanCount {
            let doc = orphan(index)
            summary.customisations += 1; summary.orphanCustomisations += 1
            try emit(StoreLayout.customisationPath(doc.id), doc.encoded)
        }
        try emit(StoreLayout.settings, SettingsV1(queueEnabled: true, priorityQueueEnabled: true, schemaVersion: 1).encoded)
        try emit(StoreLayout.manifest, ManifestV1(createdAt: Self.epoch).encoded)
        return summary
    }

    /// The id of work stream `index` (0-based).
    public func workStreamID(_ index: Int) -> UUID {
        var rng = SeededGenerator(seed: seed, stream: UInt64(index), salt: Salt.id)
        return rng.uuid()
    }

    // MARK: Parts

    enum Salt {
        static let id: UInt64 = 1, session: UInt64 = 2, customisation: UInt64 = 3, orphan: UInt64 = 4
    }

    /// 2025-01-06T08:00:00.000Z, the store's `created_at`; every other date is later.
    static let epoch = Date(timeIntervalSince1970: 1_736_150_400)

    var orphanCount: Int { workStreams == 0 ? 0 : workStreams / 50 + 1 }

    /// The user customisation of work stream `index`, for about 30% of them.
    func customisation(_ index: Int) -> CustomisationV1? {
        var rng = SeededGenerator(seed: seed, stream: UInt64(index), salt: Salt.customisation)
        guard rng.chance(0.30) else { return nil }
        return userSession(id: workStreamID(index), &rng)
    }

    /// A customisation whose work stream does not exist (spec §3: kept, not an error).
    func orphan(_ index: Int) -> CustomisationV1 {
        var rng = SeededGenerator(seed: seed, stream: UInt64(index), salt: Salt.orphan)
        return userSession(id: rng.uuid(), &rng)
    }

    private func userSession(id: UUID, _ rng: inout SeededGenerator) -> CustomisationV1 {
        let name: String? =
            switch rng.below(10) {
            case 0, 1: ""
            case 2, 3: nil
            default: rng.pick(Self.customNames)
            }
        return CustomisationV1(
            id: id, createdAt: date(&rng, withinDays: 300), customName: name,
            isUserDeleted: rng.chance(0.15), schemaVersion: 1)
    }

    func date(_ rng: inout SeededGenerator, withinDays days: Int) -> Date {
        Self.epoch.addingTimeInterval(Double(rng.below(days * 86_400_000)) / 1000)
    }

    static let customNames = [
        "Network layer: async/await", "Websocket reconnect spike", "Login crash", "Release 2.4 checklist",
        "Widget refresh", "Café menu parser", "Offline mode", "Onboarding — copy review",
    ]
}
