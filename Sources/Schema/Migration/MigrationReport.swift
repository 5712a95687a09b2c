import Foundation

/// One change a migration or a reconcile makes to one document.
public enum Change: Sendable, Hashable, CustomStringConvertible {
    case schemaVersion(from: Int, to: Int)
    /// §6 rules 1–2: a key that was absent got its value.
    case addedKey(String, value: String)
    /// §6 rule 1: an existing `provider_session_id` that differs from `id` was kept (not a change; reported).
    case keptProviderSessionID(String)
    /// §6 rule 4: a message's `session_id` was set to the containing work stream's id.
    case messageSessionIDFixed(messageID: UUID, from: UUID, to: UUID)
    /// §6 rule 5: FIFO positions renumbered 1…n.
    case queuePositionRenumbered(from: Int32, to: Int32)
    /// §6 rule 5: a position on a session that is not queued became 0.
    case queuePositionCleared(from: Int32)
    /// §7: a mirror key rewritten from `queue.json` (rendered values).
    case mirrorKey(String, from: String, to: String)
    /// `queue.json` built from the per-session keys (§6, §7) with this many entries.
    case queueBuilt(fifo: Int, priority: Int)
    /// §7: a queue entry whose work stream does not exist was removed.
    case queueEntryDropped(list: String, workStreamID: UUID)
    /// `store.json` now says `schema_version` 2 with `min_reader_version` 1.
    case manifestUpgraded(from: Int, to: Int)
    /// A migration record was appended to `store.json`.
    case migrationRecorded
    /// §10: this many messages got `seq` and `offset` with their defaults.
    case messageKeysAdded(messages: Int)
    /// §10: a cursor an older writer left (rendered value) was set back to its default.
    case cursorReset(String, from: String)
    /// §11: a key renamed, its value kept verbatim (`backend_name` ↔ `name`).
    case keyRenamed(String, to: String)
    /// §11: the seven per-session queue keys were removed (the queue lives in `queue.json`).
    case mirrorKeysRemoved
    /// §11 inverse: the seven per-session queue keys were written from `queue.json`.
    case mirrorKeysWritten
    /// §11: a queue key whose value `queue.json` does not imply (rendered), dropped by the rename.
    case staleMirrorKey(String, value: String)
    /// §11: a key an older writer left (an unknown key to it) whose value is not of the type the
    /// new version gives the key (`expected`): reported and replaced by the default (rendered).
    case wrongTypeReplaced(String, found: String, expected: String, value: String)
    /// The other layout's folder, left by an interrupted layout change (the same work streams as
    /// the store's folder, each at the other side's version), was removed with its files.
    case leftoverFolderRemoved(workStreams: Int)

    /// A stable identifier for scripts (`--json`).
    public var code: String {
        switch self {
        case .schemaVersion: "schema_version"
        case .addedKey: "added_key"
        case .keptProviderSessionID: "kept_provider_session_id"
        case .messageSessionIDFixed: "message_session_id_fixed"
        case .queuePositionRenumbered: "queue_position_renumbered"
        case .queuePositionCleared: "queue_position_cleared"
        case .mirrorKey: "mirror_key"
        case .queueBuilt: "queue_built"
        case .queueEntryDropped: "queue_entry_dropped"
        case .manifestUpgraded: "manifest_upgraded"
        case .migrationRecorded: "migration_recorded"
        case .messageKeysAdded: "message_keys_added"
        case .cursorReset: "cursor_reset"
        case .keyRenamed: "key_renamed"
        case .mirrorKeysRemoved: "mirror_keys_removed"
        case .mirrorKeysWritten: "mirror_keys_written"
        case .staleMirrorKey: "stale_mirror_key"
        case .leftoverFolderRemoved: "leftover_folder_removed"
        case .wrongTypeReplaced: "wrong_type_replaced"
        }
    }

    /// True for the normalisations of §6 (changes of a value a v1 reader sees), as opposed to additions.
    public var isNormalisation: Bool {
        switch self {
        case .messageSessionIDFixed, .queuePositionRenumbered, .queuePositionCleared, .mirrorKey, .queueEntryDropped, .cursorReset, .staleMirrorKey,
            .wrongTypeReplaced:
            true
        default: false
        }
    }

    /// False for reports that change no byte (`keptProviderSessionID`).
    public var changesBytes: Bool { if case .keptProviderSessionID = self { false } else { true } }

