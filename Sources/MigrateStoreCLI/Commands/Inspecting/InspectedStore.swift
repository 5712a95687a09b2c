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
    var schemaVersion: Int {
        switch store.compatibility {
        case .current: DocumentVersion.current
        case .needsMigration(let from): from
        case .superseded(let version, _), .refused(let version, _, _): version
        }
    }

    /// True for a store `migrate` has not upgraded yet: its queue lives in the session keys.
    var isV1: Bool {
        if case .needsMigration = store.compatibility { return true }
        return false
    }

    /// `path` relative to the store folder (`sessions/<id>.json`), or `path` itself when outside it.
    func relative(_ path: String?) -> String { StoreProblem.relative(path, to: store.path) }

    /// Runs a store call, turning its error into the command's error.
    func call<T>(_ body: () throws(StoreError) -> T) throws -> T {
        do { return try body() } catch { throw InspectFailure.commandError(error) }
    }

    /// The queue as v2 code sees it, and where it came from: `queue.json`, or (v1 store, or a
    /// v2 store that lacks it) the per-session keys of the readable work streams.
    func queue(summaries: [WorkStreamSummary]) throws -> (queue: QueueV2, source: QueueSource) {
        if !isV1, let document = try call({ () throws(StoreError) in try store.queueDocument() }) {
            return (document, .queueDocument)
        }
        return (QueueBuilder.build(from: summaries.map(\.queueSummary)), isV1 ? .sessionKeysV1 : .sessionKeysMissingDocument)
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

    /// The side that is the truth about the queue.
    var truth: QueueTruth { self == .queueDocument ? .queueDocument : .sessionKeys }

    /// The stable code for `--json`: `queue.json`, `session_keys` or `session_keys_no_queue_json`.
    var code: String {
        switch self {
        case .queueDocument: StoreLayout.queue
        case .sessionKeysV1: QueueTruth.sessionKeys.rawValue
        case .sessionKeysMissingDocument: QueueTruth.sessionKeys.rawValue + "_no_queue_json"
        }
    }

    /// One line for people.
    var sentence: String {
        switch self {
        case .queueDocument: "queue.json (v2 store)"
        case .sessionKeysV1: "queue.json: absent (v1 store); the queue comes from the session keys"
        case .sessionKeysMissingDocument: "queue.json: absent (a v2 store should have one); the queue comes from the session keys"
        }
    }
}

/// How a `StoreError` becomes the error of an inspecting command: the exit status of the one
/// mapping (`StoreError+ExitCode.swift`), and the error's full description as the message.
enum InspectFailure {
    static func commandError(_ error: StoreError) -> CommandError {
        CommandError(error.exitCode, error.description)
    }
}

extension StoreProblem {
    /// `{"file": …, "key_path": …, "code": …, "message": …, "fix": …}` for `--json`.
    var json: JSONOutputValue {
        ["file": .string(file), "key_path": keyPath.map(JSONOutputValue.string) ?? .null,
         "code": .string(code), "message": .string(message), "fix": .string(fix)]
    }
}
