import StoreJSON

/// Version negotiation for documents: parse, read `schema_version` first, then pick the type.
public enum DocumentVersion {
    /// The version this code creates a store at, and the newest a store reaches without asking
    /// for a breaking step by name (the last rollback-safe version, spec §9): `Store.create` and
    /// `migrate` without `--to` write it. A store at this version is `StoreCompatibility.current`.
    public static let current = 3

    /// The newest schema this code reads and writes: the reader version of §4's rule. A store past
    /// ``current`` up to this one (v4, reached only by an explicit `migrate --to 4`) opens
    /// read-write as `StoreCompatibility.breakingCurrent`; a v1 to v3 reader refuses it.
    public static let newest = 4

    /// Every store version this code writes as it is, without a migration: `current...newest`.
    public static let written = current...newest

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
    static func read(
        _ r: inout ObjectReader, supported: ClosedRange<Int>, acceptingNewer: Bool,
        kind: String
    ) throws(SchemaError) -> Int {
        let version = Int(try r.int("schema_version", in: 1...Int64(Int32.max)))
        if supported.contains(version) || (acceptingNewer && version > supported.upperBound) { return version }
        if version > supported.upperBound {
            throw SchemaError(
                code: .unsupportedVersion, keyPath: "schema_version",
                detail:
                    "this \(kind) document has schema_version \(version), but this code reads up to version \(supported.upperBound); use a newer version of the tool"
            )
        }
        throw SchemaError(
            code: .unsupportedVersion, keyPath: "schema_version",
            detail:
                "this \(kind) document has schema_version \(version), but this type reads version \(supported.lowerBound)\(supported.count > 1 ? "–\(supported.upperBound)" : ""); migrate the store first"
        )
    }

    static func read(_ r: inout ObjectReader, reader: Int, acceptingNewer: Bool, kind: String) throws(SchemaError) -> Int {
        try read(&r, supported: reader...reader, acceptingNewer: acceptingNewer, kind: kind)
    }
}

/// A work-stream document of whichever version the file holds.
public enum WorkStreamDocument: Sendable, Hashable {
    case v1(WorkStreamV1)
    case v2(WorkStreamV2)
    case v3(WorkStreamV3)
    /// A work stream of `work-streams/` (spec §11): `name`, no queue keys.
    case v4(WorkStreamV4)

    /// Reads `schema_version` first, then decodes the matching frozen type, by the folder the
    /// document lives in.
    /// - Parameters:
    ///   - acceptingNewerVersions: decode documents newer than the folder's newest type (v3 in
    ///     `sessions/`, v4 in `work-streams/`) as that type, keeping their new keys (when the
    ///     store's `min_reader_version` admits this code). The default is `false`.
    ///   - renamedFolder: the document lives in `work-streams/` (a store at v4 or later): it must
    ///     have `schema_version` 4 or later. False (the default): it lives in `sessions/`, and is
    ///     read as v1 to v3.
    /// - Throws: `.unsupportedVersion` naming both versions for a document below v4 in
    ///   `work-streams/`, or one newer than this code reads.
    package init(json: JSONValue, acceptingNewerVersions: Bool = false, renamedFolder: Bool = false) throws(SchemaError) {
        let version = try DocumentVersion.peek(json)
        if renamedFolder {
            guard version >= WorkStreamV4.version else {
                throw SchemaError(
                    code: .unsupportedVersion, keyPath: "schema_version",
                    detail:
                        "this work stream has schema_version \(version), but a work stream in \(StoreLayout.workStreamsFolderV4)/ must have schema_version \(WorkStreamV4.version) or later (the store is at version \(WorkStreamV4.version) or later); run migrate-store migrate to finish the store's layout change, or restore a backup"
                )
            }
            self = .v4(try WorkStreamV4(json: json, acceptingNewerVersions: acceptingNewerVersions))
            return
        }
        switch version {
        case 1: self = .v1(try WorkStreamV1(json: json))
        case 2: self = .v2(try WorkStreamV2(json: json))
        default: self = .v3(try WorkStreamV3(json: json, acceptingNewerVersions: acceptingNewerVersions))
        }
    }

    public init(bytes: [UInt8], acceptingNewerVersions: Bool = false, renamedFolder: Bool = false) throws(SchemaError) {
        try self.init(
            json: try DocumentVersion.parse(bytes), acceptingNewerVersions: acceptingNewerVersions,
            renamedFolder: renamedFolder)
    }

    /// Decodes `bytes` as the frozen type of `version` itself (whose reader refuses what it does
    /// not read): what the engine of a step reads on one side of it, whatever the folder.
    package init(bytes: [UInt8], frozenVersion version: Int) throws(SchemaError) {
        switch version {
        case 1: self = .v1(try WorkStreamV1(bytes: bytes))
        case WorkStreamV2.version: self = .v2(try WorkStreamV2(bytes: bytes))
        case WorkStreamV3.version: self = .v3(try WorkStreamV3(bytes: bytes))
        case WorkStreamV4.version: self = .v4(try WorkStreamV4(bytes: bytes))
        default:
            throw SchemaError(
                code: .unsupportedVersion, keyPath: "schema_version",
                detail: "this code has no work-stream type of schema version \(version)")
        }
    }

    public var schemaVersion: Int {
        switch self {
        case .v1(let s): s.schemaVersion
        case .v2(let s): s.schemaVersion
        case .v3(let s): s.schemaVersion
        case .v4(let s): s.schemaVersion
        }
    }

    /// The v1 keys, common to every version. For a v4 work stream: `backend_name` is its `name`,
    /// and the queue keys are the defaults of §3 (v4 has no mirror: the queue is `queue.json`);
    /// setting them changes `name` and the other v1 keys, never a queue key.
    public var fields: WorkStreamFieldsV1 {
        get {
            switch self {
            case .v1(let s): s.fields
            case .v2(let s): s.fields
            case .v3(let s): s.fields
            case .v4(let s): s.fieldsV1
            }
        }
        set {
            switch self {
            case .v1(var s): s.fields = newValue; self = .v1(s)
            case .v2(var s): s.fields = newValue; self = .v2(s)
            case .v3(var s): s.fields = newValue; self = .v3(s)
            case .v4(var s): s.fieldsV1 = newValue; self = .v4(s)
            }
        }
    }

    /// True for a work stream of `work-streams/` (v4): it has no queue mirror keys.
    public var hasQueueMirror: Bool {
        if case .v4 = self { return false }
        return true
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
