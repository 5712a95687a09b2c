import Foundation
import StoreJSON

/// v3 → v4 (spec §11), the breaking rename, and its exact inverse v4 → v3, per work stream.
///
/// Forward: `backend_name` becomes `name` (verbatim), the seven per-session queue keys are
/// removed (the queue lives in `queue.json` only), `schema_version` becomes 4. A queue key whose
/// value `queue.json` does not imply (what the inverse would write back: the entry's values, or
/// the defaults of §3 for a work stream that is not queued) is a stale leftover: it is reported
/// as a normalisation (`stale_mirror_key`) before it is dropped. Inverse: `name` becomes
/// `backend_name`, the mirror keys are written from `queue.json`, `schema_version` becomes 3.
/// So for every document, inverse(forward(d)) equals d except the reported normalisations.
///
/// The step also moves the work streams from `sessions/` to `work-streams/` (its layout effect):
/// the store engine (JSONStore's `LayoutChange`) reads that from the chain, moves the folder, and
/// calls these transforms with the store's queue.
extension MigrationStep {
    public static let v3ToV4 = MigrationStep(
        from: 3, to: 4, kind: .breaking,
        summary: "renames sessions/ to work-streams/ and backend_name to name, and drops the queue mirror keys (§11)",
        addedWorkStreamKeys: ["name"], addedMessageKeys: [], normalisations: ["stale_mirror_key"],
        inverse: InverseStep(from: 4, to: 3) { (document, context) throws(SchemaError) in
            guard case .v4(let v4) = document else { return (document, []) }
            let (v3, changes) = try RenameStep.inverse(v4, queue: context.queue)
            return (.v3(v3), changes)
        },
        layout: .renamesWorkStreamsFolder(from: StoreLayout.workStreamsFolder, to: StoreLayout.workStreamsFolderV4)
    ) { (document, context) throws(SchemaError) in
        guard case .v3(let v3) = document else { return (document, []) }
        let (v4, changes) = try RenameStep.forward(v3, queue: context.queue)
        return (.v4(v4), changes)
    }
}

public enum RenameStep {
    /// The queue keys v4 removes, in spec order.
    public static let mirrorKeys = [
        "is_in_queue", "queue_position", "queued_at", "is_in_priority_queue", "priority",
        "priority_order", "priority_queued_at",
    ]

    /// The v4 document for a v3 one, given the store's queue.
    /// - Throws: `.invalidValue` when the document has an unknown key the rename would overwrite
    ///   (`name`): it can't be kept, and must not be lost.
    public static func forward(_ v3: WorkStreamV3, queue: QueueIndex) throws(SchemaError) -> (WorkStreamV4, [Change]) {
        if let taken = v3.unknown["name"] {
            throw SchemaError(
                code: .invalidValue, keyPath: "name", expected: "no key 'name' (v4 renames backend_name to it)",
                found: taken.briefDescription,
                detail: "rename or remove the key by hand before the breaking upgrade")
        }
        let f = v3.fields
        var changes: [Change] = [.schemaVersion(from: v3.schemaVersion, to: WorkStreamV4.version), .keyRenamed("backend_name", to: "name")]
        let implied = queue.mirror(for: f.id, current: QueueKeys.defaults)
        changes += WorkStreamMigration.mirrorChanges(old: f.queueKeys, new: implied).map(staleKey)
        changes.append(.mirrorKeysRemoved)
        let v4 = WorkStreamV4(
            id: f.id, name: f.backendName, workingDirectory: f.workingDirectory, lastModified: f.lastModified,
            isLocallyCreated: f.isLocallyCreated, messageCount: f.messageCount, preview: f.preview,
            unreadCount: f.unreadCount, messages: f.messages, providerSessionID: v3.providerSessionID,
            provider: v3.provider, cursors: v3.cursors, unknown: v3.unknown)
        return (v4, changes)
    }

    /// The v3 document for a v4 one, given the store's queue: the exact inverse of ``forward(_:queue:)``.
    /// - Throws: `.invalidValue` when the document has an unknown key the inverse would overwrite
    ///   (`backend_name` or a queue key).
    public static func inverse(_ v4: WorkStreamV4, queue: QueueIndex) throws(SchemaError) -> (WorkStreamV3, [Change]) {
        for key in ["backend_name"] + mirrorKeys {
            if let taken = v4.unknown[key] {
                throw SchemaError(
                    code: .invalidValue, keyPath: key, expected: "no key '\(key)' (v3 writes it)", found: taken.briefDescription,
                    detail: "rename or remove the key by hand before going back to v3")
            }
        }
        var fields = WorkStreamFieldsV1(
            id: v4.id, backendName: v4.name, workingDirectory: v4.workingDirectory,
            lastModified: v4.lastModified, isLocallyCreated: v4.isLocallyCreated,
            messageCount: v4.messageCount, preview: v4.preview, unreadCount: v4.unreadCount,
            messages: v4.messages)
        fields.queueKeys = queue.mirror(for: v4.id, current: QueueKeys.defaults)
        let v3 = WorkStreamV3(
            fields: fields, providerSessionID: v4.providerSessionID, provider: v4.provider, cursors: v4.cursors,
            unknown: v4.unknown)
        return (
            v3,
            [
                .schemaVersion(from: v4.schemaVersion, to: WorkStreamV3.version), .keyRenamed("name", to: "backend_name"),
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
