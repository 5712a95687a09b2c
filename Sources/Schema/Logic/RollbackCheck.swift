import Foundation
import StoreJSON

/// Rollback compatibility (spec §7): can shipped v1 code read and write the upgraded store?
public enum RollbackCheck {
    /// The four checks of §7.
    public enum Check: String, Sendable, Hashable, CaseIterable {
        /// (a) the v1 reader decodes the document.
        case v1Decodes = "a"
        /// (b) the values the v1 reader sees equal those before migration, except reported normalisations.
        case valuesPreserved = "b"
        /// (c) a v1 read-modify-write keeps every v2 key.
        case v2KeysSurviveV1Write = "c"
        /// (d) the queue a v1 reader derives from the mirror equals `queue.json`.
        case mirrorMatchesQueue = "d"
    }

    /// One failed check, on one file.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        public var check: Check
        public var file: String
        public var reason: String
        package init(check: Check, file: String, reason: String) { self.check = check; self.file = file; self.reason = reason }
        public var description: String { "(\(check.rawValue)) '\(file)': \(reason)" }
    }

    /// What a v1 reader sees in a document: the document decoded by the frozen v1 type, with
    /// newer keys kept as unknown keys (a v2 store has `min_reader_version` 1).
    package static func v1View(of bytes: [UInt8]) throws(SchemaError) -> SessionV1 {
        try SessionV1(bytes: bytes, acceptingNewerVersions: true)
    }

    /// The keys v2 adds to a work stream.
    package static let v2SessionKeys = ["provider_session_id", "provider"]

    /// Checks (a)–(c) for one work-stream document as written on disk.
    ///
    /// - Parameters:
    ///   - bytes: the document's bytes.
    ///   - original: the v1 document before migration (from a backup), for check (b). Without it,
    ///     (b) checks only what the v2 store alone shows: the v1 view carries the v2 keys as
    ///     strings and every message names its containing work stream.
    /// - Returns: the failures; empty when the document passes.
    package static func checkSession(bytes: [UInt8], file: String, original: SessionV1?) -> [Failure] {
        let view: SessionV1
        do { view = try v1View(of: bytes) } catch {
            return [Failure(check: .v1Decodes, file: file, reason: error.reason)]
        }
        var failures: [Failure] = []
        func fail(_ check: Check, _ reason: String) { failures.append(Failure(check: check, file: file, reason: reason)) }
        for key in v2SessionKeys {
            guard case .string? = view.unknown[key] else { fail(.valuesPreserved, "the v1 view lacks '\(key)' as a string"); continue }
        }
        if let original {
            for difference in differences(view: view, original: original) { fail(.valuesPreserved, difference) }
        } else {
            for m in view.fields.messages where m.sessionID != view.fields.id {
                fail(.valuesPreserved, "message \(m.id.lowercased) has session_id \(m.sessionID.lowercased), not the containing id")
            }
        }
        if let reason = v1WriteLoses(view: view, bytes: bytes) { fail(.v2KeysSurviveV1Write, reason) }
        return failures
    }

    /// Differences between the v1 view and the pre-migration document that are not §6 normalisations.
    static func differences(view: SessionV1, original: SessionV1) -> [String] {
        var expected = original.fields
        var actual = view.fields
        // Allowed: §6 rule 4 (message session_id → containing id) and the queue mirror (rule 5, §7).
        for i in expected.messages.indices where expected.messages[i].sessionID != expected.id { expected.messages[i].sessionID = expected.id }
        actual.queueKeys = expected.queueKeys
        var out: [String] = []
        if actual != expected { out.append(describeFieldDifference(actual, expected)) }
        var viewUnknown = view.unknown, originalUnknown = original.unknown
        for key in v2SessionKeys {
            if let before = originalUnknown.removeValue(forKey: key), viewUnknown[key] != before {
                out.append("'\(key)' was \(before.briefDescription) before migration, now \(viewUnknown[key]?.briefDescription ?? "absent")")
            }
            viewUnknown.removeValue(forKey: key)
        }
        if viewUnknown != originalUnknown {
            let keys = Set(viewUnknown.keys).symmetricDifference(originalUnknown.keys)
                .union(viewUnknown.keys.filter { originalUnknown[$0] != nil && originalUnknown[$0] != viewUnknown[$0] })
            out.append("unknown keys differ: \(keys.sorted().joined(separator: ", "))")
        }
        return out
    }

    private static func describeFieldDifference(_ a: SessionFieldsV1, _ b: SessionFieldsV1) -> String {
        var w1 = ObjectWriter(unknown: [:]), w2 = ObjectWriter(unknown: [:])
        a.write(into: &w1); b.write(into: &w2)
        let keys = w1.object.keys.filter { w1.object[$0] != w2.object[$0] }.sorted()
        return "values differ from the v1 document before migration: \(keys.joined(separator: ", "))"
    }

    /// Simulates a v1 writer: read, change a value, write with `schema_version` 1; every other
    /// key of the document must come back with the same value.
    static func v1WriteLoses(view: SessionV1, bytes: [UInt8]) -> String? {
        guard case .object(let before)? = try? DocumentVersion.parse(bytes) else { return "the document is not an object" }
        var written = view
        written.schemaVersion = 1
        written.fields.unreadCount = written.fields.unreadCount == 0 ? 1 : 0
        guard case .object(let after) = written.json else { return "the v1 writer produced no object" }
        let lost = before.keys.filter { $0 != "schema_version" && $0 != "unread_count" && after[$0] != before[$0] }.sorted()
        return lost.isEmpty ? nil : "a v1 writer would lose or change: \(lost.joined(separator: ", "))"
    }

    /// Check (d): the queue a v1 reader derives from the per-session keys equals `queue.json`.
    /// - Returns: nil when they agree, else the first difference.
    package static func checkMirror(sessions: [SessionQueueSummary], queue: QueueV2) -> Failure? {
        let derived = QueueBuilder.build(from: sessions)
        let strip: (QueueV2) -> ([FIFOEntry], [PriorityEntry]) = { q in
            (q.fifo.map { FIFOEntry(workStreamID: $0.workStreamID, queuedAt: $0.queuedAt) },
             q.priority.map { PriorityEntry(workStreamID: $0.workStreamID, priority: $0.priority, priorityOrder: $0.priorityOrder, priorityQueuedAt: $0.priorityQueuedAt) })
        }
        let (df, dp) = strip(derived), (qf, qp) = strip(queue)
        if df != qf {
            let i = (0..<min(df.count, qf.count)).first { df[$0] != qf[$0] } ?? min(df.count, qf.count)
            return Failure(check: .mirrorMatchesQueue, file: StoreLayout.queue,
                           reason: "FIFO position \(i + 1): the session keys give \(df.indices.contains(i) ? df[i].workStreamID.lowercased : "nothing"), queue.json has \(qf.indices.contains(i) ? qf[i].workStreamID.lowercased : "nothing") (\(df.count) vs \(qf.count) entries)")
        }
        if dp != qp {
            let i = (0..<min(dp.count, qp.count)).first { dp[$0] != qp[$0] } ?? min(dp.count, qp.count)
            return Failure(check: .mirrorMatchesQueue, file: StoreLayout.queue,
                           reason: "priority entry \(i + 1): the session keys give \(dp.indices.contains(i) ? dp[i].workStreamID.lowercased : "nothing"), queue.json has \(qp.indices.contains(i) ? qp[i].workStreamID.lowercased : "nothing") (\(dp.count) vs \(qp.count) entries)")
        }
        return nil
    }
}
