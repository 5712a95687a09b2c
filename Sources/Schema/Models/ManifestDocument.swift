import StoreJSON

/// `store.json` of whichever version the store has.
public enum ManifestDocument: Sendable, Hashable {
    case v1(ManifestV1)
    /// Version 2 or later: the same keys (spec §4, §10), `schema_version` says which.
    case v2(ManifestV2)

    /// Reads the header first and refuses a store this code may not open (spec §4 reader rule).
    /// - Throws: `.notAStore`, `.unsupportedVersion` naming both versions, or a field error.
    package init(json: JSONValue) throws(SchemaError) {
        let header = try ManifestHeader(json: json)
        switch header.compatibility() {
        case .needsMigration(from: 1): self = .v1(try ManifestV1(json: json))
        case .needsMigration: self = .v2(try ManifestV2(json: json))
        case .current, .breakingCurrent: self = .v2(try ManifestV2(json: json))
        case .superseded: self = .v2(try ManifestV2(json: json, acceptingNewerVersions: true))
        case .refused:
            throw SchemaError(code: .unsupportedVersion, keyPath: "schema_version", detail: header.compatibility().refusal)
        }
    }

    public init(bytes: [UInt8]) throws(SchemaError) { try self.init(json: try DocumentVersion.parse(bytes)) }

    public var schemaVersion: Int {
        switch self {
        case .v1: 1
        case .v2(let m): m.schemaVersion
        }
    }

    package var json: JSONValue {
        switch self {
        case .v1(let m): m.json
        case .v2(let m): m.json
        }
    }

    public var encoded: [UInt8] { JSONWriter.document(json) }
}
