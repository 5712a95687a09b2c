import Foundation
import StoreJSON

/// A work-stream document in schema v3 (spec §10): every v2 key, plus the sync cursors, and a
/// `seq` and `offset` on each message (``MessageV3``). Frozen.
@dynamicMemberLookup
public struct WorkStreamV3: Sendable, Hashable {
    public static let version = 3

    /// The version of the code that wrote the document (3, or higher when a newer document was read).
    public var schemaVersion: Int
    public var fields: WorkStreamFieldsV3
    /// The backend session serving this work stream (§4).
    public var providerSessionID: String
    /// Lowercase provider name (§4).
    public var provider: String
    /// The sync cursors (§10).
    public var cursors: SyncCursors
    /// Every key this type does not know, with its value unchanged.
    public var unknown: JSONObject

    public init(
        fields: WorkStreamFieldsV3, providerSessionID: String, provider: String, cursors: SyncCursors = .defaults,
        unknown: JSONObject = [:], schemaVersion: Int = WorkStreamV3.version
    ) {
        self.fields = fields; self.providerSessionID = providerSessionID; self.provider = provider
        self.cursors = cursors; self.unknown = unknown; self.schemaVersion = schemaVersion
    }

    public subscript<T>(dynamicMember key: WritableKeyPath<WorkStreamFieldsV3, T>) -> T {
        get { fields[keyPath: key] }
        set { fields[keyPath: key] = newValue }
    }

    /// Decodes a v3 session document.
    /// - Parameter acceptingNewerVersions: read documents with `schema_version` > 3 (allowed when the
    ///   store's `min_reader_version` ≤ 3). The default is `false`.
    /// - Throws: `SchemaError`; `.unsupportedVersion` for an older document or a newer one not accepted.
    package init(json: JSONValue, acceptingNewerVersions: Bool = false) throws(SchemaError) {
        var r = try ObjectReader(json, path: "", keys: WorkStreamV3.readerKeys)
        schemaVersion = try DocumentVersion.read(&r, reader: 3, acceptingNewer: acceptingNewerVersions, kind: "work stream")
        fields = try WorkStreamFieldsV3(reading: &r)
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
        fields.write(into: &w)
        w.set("provider_session_id", providerSessionID)
        w.set("provider", provider)
        for (key, value) in zip(SyncCursors.keys, cursors.values) { w.set(key, value) }
        return w.value
    }

    /// The canonical file bytes (sorted keys, pretty-printed, final newline): `JSONWriter.document(json)`,
    /// written directly (`WorkStreamEncoding`).
    public var encoded: [UInt8] {
        WorkStreamEncoding.document(
            WorkStreamEncoding.v3, schemaVersion: schemaVersion, fields: fields,
            provider: .init(sessionID: providerSessionID, name: provider, cursors: cursors),
            unknown: unknown)
    }
}

/// The v1 keys with v3 messages: `WorkStreamV3` (v3 and v4).
public typealias WorkStreamFieldsV3 = WorkStreamFields<MessageV3>
