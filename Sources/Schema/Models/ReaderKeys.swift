import StoreJSON

// The key tables the hot decoders give their `ObjectReader`: every key the decoder asks
// for, in the order it asks. A key missing here is still read correctly, only by a lookup.

extension MessageV1 {
    static let readerKeys = ObjectKeys(["id", "session_id", "role", "text", "timestamp", "server_timestamp", "status"])
}

extension MessageV3 {
    static let readerKeys = ObjectKeys(["id", "session_id", "role", "text", "timestamp", "server_timestamp", "status", "seq", "offset"])
}

extension WorkStreamKeys {
    /// The v1 keys, in the order `WorkStreamFields.init(reading:)` asks for them.
    static let readerKeyNames = [
        "id", "backend_name", "working_directory", "is_locally_created", "last_modified", "message_count",
        "preview", "unread_count", "is_in_queue", "queue_position", "queued_at", "is_in_priority_queue",
        "priority", "priority_order", "priority_queued_at", "messages",
    ]
}

extension WorkStreamV1 {
    static let readerKeys = ObjectKeys(["schema_version"] + WorkStreamKeys.readerKeyNames)
}

extension WorkStreamV2 {
    static let readerKeys = ObjectKeys(["schema_version"] + WorkStreamKeys.readerKeyNames + ["provider_session_id", "provider"])
}

extension WorkStreamV3 {
    static let readerKeys = ObjectKeys(
        ["schema_version"] + WorkStreamKeys.readerKeyNames + ["provider_session_id", "provider"]
            + SyncCursors.keys)
}

extension FIFOEntry {
    static let readerKeys = ObjectKeys(["work_stream_id", "queued_at"])
}

extension PriorityEntry {
    static let readerKeys = ObjectKeys(["work_stream_id", "priority", "priority_order", "priority_queued_at"])
}
