import Foundation
import JSONStore
import Schema

/// A store opened for an inspecting command: read-only (no lock file, no temp sweep, no
/// reconcile), with the helpers every inspecting command shares.
struct InspectedStore {
    let store: Store

    /// Opens `path` read-only.
    ///
    /// - Throws: `CommandError` with the exit status of `StoreError.exitCode`.
    init(path: String) throws {
        do {
            store = try Store.open(at: path, options: .readOnly)
        } catch {
            throw InspectFailure.commandError(error)
        }
    }

    var path: String { store.path }

    /// The store's schema version as `store.json` says (1 for a v1 store).
    var schemaVersion: Int { store.compatibility.storeSchemaVersion }

    /// True for a v1 store: its queue lives in the session keys.
    var isV1: Bool { store.compatibility.isV1 }

    /// `path` relative to the store folder (`sessions/<id>.json`), or `path` itself when outside it.
    func relative(_ path: String?) -> String { StoreProblem.relative(path, to: store.path) }

    /// Runs a store call, turning its error into the command's error.
    func call<T>(_ body: () throws(StoreError) -> T) throws -> T {
        do { return try body() } catch { throw InspectFailure.commandError(error) }
    }

    /// The queue as the next writer will establish it (spec §7), and where it came from:
    /// in a v5 store `queue.json` as it is (no mirror, no reconcile, spec §12); else
    /// `queue.json`, or (v1 store, or a v2 store that lacks it) the per-session keys of the
    /// readable work streams. On a v2 store a v1 writer touched, or whose `queue.json` names
    /// work streams that no longer exist, this is `QueueResolution.resolve`'s queue (the one
    /// `migrate` and the reconcile on opening for writing write), not `queue.json`'s stale one.
    ///
    /// - Parameter complete: false when some work stream can't be read: the reconcile needs every
    ///   session's keys (it refuses to run without them), so `queue.json` is shown as it is.
    func queue(summaries: [WorkStreamSummary], complete: Bool = true) throws -> InspectedQueue {
        let sessions = summaries.map(\.queueSummary)
        if store.hasRenamedLayout {
            // v5 (spec §12): queue.json is the queue, with no mirror and no reconcile; absent, nothing is queued.
            let document = try call({ () throws(StoreError) in try store.queueDocument() })
            return InspectedQueue(
                queue: try call({ () throws(StoreError) in try store.queue() }), source: .queueDocument,
                document: document, pendingReconcile: nil)
        }
        guard !isV1, let document = try call({ () throws(StoreError) in try store.queueDocument() }) else {
            return InspectedQueue(
                queue: QueueBuilder.build(from: sessions), source: isV1 ? .sessionKeysV1 : .sessionKeysMissingDocument,
                document: nil, pendingReconcile: nil)
        }
        guard complete else { return InspectedQueue(queue: document, source: .queueDocument, document: document, pendingReconcile: nil) }
        let resolved = QueueResolution.resolve(manifestVersion: schemaVersion, target: schemaVersion, sessions: sessions, existing: document)
        let v1Written = sessions.filter { $0.schemaVersion < 2 }.count
        let dropped = resolved.changes.filter { if case .queueEntryDropped = $0 { true } else { false } }.count
        let index = QueueIndex(resolved.queue)
        let mirrorStale = sessions.filter { index.mirror(for: $0.id, current: $0.keys) != $0.keys }.count
        var reasons: [String] = []
        if v1Written > 0 {
            reasons.append(
                "a v1 writer wrote \(TextFormat.plural(v1Written, "work stream")), so the session keys are the truth and queue.json is rebuilt from them")
        }
        if dropped > 0 { reasons.append("queue.json has \(TextFormat.plural(dropped, "entry", "entries")) for work streams that no longer exist") }
        if v1Written == 0, dropped == 0, mirrorStale > 0 {
            reasons.append("the session keys of \(TextFormat.plural(mirrorStale, "work stream")) disagree with queue.json, which is the truth")
        }
        let pending = reasons.isEmpty ? nil : reasons.joined(separator: "; ")
        return InspectedQueue(
            queue: resolved.queue, source: resolved.truth == .sessionKeys ? .sessionKeysV1Writer : .queueDocument,
            document: document, pendingReconcile: pending)
    }
}

/// The queue an inspecting command shows: the one the next writer establishes.
struct InspectedQueue {
    /// The queue after the §7 rules (`queue.json` itself when nothing is pending).
    let queue: QueueV2
    let source: QueueSource
    /// `queue.json` as stored, on a v2 store that has one.
    let document: QueueV2?
    /// Why the next writer will rewrite the queue or its mirror (spec §7); nil when nothing is pending.
    let pendingReconcile: String?

    /// The one line for people, when a reconcile is pending.
    var pendingLine: String? {
        pendingReconcile.map {
            "Reconcile pending: \($0). Shown is the queue the next writer ('migrate-store migrate', or any client opening the store for writing) establishes."
        }
    }
}

/// Where the queue an inspecting command shows comes from: the side spec §7 makes the truth
/// (``QueueTruth``), told apart further for people by why the session keys are used.
enum QueueSource {
    /// `queue.json` of a v2 store.
    case queueDocument
    /// A v1 store: the per-session keys (spec §6 rules 5–6).
    case sessionKeysV1
    /// A v2 store without `queue.json`: the per-session keys.
    case sessionKeysMissingDocument
    /// A v2 store with a work stream a v1 writer wrote: the per-session keys (spec §7).
    case sessionKeysV1Writer

    /// The side that is the truth about the queue.
    var truth: QueueTruth { self == .queueDocument ? .queueDocument : .sessionKeys }

    /// The stable code for `--json`: `queue.json`, `session_keys`, `session_keys_no_queue_json` or `session_keys_v1_writer`.
    var code: String {
        switch self {
        case .queueDocument: StoreLayout.queue
        case .sessionKeysV1: QueueTruth.sessionKeys.rawValue
        case .sessionKeysMissingDocument: QueueTruth.sessionKeys.rawValue + "_no_queue_json"
        case .sessionKeysV1Writer: QueueTruth.sessionKeys.rawValue + "_v1_writer"
        }
    }

    /// One line for people.
    var sentence: String {
        switch self {
        case .queueDocument: StoreLayout.queue
        case .sessionKeysV1: "queue.json: absent (v1 store); the queue comes from the session keys"
        case .sessionKeysMissingDocument: "queue.json: absent (a store of v2 or later should have one); the queue comes from the session keys"
        case .sessionKeysV1Writer:
            "the session keys (a v1 writer wrote to this store after its upgrade, spec §7); queue.json is stale until the next writer rebuilds it"
        }
    }
}

/// How a `StoreError` becomes the error of an inspecting command: the exit status of the one
/// mapping (`StoreError+ExitCode.swift`), and the error's full description as the message.
enum InspectFailure {
    static func commandError(_ error: StoreError) -> CommandError {
        CommandError(error.exitCode, error.printedDescription)
    }
}

extension StoreProblem {
    /// `{"file": …, "key_path": …, "code": …, "message": …, "fix": …}` for `--json`.
    var json: JSONOutputValue {
        [
            "file": .string(file), "key_path": keyPath.map(JSONOutputValue.string) ?? .null,
            "code": .string(code), "message": .string(message), "fix": .string(printedFix),
        ]
    }
}