    public var description: String {
        switch self {
        case .schemaVersion(let f, let t): "schema_version \(f) → \(t)"
        case .addedKey(let k, let v): "add \(k) = '\(v)'"
        case .keptProviderSessionID(let v): "keep existing provider_session_id '\(v)' (differs from id)"
        case .messageSessionIDFixed(let m, let f, let t): "message \(m.lowercased): session_id \(f.lowercased) → \(t.lowercased) (containment wins)"
        case .queuePositionRenumbered(let f, let t): "queue_position \(f) → \(t) (renumbered 1…n)"
        case .queuePositionCleared(let f): "queue_position \(f) → 0 (not in the queue)"
        case .mirrorKey(let k, let f, let t): "\(k) \(f) → \(t) (mirror of queue.json)"
        case .queueBuilt(let f, let p): "write queue.json: \(f) FIFO, \(p) priority entries"
        case .queueEntryDropped(let l, let id): "drop \(l) entry for missing work stream \(id.lowercased)"
        case .manifestUpgraded(let f, let t): "schema_version \(f) → \(t), min_reader_version \(MigrationChain.minReaderVersion(at: t))"
        case .migrationRecorded: "append a migration record"
        case .messageKeysAdded(let n): "add seq = 0 and offset = 0 to \(n) message\(n == 1 ? "" : "s")"
        case .cursorReset(let k, let f): "\(k) \(f) → default (written by an older app after the upgrade; re-synced from the start)"
        case .keyRenamed(let k, let t): "rename \(k) to \(t) (value kept)"
        case .mirrorKeysRemoved: "remove the seven queue keys (the queue is in queue.json)"
        case .mirrorKeysWritten: "write the seven queue keys from queue.json"
        case .staleMirrorKey(let k, let v): "drop \(k) = \(v): queue.json does not imply it (a stale leftover)"
        case .wrongTypeReplaced(let k, let f, let e, let v): "\(k) = \(f) is not \(e), the type the new version gives the key → '\(v)' (the default)"
        case .leftoverFolderRemoved(let n):
            "remove the folder and its \(n) work stream file\(n == 1 ? "" : "s"), left by an interrupted layout change (the store's folder holds the same work streams)"
        }
    }
}

/// The changes to one file, named relative to the store (`sessions/<id>.json`).
public struct DocumentChanges: Sendable, Hashable {
    public var file: String
    public var changes: [Change]

    public init(file: String, changes: [Change]) { self.file = file; self.changes = changes }

    /// True when the file's bytes change.
    public var rewritesFile: Bool { changes.contains(where: \.changesBytes) }
}

/// Everything a migration does, per document, in the order it writes; what a dry run prints.
///
/// Totals are always kept. The per-document list is kept unless `keepsDocuments` is false, so
/// that a migration of a large store can report in constant memory.
public struct MigrationReport: Sendable, Hashable {
    /// The documents that change, in write order (empty when `keepsDocuments` is false).
    public private(set) var documents: [DocumentChanges] = []
    /// Totals by change code.
    public private(set) var totals: [String: Int] = [:]
    /// Totals by change code, of the changes that rewrite bytes (the migration record's counts after a rollback).
    public private(set) var rewritingTotals: [String: Int] = [:]
    /// How many files change.
    public private(set) var filesChanged = 0
    /// Keep every document's changes. The default is `true`.
    public var keepsDocuments: Bool

    package init(documents: [DocumentChanges] = [], keepsDocuments: Bool = true) {
        self.keepsDocuments = keepsDocuments
        for document in documents { append(document) }
    }

    /// Adds the changes of one document.
    package mutating func append(_ document: DocumentChanges) {
        for change in document.changes {
            totals[change.code, default: 0] += 1
            if change.changesBytes { rewritingTotals[change.code, default: 0] += 1 }
        }
        if document.rewritesFile { filesChanged += 1 }
        if keepsDocuments { documents.append(document) }
    }

    /// Adds more changes to a file already appended (its count of changed files stays the same).
    /// For reports that keep totals only.
    package mutating func appendMore(_ changes: [Change]) {
        for change in changes {
            totals[change.code, default: 0] += 1
            if change.changesBytes { rewritingTotals[change.code, default: 0] += 1 }
        }
    }

    /// Adds the report of a later run over the same store (the breaking step after the
    /// rollback-safe ones): totals add up; a file counts once, so `filesChanged` is the larger.
    package mutating func merge(_ later: MigrationReport) {
        for (code, count) in later.totals { totals[code, default: 0] += count }
        for (code, count) in later.rewritingTotals { rewritingTotals[code, default: 0] += count }
        filesChanged = max(filesChanged, later.filesChanged)
        if keepsDocuments { documents += later.documents }
    }

    /// True when no file would change: the store is already migrated.
    public var isNoop: Bool { filesChanged == 0 }
}
