import Foundation
import StoreJSON

/// A work-stream document as a schema-v1 reader sees it (spec §3). Frozen.
///
/// Reading a v2 document with this type is exactly what a shipped v1 reader does: the v2 keys
/// (`provider_session_id`, `provider`) land in `unknown` and are written back unchanged.
@dynamicMemberLookup
public struct WorkStreamV1: Sendable, Hashable {
    /// The version of the code that wrote the document: 1, or higher for a newer document read by v1 code.
    public var schemaVersion: Int
    public var fields: WorkStreamFieldsV1
    /// Every key this type does not know, with its value unchanged.
    public var unknown: JSONObject

    public init(fields: WorkStreamFieldsV1, unknown: JSONObject = [:], schemaVersion: Int = 1) {
        self.fields = fields; self.unknown = unknown; self.schemaVersion = schemaVersion
    }

    public subscript<T>(dynamicMember key: WritableKeyPath<WorkStreamFieldsV1, T>) -> T {
        get { fields[keyPath: key] }
        set { fields[keyPath: key] = newValue }
    }

    /// Decodes a session document as v1 code would.
    /// - Parameter acceptingNewerVersions: read documents with `schema_version` > 1 (allowed when
    ///   the store's `min_reader_version` ≤ 1, spec §4). The default is `false`.
    /// - Throws: `SchemaError` naming the key path, or `.unsupportedVersion` naming both versions.
    package init(json: JSONValue, acceptingNewerVersions: Bool = false) throws(SchemaError) {
        var r = try ObjectReader(json, path: "", keys: WorkStreamV1.readerKeys)
        schemaVersion = try DocumentVersion.read(&r, reader: 1, acceptingNewer: acceptingNewerVersions, kind: "work stream")
        fields = try WorkStreamFieldsV1(reading: &r)
        unknown = r.unknownKeys()
    }

    /// Decodes from bytes; see `init(json:acceptingNewerVersions:)`.
    public init(bytes: [UInt8], acceptingNewerVersions: Bool = false) throws(SchemaError) {
        try self.init(json: try DocumentVersion.parse(bytes), acceptingNewerVersions: acceptingNewerVersions)
    }

    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("schema_version", schemaVersion)
        fields.write(into: &w)
        return w.value
    }

    /// The canonical file bytes (sorted keys, pretty-printed, final newline): `JSONWriter.document(json)`,
    /// written directly (`WorkStreamEncoding`).
    public var encoded: [UInt8] {
        WorkStreamEncoding.document(WorkStreamEncoding.v1, schemaVersion: schemaVersion, fields: fields, provider: nil, unknown: unknown)
    }
}
