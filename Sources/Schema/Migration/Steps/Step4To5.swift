import Foundation
import StoreJSON

/// v4 → v5 (spec §12), the breaking rename, and its exact inverse v5 → v4, per work stream.
///
/// Forward: `backend_name` becomes `name` (verbatim), the seven per-session queue keys are
/// removed (the queue lives in `queue.json` only), `schema_version` becomes 5. A queue key whose
/// value `queue.json` does not imply (what the inverse would write back: the entry's values, or
/// the defaults of §3 for a work stream that is not queued) is a stale leftover: it is reported
/// as a normalisation (`stale_mirror_key`) before it is dropped. Inverse: `name` becomes
/// `backend_name`, the mirror keys are written from `queue.json`, `schema_version` becomes 4.
/// So for every document, inverse(forward(d)) equals d except the reported normalisations.
///
/// The step also moves the work streams from `sessions/` to `work-streams/` (its layout effect):
/// the store engine (JSONStore's `StoreMigrator`) reads that from the chain, moves the folder, and
/// calls these transforms with the store's queue.
extension MigrationStep {
    public static let v4ToV5 = MigrationStep(
        from: 4, to: 5, kind: .breaking,
        summary: "renames sessions/ to work-streams/ and backend_name to name, and drops the queue mirror keys (§12)",
        addedWorkStreamKeys: ["name"], addedMessageKeys: [], normalisations: ["stale_mirror_key"],
        inverse: InverseStep(from: 5, to: 4) { (document, context) throws(SchemaError) in
            guard case .v5(let v5) = document else { return (document, []) }
            let (v4, changes) = try RenameStep.inverse(v5, queue: context.queue)
            return (.v3(v4), changes)
        },
        layout: .renamesWorkStreamsFolder(from: StoreLayout.workStreamsFolder, to: StoreLayout.renamedWorkStreamsFolder)
    ) { (document, context) throws(SchemaError) in
        guard case .v3(let v4) = document else { return (document, []) }
        let (v5, changes) = try RenameStep.forward(v4, queue: context.queue)
        return (.v5(v5), changes)
    }
}

public enum RenameStep {
    /// The queue keys v5 removes, in spec order.
    public static let mirrorKeys = [
        "is_in_queue", "queue_position", "queued_at", "is_in_priority_queue", "priority",
        "priority_order", "priority_queued_at",
    ]

    /// The v5 document for a v4 one (a `WorkStreamV3` at version 4: v4 added no work-stream key),
    /// given the store's queue.
    /// - Throws: `.invalidValue` when the document has an unknown key the rename would overwrite
    ///   (`name`): it can't be kept, and must not be lost.
    public static func forward(_ v4: WorkStreamV3, queue: QueueIndex) throws(SchemaError) -> (WorkStreamV5, [Change]) {
        if let taken = v4.unknown["name"] {
            throw SchemaError(
                code: .invalidValue, keyPath: "name", expected: "no key 'name' (v5 renames backend_name to it)",
                found: taken.briefDescription,
                detail: "rename or remove the key by hand before the breaking upgrade")
        }
        let f = v4.fields
        var changes: [Change] = [.schemaVersion(from: v4.schemaVersion, to: WorkStreamV5.version), .keyRenamed("backend_name", to: "name")]
        let implied = queue.mirror(for: f.id, current: QueueKeys.defaults)
        changes += WorkStreamMigration.mirrorChanges(old: f.queueKeys, new: implied).map(staleKey)
        changes.append(.mirrorKeysRemoved)
        let v5 = WorkStreamV5(
            id: f.id, name: f.backendName, workingDirectory: f.workingDirectory, lastModified: f.lastModified,
            isLocallyCreated: f.isLocallyCreated, messageCount: f.messageCount, preview: f.preview,
            unreadCount: f.unreadCount, messages: f.messages, providerSessionID: v4.providerSessionID,
            provider: v4.provider, cursors: v4.cursors, unknown: v4.unknown)
        return (v5, changes)
    }

    /// The v4 document (a `WorkStreamV3` at version 4) for a v5 one, given the store's queue: the
    /// exact inverse of ``forward(_:queue:)``.
    /// - Throws: `.invalidValue` when the document has an unknown key the inverse would overwrite
    ///   (`backend_name` or a queue key).
    public static func inverse(_ v5: WorkStreamV5, queue: QueueIndex) throws(SchemaError) -> (WorkStreamV3, [Change]) {
        for key in ["backend_name"] + mirrorKeys {
            if let taken = v5.unknown[key] {
                throw SchemaError(
                    code: .invalidValue, keyPath: key, expected: "no key '\(key)' (v4 writes it)", found: taken.briefDescription,
                    detail: "rename or remove the key by hand before going back to v4")
            }
        }
        var fields = WorkStreamFieldsV3(
            WorkStreamKeys(
                id: v5.id, backendName: v5.name, workingDirectory: v5.workingDirectory,
                lastModified: v5.lastModified, isLocallyCreated: v5.isLocallyCreated,
                messageCount: v5.messageCount, preview: v5.preview, unreadCount: v5.unreadCount), messages: v5.messages)
        fields.queueKeys = queue.mirror(for: v5.id, current: QueueKeys.defaults)
        let v4 = WorkStreamV3(
            fields: fields, providerSessionID: v5.providerSessionID, provider: v5.provider, cursors: v5.cursors,
            unknown: v5.unknown, schemaVersion: MigrationStep.v4ToV5.from)
        return (
            v4,
            [
                .schemaVersion(from: v5.schemaVersion, to: MigrationStep.v4ToV5.from), .keyRenamed("name", to: "backend_name"),
                .mirrorKeysWritten,
            ]
        )
    }

    /// A mirror change, as what the forward step drops.
    private static func staleKey(_ change: Change) -> Change {
        switch change {
        case .mirrorKey(let key, let from, _): .staleMirrorKey(key, value: from)
        case .queuePositionRenumbered(let from, _), .queuePositionCleared(let from): .staleMirrorKey("queue_position", value: "\(from)")
        default: change
        }
    }
}
