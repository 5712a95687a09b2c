import Foundation
import StoreJSON

/// A work-stream document in schema v2 (spec §4): every v1 key, plus the provider session. Frozen.
///
/// The work-stream id (`id`) never changes; the provider session that serves it may be replaced
/// after compaction, so `providerSessionID` may differ from `id` and must survive every
/// migration, rollback and re-upgrade.
@dynamicMemberLookup
public struct WorkStreamV2: Sendable, Hashable {
    public static let version = 2

    /// The version of the code that wrote the document (2, or higher when a newer document was read).
    public var schemaVersion: Int
    public var fields: WorkStreamFieldsV1
    /// The backend session serving this work stream; lowercase UUID format in practice.
    public var providerSessionID: String
    /// Lowercase provider name: `"claude"`, `"cursor"`, …
    public var provider: String
    /// Every key this type does not know, with its value unchanged.
    public var unknown: JSONObject

    public init(
        fields: WorkStreamFieldsV1, providerSessionID: String, provider: String,
        unknown: JSONObject = [:], schemaVersion: Int = WorkStreamV2.version
    ) {
        self.fields = fields; self.providerSessionID = providerSessionID; self.provider = provider
        self.unknown = unknown; self.schemaVersion = schemaVersion
    }

    public subscript<T>(dynamicMember key: WritableKeyPath<WorkStreamFieldsV1, T>) -> T {
        get { fields[keyPath: key] }
        set { fields[keyPath: key] = newValue }
    }

    /// Decodes a v2 session document.
    /// - Parameter acceptingNewerVersions: read documents with `schema_version` > 2 (allowed when the
    ///   store's `min_reader_version` ≤ 2). The default is `false`.
    /// - Throws: `SchemaError`; `.unsupportedVersion` for a v1 document or a newer one not accepted.
    package init(json: JSONValue, acceptingNewerVersions: Bool = false) throws(SchemaError) {
        var r = try ObjectReader(json, path: "", keys: WorkStreamV2.readerKeys)
        schemaVersion = try DocumentVersion.read(&r, reader: 2, acceptingNewer: acceptingNewerVersions, kind: "work stream")
        fields = try WorkStreamFieldsV1(reading: &r)
        providerSessionID = try r.string("provider_session_id")
        provider = try r.string("provider")
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
        return w.value
    }

    /// The canonical file bytes (sorted keys, pretty-printed, final newline): `JSONWriter.document(json)`,
    /// written directly (`WorkStreamEncoding`).
    public var encoded: [UInt8] {
        WorkStreamEncoding.document(
            WorkStreamEncoding.v2, schemaVersion: schemaVersion, fields: fields,
            provider: .init(sessionID: providerSessionID, name: provider), unknown: unknown)
    }
}
