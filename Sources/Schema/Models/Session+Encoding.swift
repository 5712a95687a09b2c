import Foundation

// The canonical bytes of a work-stream document (SessionV1, SessionV2), written directly
// (see CanonicalWriter) instead of through `json` and `JSONWriter`, which build and sort a
// dictionary per object: the encoding is the largest CPU cost of a migration and of an update.

/// Writes work-stream documents: the keys of `SessionFieldsV1`, `schema_version`, and for v2 the
/// provider keys.
enum SessionEncoding {
    enum Field: Sendable {
        case schemaVersion, id, backendName, workingDirectory, isLocallyCreated, lastModified, messageCount
        case preview, unreadCount, isInQueue, queuePosition, queuedAt, isInPriorityQueue, priority
        case priorityOrder, priorityQueuedAt, messages, providerSessionID, provider
    }

    /// The keys `SessionV1.json` sets.
    static let v1 = KeyLayout<Field>(level: 0, v1Keys)

    /// The keys `SessionV2.json` sets.
    static let v2 = KeyLayout<Field>(level: 0, v1Keys + [(.providerSessionID, "provider_session_id"), (.provider, "provider")])

    private static var v1Keys: [(Field, String)] {
        [
            (.schemaVersion, "schema_version"), (.id, "id"), (.backendName, "backend_name"),
            (.workingDirectory, "working_directory"), (.isLocallyCreated, "is_locally_created"),
            (.lastModified, "last_modified"), (.messageCount, "message_count"), (.preview, "preview"),
            (.unreadCount, "unread_count"), (.isInQueue, "is_in_queue"), (.queuePosition, "queue_position"),
            (.queuedAt, "queued_at"), (.isInPriorityQueue, "is_in_priority_queue"), (.priority, "priority"),
            (.priorityOrder, "priority_order"), (.priorityQueuedAt, "priority_queued_at"), (.messages, "messages"),
        ]
    }

    /// The v2 keys beyond the v1 ones.
    struct Provider {
        var sessionID: String
        var name: String
    }

    /// The document bytes, equal to `JSONWriter.document(json)` of the model.
    ///
    /// - Parameters:
    ///   - layout: ``v1`` or ``v2``.
    ///   - provider: The v2 keys; required with ``v2``, ignored with ``v1``.
    static func document(_ layout: KeyLayout<Field>, schemaVersion: Int, fields: SessionFieldsV1,
                         provider: Provider?, unknown: JSONObject) -> [UInt8] {
        var w = CanonicalWriter(capacity: estimatedSize(fields, provider))
        var object = w.openObject(layout, unknown: unknown)
        for member in layout.members {
            w.member(member, of: &object)
            switch member.field {
            case .schemaVersion: w.integer(schemaVersion)
            case .id: w.uuid(fields.id)
            case .backendName: w.string(fields.backendName)
            case .workingDirectory: w.string(fields.workingDirectory)
            case .isLocallyCreated: w.bool(fields.isLocallyCreated)
            case .lastModified: w.date(fields.lastModified)
            case .messageCount: w.integer(fields.messageCount)
            case .preview: w.string(fields.preview)
            case .unreadCount: w.integer(fields.unreadCount)
            case .isInQueue: w.bool(fields.isInQueue)
            case .queuePosition: w.integer(fields.queuePosition)
            case .queuedAt: w.date(fields.queuedAt)
            case .isInPriorityQueue: w.bool(fields.isInPriorityQueue)
            case .priority: w.integer(fields.priority)
            case .priorityOrder: w.double(fields.priorityOrder)
            case .priorityQueuedAt: w.date(fields.priorityQueuedAt)
            case .messages: w.array(fields.messages, level: 1) { w, message in message.write(to: &w) }
            case .providerSessionID, .provider:
                guard let provider else { preconditionFailure("SessionEncoding: the v2 layout needs the provider keys") }
                w.string(member.field == .provider ? provider.name : provider.sessionID)
            }
        }
        w.close(&object)
        return w.document()
    }

    /// About the size of the document (unknown members not counted), to reserve the buffer once.
    static func estimatedSize(_ fields: SessionFieldsV1, _ provider: Provider?) -> Int {
        var size = 900 + fields.backendName.utf8.count + fields.workingDirectory.utf8.count + fields.preview.utf8.count
        if let provider { size += provider.sessionID.utf8.count + provider.name.utf8.count }
        for message in fields.messages { size += message.estimatedSize }
        return size
    }
}
