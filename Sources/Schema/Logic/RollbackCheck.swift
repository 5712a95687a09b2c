import Foundation
import StoreJSON

/// Rollback compatibility (spec §7, §9): can shipped older code (v1, v2) read and write the upgraded store?
public enum RollbackCheck {
    /// The four checks of §7, run for each older reader version (§9). The case names say "v1"
    /// for the first reader they were written for; each runs as every older reader.
    public enum Check: String, Sendable, Hashable, CaseIterable {
        /// (a) the older reader decodes the document.
        case v1Decodes = "a"
        /// (b) the values the older reader sees equal those before migration, except reported normalisations.
        case valuesPreserved = "b"
        /// (c) the older reader's read-modify-write keeps every newer key.
        case v2KeysSurviveV1Write = "c"
        /// (d) the queue the older reader derives (a v1 reader: from the mirror) equals `queue.json`.
        case mirrorMatchesQueue = "d"
    }

    /// One check as one reader version.
    public struct ReaderCheck: Sendable, Hashable {
        public var reader: Int
        public var check: Check
        public init(reader: Int, check: Check) { self.reader = reader; self.check = check }
    }

    /// One failed check, on one file, for one older reader version.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        public var check: Check
        public var file: String
        public var reason: String
        /// The reader version the check ran as (1 for a v1 reader).
        public var reader: Int
        package init(check: Check, file: String, reason: String, reader: Int = 1) {
            self.check = check; self.file = file; self.reason = reason; self.reader = reader
        }
        public var description: String { "(\(check.rawValue)) '\(file)': \(reason)" }
    }

    /// The older reader versions whose checks a store of `storeVersion` needs (spec §9): every
    /// version the store admits below its own. Empty for a store no older reader may open.
    public static func olderReaders(at storeVersion: Int) -> [Int] {
        Array(MigrationChain.minReaderVersion(at: storeVersion)..<max(storeVersion, MigrationChain.minReaderVersion(at: storeVersion)))
    }

    /// What a v1 reader sees in a document: the document decoded by the frozen v1 type, with
    /// newer keys kept as unknown keys (a v2 or v3 store has `min_reader_version` 1).
    package static func v1View(of bytes: [UInt8]) throws(SchemaError) -> WorkStreamV1 {
        try WorkStreamV1(bytes: bytes, acceptingNewerVersions: true)
    }

    /// A document as an older reader sees it: decoded by that version's frozen type, newer keys
    /// kept as unknown keys.
    package enum ReaderView: Sendable, Hashable {
        case v1(WorkStreamV1)
        case v2(WorkStreamV2)
        case v3(WorkStreamV3)

        var fields: WorkStreamKeys {
            switch self {
            case .v1(let s): s.fields.keys
            case .v2(let s): s.fields.keys
            case .v3(let s): s.fields.keys
            }
        }

        /// The first message that lacks one of `keys` among its unknown keys, with those it lacks.
        func messageLacking(_ keys: [String]) -> (index: Int, missing: [String])? {
            switch self {
            case .v1(let s): RollbackCheck.messageLacking(keys, in: s.fields.messages)
            case .v2(let s): RollbackCheck.messageLacking(keys, in: s.fields.messages)
            case .v3(let s): RollbackCheck.messageLacking(keys, in: s.fields.messages)
            }
        }

        /// The messages whose `session_id` is not the containing work stream's id.
        var messagesOfOtherWorkStreams: [(id: UUID, sessionID: UUID)] {
            switch self {
            case .v1(let s): RollbackCheck.messagesOfOtherWorkStreams(s.fields)
            case .v2(let s): RollbackCheck.messagesOfOtherWorkStreams(s.fields)
            case .v3(let s): RollbackCheck.messagesOfOtherWorkStreams(s.fields)
            }
        }

        var unknown: JSONObject {
            switch self {
            case .v1(let s): s.unknown
            case .v2(let s): s.unknown
            case .v3(let s): s.unknown
            }
        }

        /// What that reader writes after a read-modify-write that changes `unread_count`.
        var written: JSONValue {
            switch self {
            case .v1(var s):
                s.schemaVersion = 1
                s.fields.unreadCount = s.fields.unreadCount == 0 ? 1 : 0
                return s.json
            case .v2(var s):
                s.schemaVersion = 2
                s.fields.unreadCount = s.fields.unreadCount == 0 ? 1 : 0
                return s.json
            case .v3(var s):
                s.schemaVersion = 3
                s.fields.unreadCount = s.fields.unreadCount == 0 ? 1 : 0
                return s.json
            }
        }
    }

    /// The view of a reader of version `reader` (1 to 3). A reader reads a document an older
    /// writer left as that writer's code does (its dual read).
    package static func view(of bytes: [UInt8], reader: Int) throws(SchemaError) -> ReaderView {
        guard reader >= 2 else { return .v1(try v1View(of: bytes)) }
        let json = try DocumentVersion.parse(bytes)
        let version = try DocumentVersion.peek(json)
        if version < 2 { return .v1(try WorkStreamV1(json: json)) }
        if reader == 2 || version < 3 { return .v2(try WorkStreamV2(json: json, acceptingNewerVersions: true)) }
        return .v3(try WorkStreamV3(json: json, acceptingNewerVersions: true))
    }

    /// Checks (a)–(c) for a customisation or `settings.json` as a reader of version `reader`
    /// (its frozen type, `CustomisationV1` or `SettingsV1`, newer keys kept as unknown keys):
    /// (a) it decodes; (b) it sees the values this code sees, and every key the steps after its
    /// version add is there for it to keep (with `original`, the document before migration:
    /// the values it saw then, too); (c) its read-modify-write keeps every other key.
    package static func checkSmallDocument(
        bytes: [UInt8], file: String, kind: StoreLayout.DocumentKind, original: [UInt8]?, reader: Int, storeVersion: Int
    ) -> [Failure] {
        var failures: [Failure] = []
        func fail(_ check: Check, _ reason: String) { failures.append(Failure(check: check, file: file, reason: reason, reader: reader)) }
        let steps = MigrationChain.steps(from: reader, to: storeVersion)
        let newerKeys = kind == .customisation ? steps.flatMap(\.addedCustomisationKeys) : steps.flatMap(\.addedSettingsKeys)
        let seen: (values: JSONObject, unknown: JSONObject, written: JSONValue)
        do {
            seen = try smallDocumentView(bytes, kind: kind, reader: reader)
        } catch {
            return [Failure(check: .v1Decodes, file: file, reason: error.reason, reader: reader)]
        }
        for key in newerKeys where seen.unknown[key] == nil { fail(.valuesPreserved, "the v\(reader) view lacks '\(key)'") }
        do {
            let current = try smallDocumentView(bytes, kind: kind, reader: DocumentVersion.newest)
            for (key, value) in seen.values where current.values[key] != value {
                fail(
                    .valuesPreserved,
                    "'\(key)' is \(value.briefDescription) to a v\(reader) reader, \(current.values[key]?.briefDescription ?? "absent") to this code")
            }
            if let original {
                let before = try smallDocumentView(original, kind: kind, reader: reader)
                for (key, value) in before.values where seen.values[key] != value {
                    fail(
                        .valuesPreserved,
                        "'\(key)' was \(value.briefDescription) before migration, now \(seen.values[key]?.briefDescription ?? "absent")")
                }
            }
        } catch {
            fail(.valuesPreserved, "this code can't read it: \(error.reason)")
        }
        if case .object(let before)? = try? DocumentVersion.parse(bytes), case .object(let after) = seen.written {
            let lost = before.keys.filter { $0 != "schema_version" && after[$0] != before[$0] }.sorted()
            if !lost.isEmpty { fail(.v2KeysSurviveV1Write, "a v\(reader) writer would lose or change: \(lost.joined(separator: ", "))") }
        }
        return failures
    }

    /// A small document as the frozen type of `reader` reads it (this code's type for a reader
    /// of the newest version): the values of its own keys, its unknown keys, and what it writes
    /// back with its own `schema_version`.
    private static func smallDocumentView(
        _ bytes: [UInt8], kind: StoreLayout.DocumentKind, reader: Int
    ) throws(SchemaError) -> (values: JSONObject, unknown: JSONObject, written: JSONValue) {
        func split(_ json: JSONValue, _ unknown: JSONObject) -> JSONObject {
            guard case .object(var members) = json else { return [:] }
            for key in unknown.keys { members.removeValue(forKey: key) }
            members.removeValue(forKey: "schema_version")
            return members
        }
        switch kind {
        case .customisation where reader < CustomisationV4.version:
            var document = try CustomisationV1(bytes: bytes, acceptingNewerVersions: true)
            let values = split(document.json, document.unknown)
            document.schemaVersion = reader
            return (values, document.unknown, document.json)
        case .customisation:
            var document = try CustomisationV4(bytes: bytes, acceptingNewerVersions: true)
            let values = split(document.json, document.unknown)
            document.schemaVersion = reader
            return (values, document.unknown, document.json)
        case _ where reader < SettingsV4.version:
            var document = try SettingsV1(bytes: bytes, acceptingNewerVersions: true)
            let values = split(document.json, document.unknown)
            document.schemaVersion = reader
            return (values, document.unknown, document.json)
        default:
            var document = try SettingsV4(bytes: bytes, acceptingNewerVersions: true)
            let values = split(document.json, document.unknown)
            document.schemaVersion = reader
            return (values, document.unknown, document.json)
        }
    }

    /// The keys v2 adds to a work stream.
    package static let v2SessionKeys = MigrationStep.v1ToV2.addedWorkStreamKeys

    /// Checks (a)–(c) for one work-stream document of a v2 store, as a v1 reader; see
    /// ``checkWorkStream(bytes:file:original:reader:storeVersion:)``.
    package static func checkWorkStream(bytes: [UInt8], file: String, original: WorkStreamV1?) -> [Failure] {
        checkWorkStream(bytes: bytes, file: file, original: original.map { .v1($0) }, reader: 1, storeVersion: 2)
    }

    /// Checks (a)–(c) for one work-stream document as written on disk, as a reader of version `reader`.
    ///
    /// - Parameters:
    ///   - bytes: the document's bytes.
    ///   - original: the document before migration (from a backup), for check (b). Without it,
    ///     (b) checks only what the store alone shows: the reader's view carries every key the
    ///     steps after its version add, and every message names its containing work stream.
    ///   - reader: the older reader's version (1 or 2).
    ///   - storeVersion: the store's version: the keys of the steps from `reader` to it are the
    ///     newer keys the reader must keep.
    /// - Returns: the failures; empty when the document passes.
    package static func checkWorkStream(
        bytes: [UInt8], file: String, original: WorkStreamDocument?, reader: Int,
        storeVersion: Int
    ) -> [Failure] {
        let view: ReaderView
        do { view = try self.view(of: bytes, reader: reader) } catch {
            return [Failure(check: .v1Decodes, file: file, reason: error.reason, reader: reader)]
        }
        var failures: [Failure] = []
        func fail(_ check: Check, _ reason: String) { failures.append(Failure(check: check, file: file, reason: reason, reader: reader)) }
        let steps = MigrationChain.steps(from: reader, to: storeVersion)
        let newerKeys = steps.flatMap(\.addedWorkStreamKeys), newerMessageKeys = steps.flatMap(\.addedMessageKeys)
        for key in newerKeys {
            if v2SessionKeys.contains(key) {
                guard case .string? = view.unknown[key] else { fail(.valuesPreserved, "the v\(reader) view lacks '\(key)' as a string"); continue }
            } else if view.unknown[key] == nil {
                fail(.valuesPreserved, "the v\(reader) view lacks '\(key)'")
            }
        }
        if let (index, missing) = view.messageLacking(newerMessageKeys) {
            fail(.valuesPreserved, "messages[\(index)] lacks \(missing.map { "'\($0)'" }.joined(separator: " and "))")
        }
        if let original {
            for difference in differences(
                view: view, original: original, reader: reader, newerKeys: newerKeys,
                newerMessageKeys: newerMessageKeys)
            {
                fail(.valuesPreserved, difference)
            }
        } else {
            for m in view.messagesOfOtherWorkStreams {
                fail(.valuesPreserved, "message \(m.id.lowercased) has session_id \(m.sessionID.lowercased), not the containing id")
            }
        }
        if let reason = writeLoses(view: view, bytes: bytes, reader: reader) { fail(.v2KeysSurviveV1Write, reason) }
        return failures
    }

    /// Differences between the reader's view and what it saw before migration (`original`, taken
    /// to the reader's version by the chain) that are not reported normalisations (§6, §10).
    static func differences(
        view: ReaderView, original: WorkStreamDocument, reader: Int, newerKeys: [String],
        newerMessageKeys: [String]
    ) -> [String] {
        let before: ReaderView
        do {
            let atReader =
                original.schemaVersion >= reader
                ? original
                : try MigrationChain.migrateWorkStream(original, storeVersion: original.schemaVersion, to: reader).0
            before = try self.view(of: atReader.encoded, reader: reader)
        } catch {
            return ["the document before migration can't be read as version \(reader): \(error.reason)"]
        }
        var out: [String] = []
        switch (before, view) {
        case (.v1(let b), .v1(let v)): out += fieldDifference(expected: b.fields, actual: v.fields, newerMessageKeys: newerMessageKeys)
        case (.v2(let b), .v2(let v)): out += fieldDifference(expected: b.fields, actual: v.fields, newerMessageKeys: newerMessageKeys)
        case (.v3(let b), .v3(let v)): out += fieldDifference(expected: b.fields, actual: v.fields, newerMessageKeys: newerMessageKeys)
        default: out.append("the document before migration reads as another version than the migrated one as a v\(reader) reader")
        }
        var viewUnknown = view.unknown, beforeUnknown = before.unknown
        let cursorDefaults = Dictionary(uniqueKeysWithValues: zip(SyncCursors.keys, SyncCursors.defaults.values))
        for key in newerKeys {
            if let old = beforeUnknown.removeValue(forKey: key), viewUnknown[key] != old,
                !(cursorDefaults[key] != nil && viewUnknown[key] == cursorDefaults[key])
            {  // §10 cursor_reset
                out.append("'\(key)' was \(old.briefDescription) before migration, now \(viewUnknown[key]?.briefDescription ?? "absent")")
            }
            viewUnknown.removeValue(forKey: key)
        }
        if viewUnknown != beforeUnknown {
            let keys = Set(viewUnknown.keys).symmetricDifference(beforeUnknown.keys)
                .union(viewUnknown.keys.filter { beforeUnknown[$0] != nil && beforeUnknown[$0] != viewUnknown[$0] })
            out.append("unknown keys differ: \(keys.sorted().joined(separator: ", "))")
        }
        return out
    }

    /// The difference between the v1 keys a reader sees (`actual`) and those it saw before
    /// migration (`expected`), other than the allowed ones; empty when there is none.
    private static func fieldDifference<Message: WorkStreamMessage>(
        expected: WorkStreamFields<Message>, actual: WorkStreamFields<Message>, newerMessageKeys: [String]
    ) -> [String] {
        var expected = expected, actual = actual
        // Allowed: §6 rule 4 (message session_id → containing id) and the queue mirror (rule 5, §7).
        for i in expected.messages.indices where expected.messages[i].sessionID != expected.id { expected.messages[i].sessionID = expected.id }
        actual.queueKeys = expected.queueKeys
        // The newer message keys are the migration's own (checked for presence above).
        for key in newerMessageKeys {
            for i in expected.messages.indices { expected.messages[i].unknown.removeValue(forKey: key) }
            for i in actual.messages.indices { actual.messages[i].unknown.removeValue(forKey: key) }
        }
        guard actual != expected else { return [] }
        var w1 = ObjectWriter(unknown: [:]), w2 = ObjectWriter(unknown: [:])
        actual.write(into: &w1); expected.write(into: &w2)
        let keys = w1.object.keys.filter { w1.object[$0] != w2.object[$0] }.sorted()
        return ["values differ from the document before migration: \(keys.joined(separator: ", "))"]
    }

    /// The first of `messages` that lacks one of `keys` among its unknown keys, with those it lacks.
    private static func messageLacking<Message: WorkStreamMessage>(_ keys: [String], in messages: [Message]) -> (index: Int, missing: [String])? {
        guard let index = messages.firstIndex(where: { m in keys.contains { m.unknown[$0] == nil } }) else { return nil }
        return (index, keys.filter { messages[index].unknown[$0] == nil })
    }

    private static func messagesOfOtherWorkStreams<Message: WorkStreamMessage>(_ fields: WorkStreamFields<Message>) -> [(id: UUID, sessionID: UUID)] {
        fields.messages.filter { $0.sessionID != fields.id }.map { ($0.id, $0.sessionID) }
    }

    /// Simulates an older writer: read, change a value, write with its own `schema_version`;
    /// every other key of the document must come back with the same value.
    static func writeLoses(view: ReaderView, bytes: [UInt8], reader: Int) -> String? {
        guard case .object(let before)? = try? DocumentVersion.parse(bytes) else { return "the document is not an object" }
        guard case .object(let after) = view.written else { return "the v\(reader) writer produced no object" }
        let lost = before.keys.filter { $0 != "schema_version" && $0 != "unread_count" && after[$0] != before[$0] }.sorted()
        return lost.isEmpty ? nil : "a v\(reader) writer would lose or change: \(lost.joined(separator: ", "))"
    }

    /// Check (d): the queue a v1 reader derives from the per-session keys equals `queue.json`.
    /// - Returns: nil when they agree, else the first difference.
    package static func checkMirror(sessions: [WorkStreamQueueSummary], queue: QueueV2) -> Failure? {
        let derived = QueueBuilder.build(from: sessions)
        let strip: (QueueV2) -> ([FIFOEntry], [PriorityEntry]) = { q in
            (
                q.fifo.map { FIFOEntry(workStreamID: $0.workStreamID, queuedAt: $0.queuedAt) },
                q.priority.map {
                    PriorityEntry(workStreamID: $0.workStreamID, priority: $0.priority, priorityOrder: $0.priorityOrder, priorityQueuedAt: $0.priorityQueuedAt)
                }
            )
        }
        let (df, dp) = strip(derived), (qf, qp) = strip(queue)
        if df != qf {
            let i = (0..<min(df.count, qf.count)).first { df[$0] != qf[$0] } ?? min(df.count, qf.count)
            return Failure(
                check: .mirrorMatchesQueue, file: StoreLayout.queue,
                reason:
                    "FIFO position \(i + 1): the session keys give \(df.indices.contains(i) ? df[i].workStreamID.lowercased : "nothing"), queue.json has \(qf.indices.contains(i) ? qf[i].workStreamID.lowercased : "nothing") (\(df.count) vs \(qf.count) entries)"
            )
        }
        if dp != qp {
            let i = (0..<min(dp.count, qp.count)).first { dp[$0] != qp[$0] } ?? min(dp.count, qp.count)
            return Failure(
                check: .mirrorMatchesQueue, file: StoreLayout.queue,
                reason:
                    "priority entry \(i + 1): the session keys give \(dp.indices.contains(i) ? dp[i].workStreamID.lowercased : "nothing"), queue.json has \(qp.indices.contains(i) ? qp[i].workStreamID.lowercased : "nothing") (\(dp.count) vs \(qp.count) entries)"
            )
        }
        return nil
    }

    /// Check (d) for a reader of version 2 or later: it reads `queue.json` itself; its frozen
    /// type decodes the document (newer keys kept) to the same queue.
    package static func checkQueue(bytes: [UInt8], reader: Int, current: QueueV2) -> Failure? {
        do {
            let seen = try QueueV2(bytes: bytes, acceptingNewerVersions: true)
            guard seen.fifo == current.fifo, seen.priority == current.priority else {
                return Failure(check: .mirrorMatchesQueue, file: StoreLayout.queue, reason: "a v\(reader) reader reads another queue from it", reader: reader)
            }
            return nil
        } catch {
            return Failure(check: .mirrorMatchesQueue, file: StoreLayout.queue, reason: "a v\(reader) reader can't read it: \(error.reason)", reader: reader)
        }
    }
}
