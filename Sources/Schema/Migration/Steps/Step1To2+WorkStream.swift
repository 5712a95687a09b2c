import Foundation
import StoreJSON

/// v1 → v2 migration of one work-stream document (spec §6 rules 1–4), and the mirror of the queue.
public enum WorkStreamMigration {
    /// Applies rules 1–4 to a v1 document:
    ///
    /// 1. `provider_session_id` := lowercase `id` only if absent; an existing string is never changed.
    /// 2. `provider` := `"claude"` only if absent.
    /// 3. Every other key, known or unknown, keeps its value.
    /// 4. A message whose `session_id` differs from the containing `id` gets the containing `id`.
    ///
    /// - Throws: `.wrongType` when an existing `provider_session_id` or `provider` (kept as an
    ///   unknown key by a v1 writer) is not a string: it cannot be kept and must not be overwritten.
    public static func migrate(_ v1: WorkStreamV1) throws(SchemaError) -> (WorkStreamV2, [Change]) {
        var changes: [Change] = [.schemaVersion(from: v1.schemaVersion, to: WorkStreamV2.version)]
        var unknown = v1.unknown
        let id = v1.fields.id
        var hadProviderSessionID = false
        if case .string? = unknown["provider_session_id"] { hadProviderSessionID = true }
        let providerSessionID = try takeString(&unknown, "provider_session_id", default: id.lowercased, changes: &changes)
        if hadProviderSessionID && providerSessionID != id.lowercased {
            changes.append(.keptProviderSessionID(providerSessionID))
        }
        let provider = try takeString(&unknown, "provider", default: WorkStreamRules.defaultProvider, changes: &changes)
        var fields = v1.fields
        for i in fields.messages.indices where fields.messages[i].sessionID != id {
            changes.append(.messageSessionIDFixed(messageID: fields.messages[i].id, from: fields.messages[i].sessionID, to: id))
            fields.messages[i].sessionID = id
        }
        return (WorkStreamV2(fields: fields, providerSessionID: providerSessionID, provider: provider, unknown: unknown), changes)
    }

    /// Removes `key` from the unknown keys and returns its string, or `fallback` (reported as added) when absent or null.
    private static func takeString(
        _ unknown: inout JSONObject, _ key: String, default fallback: String,
        changes: inout [Change]
    ) throws(SchemaError) -> String {
        switch unknown.removeValue(forKey: key) {
        case .string(let s)?:
            return s
        case nil, .null?:
            changes.append(.addedKey(key, value: fallback))
            return fallback
        case let other?:
            throw SchemaError(
                code: .wrongType, keyPath: key, expected: "a string", found: other.typeName,
                detail: "an existing value is never overwritten by the migration; fix or remove it by hand")
        }
    }

    /// Sets the mirror keys `index` implies and reports each change (§6 rule 5 normalisations, §7 mirror rewrite).
    package static func applyMirror(_ index: QueueIndex, to fields: inout WorkStreamKeys) -> [Change] {
        let old = fields.queueKeys
        let new = index.mirror(for: fields.id, current: old)
        guard new != old else { return [] }
        fields.queueKeys = new
        return mirrorChanges(old: old, new: new)
    }

    /// The changes that rewriting the queue keys from `old` to `new` reports.
    package static func mirrorChanges(old: QueueKeys, new: QueueKeys) -> [Change] {
        var changes: [Change] = []
        func note<T: Equatable>(_ key: String, _ a: T, _ b: T, _ render: (T) -> String) {
            if a != b { changes.append(.mirrorKey(key, from: render(a), to: render(b))) }
        }
        let date: (Date?) -> String = { $0.map(RFC3339.format) ?? "null" }
        note("is_in_queue", old.isInQueue, new.isInQueue) { "\($0)" }
        if old.queuePosition != new.queuePosition {
            if new.queuePosition == 0 && !new.isInQueue && !old.isInQueue {
                changes.append(.queuePositionCleared(from: old.queuePosition))
            } else if old.isInQueue && new.isInQueue {
                changes.append(.queuePositionRenumbered(from: old.queuePosition, to: new.queuePosition))
            } else {
                changes.append(.mirrorKey("queue_position", from: "\(old.queuePosition)", to: "\(new.queuePosition)"))
            }
        }
        note("queued_at", old.queuedAt, new.queuedAt, date)
        note("is_in_priority_queue", old.isInPriorityQueue, new.isInPriorityQueue) { "\($0)" }
        note("priority", old.priority, new.priority) { "\($0)" }
        note("priority_order", old.priorityOrder, new.priorityOrder) { JSONNumber($0).literal }
        note("priority_queued_at", old.priorityQueuedAt, new.priorityQueuedAt, date)
        return changes
    }
}

extension WorkStreamV2 {
    /// The v2 document for a v1 one (spec §6 rules 1–4); see `WorkStreamMigration.migrate`.
    public init(migrating v1: WorkStreamV1) throws(SchemaError) {
        self = try WorkStreamMigration.migrate(v1).0
    }
}
