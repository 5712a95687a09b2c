import StoreJSON
/// Version negotiation for documents: parse, read `schema_version` first, then pick the type.
public enum DocumentVersion {
    /// The newest schema this code reads and writes (the last version of `MigrationChain`).
    public static let current = 3

    /// Parses document bytes into a JSON value, turning syntax errors into `SchemaError.syntax`.
    package static func parse(_ bytes: [UInt8]) throws(SchemaError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw SchemaError(code: .syntax, syntax: error)
        }
    }

    /// The `schema_version` of a parsed document, without decoding the rest.
    package static func peek(_ json: JSONValue) throws(SchemaError) -> Int {
        var r = try ObjectReader(json, path: "")
        return Int(try r.int("schema_version", in: 1...Int64(Int32.max)))
    }

    /// Reads `schema_version` through `r` and checks it against what the reading type supports.
    ///
    /// - Parameters:
    ///   - supported: the versions the type reads as its own (`1...1` for v1 types).
    ///   - acceptingNewer: also read versions above `supported` (the store's `min_reader_version`
    ///     allows it; spec §4). Newer keys are then kept as unknown keys.
    /// - Throws: `.unsupportedVersion` naming both versions.
    static func read(_ r: inout ObjectReader, supported: ClosedRange<Int>, acceptingNewer: Bool,
                     kind: String) throws(SchemaError) -> Int {
        let version = Int(try r.int("schema_version", in: 1...Int64(Int32.max)))
        if supported.contains(version) || (acceptingNewer && version > supported.upperBound) { return version }
        if version > supported.upperBound {
            throw SchemaError(code: .unsupportedVersion, keyPath: "schema_version",
                              detail: "this \(kind) document has schema_version \(version), but this code reads up to version \(supported.upperBound); use a newer version of the tool")
        }
        throw SchemaError(code: .unsupportedVersion, keyPath: "schema_version",
                          detail: "this \(kind) document has schema_version \(version), but this type reads version \(supported.lowerBound)\(supported.count > 1 ? "–\(supported.upperBound)" : ""); migrate the store first")
    }

    static func read(_ r: inout ObjectReader, reader: Int, acceptingNewer: Bool, kind: String) throws(SchemaError) -> Int {
        try read(&r, supported: reader...reader, acceptingNewer: acceptingNewer, kind: kind)
    }
}

/// A work-stream document of whichever version the file holds.
public enum SessionDocument: Sendable, Hashable {
    case v1(SessionV1)
    case v2(SessionV2)
    case v3(SessionV3)
    /// A v4 work stream (spec §11), read from `work-streams/` of a v4 store. Its ``fields`` show
    /// `name` as `backendName` and no queue keys (the queue lives in `queue.json` only).
    case v4(SessionV4)

    /// Reads `schema_version` first, then decodes the matching frozen type.
    /// - Parameter acceptingNewerVersions: decode documents newer than v3 as `SessionV3`, keeping
    ///   their new keys (when the store's `min_reader_version` ≤ 3). The default is `false`.
    package init(json: JSONValue, acceptingNewerVersions: Bool = false) throws(SchemaError) {
        switch try DocumentVersion.peek(json) {
        case 1: self = .v1(try SessionV1(json: json))
        case 2: self = .v2(try SessionV2(json: json))
        default: self = .v3(try SessionV3(json: json, acceptingNewerVersions: acceptingNewerVersions))
        }
    }

    public init(bytes: [UInt8], acceptingNewerVersions: Bool = false) throws(SchemaError) {
        try self.init(json: try DocumentVersion.parse(bytes), acceptingNewerVersions: acceptingNewerVersions)
    }

    public var schemaVersion: Int {
        switch self {
        case .v1(let s): s.schemaVersion
        case .v2(let s): s.schemaVersion
        case .v3(let s): s.schemaVersion
        case .v4(let s): s.schemaVersion
        }
    }

    /// The v1 keys, common to both versions.
    public var fields: SessionFieldsV1 {
        get {
            switch self {
            case .v1(let s): s.fields
            case .v2(let s): s.fields
            case .v3(let s): s.fields
            case .v4(let s): s.fields
            }
        }
        set {
            switch self {
            case .v1(var s): s.fields = newValue; self = .v1(s)
            case .v2(var s): s.fields = newValue; self = .v2(s)
            case .v3(var s): s.fields = newValue; self = .v3(s)
            case .v4(var s): s.fields = newValue; self = .v4(s)
            }
        }
    }

    package var json: JSONValue {
        switch self {
        case .v1(let s): s.json
        case .v2(let s): s.json
        case .v3(let s): s.json
        case .v4(let s): s.json
        }
    }

    public var encoded: [UInt8] {
        switch self {
        case .v1(let s): s.encoded
        case .v2(let s): s.encoded
        case .v3(let s): s.encoded
        case .v4(let s): s.encoded
        }
    }
}
