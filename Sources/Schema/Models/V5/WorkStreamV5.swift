import Foundation
import StoreJSON

/// A work-stream document in schema v5 (spec §12), in `work-streams/`: the v3 document with
/// `backend_name` renamed `name`, the provider keys required, and no queue keys (the queue lives
/// in `queue.json` only). Frozen.
public struct WorkStreamV5: Sendable, Hashable {
    public static let version = 5

    /// The version of the code that wrote the document (5, or higher when a newer document was read).
    public var schemaVersion: Int
    /// The work-stream id; equals the file name without `.json`.
    public var id: UUID
    /// Was `backend_name` (same value, verbatim): the display rules of §4 decide whether it is shown.
    public var name: String
    public var workingDirectory: String
    public var isLocallyCreated: Bool
    public var lastModified: Date
    public var messageCount: Int32
    public var preview: String
    public var unreadCount: Int32
    /// The messages (v3's: each with its `seq` and `offset`).
    public var messages: [MessageV3]
    /// Required in v5 (no fallback to `id`).
    public var providerSessionID: String
    /// Required in v5 (no fallback to `"claude"`).
    public var provider: String
    public var cursors: SyncCursors
    /// Every key this type does not know, with its value unchanged.
    public var unknown: JSONObject

    public init(
        id: UUID, name: String, workingDirectory: String, lastModified: Date, isLocallyCreated: Bool = false,
        messageCount: Int32 = 0, preview: String = "", unreadCount: Int32 = 0, messages: [MessageV3] = [],
        providerSessionID: String, provider: String, cursors: SyncCursors = .defaults, unknown: JSONObject = [:],
        schemaVersion: Int = WorkStreamV5.version
    ) {
        self.id = id; self.name = name; self.workingDirectory = workingDirectory; self.lastModified = lastModified
        self.isLocallyCreated = isLocallyCreated; self.messageCount = messageCount; self.preview = preview
        self.unreadCount = unreadCount; self.messages = messages; self.providerSessionID = providerSessionID
        self.provider = provider; self.cursors = cursors; self.unknown = unknown; self.schemaVersion = schemaVersion
    }

    /// The keys of a v5 work stream, in the order the decoder asks for them.
    static let keyNames =
        [
            "schema_version", "id", "name", "working_directory", "is_locally_created", "last_modified", "message_count",
            "preview", "unread_count", "messages", "provider_session_id", "provider",
        ] + SyncCursors.keys
    static let readerKeys = ObjectKeys(keyNames)

    /// Decodes a v5 work stream.
    /// - Parameter acceptingNewerVersions: read documents with `schema_version` > 5 (their store's
    ///   `min_reader_version` admits v5). The default is `false`.
    /// - Throws: `SchemaError`; `.unsupportedVersion` for an older document or a newer one not accepted.
    package init(json: JSONValue, acceptingNewerVersions: Bool = false) throws(SchemaError) {
        var r = try ObjectReader(json, path: "", keys: WorkStreamV5.readerKeys)
        schemaVersion = try DocumentVersion.read(&r, reader: WorkStreamV5.version, acceptingNewer: acceptingNewerVersions, kind: "work stream")
        id = try r.uuid("id")
        name = try r.string("name")
        workingDirectory = try r.string("working_directory")
        isLocallyCreated = try r.bool("is_locally_created", default: false)
        lastModified = try r.date("last_modified")
        messageCount = try r.int32("message_count", nonNegative: true, default: 0)
        preview = try r.string("preview", default: "")
        unreadCount = try r.int32("unread_count", nonNegative: true, default: 0)
        let items = try r.array("messages") ?? []
        var messages: [MessageV3] = []
        messages.reserveCapacity(items.count)
        let path = r.keyPath("messages")
        for (index, item) in items.enumerated() {
            messages.append(try MessageV3(json: item, path: path, index: index))
        }
        self.messages = messages
        providerSessionID = try r.string("provider_session_id")
        provider = try r.string("provider")
        cursors = try SyncCursors(reading: &r)
        unknown = r.unknownKeys()
    }

    public init(bytes: [UInt8], acceptingNewerVersions: Bool = false) throws(SchemaError) {
        try self.init(json: try DocumentVersion.parse(bytes), acceptingNewerVersions: acceptingNewerVersions)
    }

    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("schema_version", schemaVersion)
        w.set("id", id)
        w.set("name", name)
        w.set("working_directory", workingDirectory)
        w.set("is_locally_created", isLocallyCreated)
        w.set("last_modified", lastModified)
        w.set("message_count", messageCount)
        w.set("preview", preview)
        w.set("unread_count", unreadCount)
        w.set("messages", .array(messages.map(\.json)))
        w.set("provider_session_id", providerSessionID)
        w.set("provider", provider)
        for (key, value) in zip(SyncCursors.keys, cursors.values) { w.set(key, value) }
        return w.value
    }

    /// The canonical file bytes (sorted keys, pretty-printed, final newline).
    public var encoded: [UInt8] { JSONWriter.document(json) }
}
