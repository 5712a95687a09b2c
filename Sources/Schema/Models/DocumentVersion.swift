import StoreJSON

/// Version negotiation for documents: parse, read `schema_version` first, then pick the type.
public enum DocumentVersion {
    /// The version this code creates a store at, and the newest a store reaches without asking
    /// for a breaking step by name (the last rollback-safe version, spec §9): `Store.create` and
    /// `migrate` without `--to` write it. A store at this version is `StoreCompatibility.current`.
    public static let current = MigrationChain.defaultTarget(from: MigrationChain.oldest)

    /// The newest schema this code reads and writes: the reader version of §4's rule. A store past
    /// ``current`` up to this one (past a breaking step, reached only by an explicit
    /// `migrate --to`) opens read-write as `StoreCompatibility.breakingCurrent`; older readers
    /// refuse it.
    public static let newest = MigrationChain.newest

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
    /// A work stream of `sessions/` at v3, or at a later version whose steps added no work-stream
    /// key (v4: ``readingVersion(of:)``).
    case v3(WorkStreamV3)
    /// A work stream of `work-streams/` (spec §12): `name`, no queue keys.
    case v5(WorkStreamV5)

    /// The version whose frozen type reads work streams of `version`: a rollback-safe step that
    /// adds no work-stream or message key (v3 → v4) keeps the type of the version before it.
    public static func readingVersion(of version: Int) -> Int {
        var reading = version
        while let step = MigrationChain.steps.first(where: { $0.to == reading }), step.kind == .rollbackSafe,
            step.addedWorkStreamKeys.isEmpty, step.addedMessageKeys.isEmpty
        {
            reading = step.from
        }
        return reading
    }

    /// Reads `schema_version` first, then decodes the matching frozen type, by the folder the
    /// document lives in.
    /// - Parameters:
    ///   - acceptingNewerVersions: decode documents newer than this code (past v4 in `sessions/`,
    ///     past v5 in `work-streams/`) as the folder's newest type, keeping their new keys (when
    ///     the store's `min_reader_version` admits this code). The default is `false`.
    ///   - renamedFolder: the document lives in `work-streams/` (a store at v5 or later): it must
    ///     have `schema_version` 5 or later. False (the default): it lives in `sessions/`, and is
    ///     read as v1 to v4.
    /// - Throws: `.unsupportedVersion` naming both versions for a document below v5 in
    ///   `work-streams/`, or one newer than this code reads.
    package init(json: JSONValue, acceptingNewerVersions: Bool = false, renamedFolder: Bool = false) throws(SchemaError) {
        let version = try DocumentVersion.peek(json)
        if renamedFolder {
            guard version >= WorkStreamV5.version else {
                throw SchemaError(
                    code: .unsupportedVersion, keyPath: "schema_version",
                    detail:
                        "this work stream has schema_version \(version), but a work stream in \(StoreLayout.renamedWorkStreamsFolder)/ must have schema_version \(WorkStreamV5.version) or later (the store is at version \(WorkStreamV5.version) or later); finish the store's layout change (migrate it again), or restore a backup"
                )
            }
            self = .v5(try WorkStreamV5(json: json, acceptingNewerVersions: acceptingNewerVersions))
            return
        }
        switch version {
        case 1: self = .v1(try WorkStreamV1(json: json))
        case 2: self = .v2(try WorkStreamV2(json: json))
        default:
            // Past the last version `sessions/` holds (v4), only when the store admits this code.
            let sessionsNewest = StoreLayout.renamedFolderVersion - 1
            if version > sessionsNewest && !acceptingNewerVersions {
                throw SchemaError(
                    code: .unsupportedVersion, keyPath: "schema_version",
                    detail:
                        "this work stream document has schema_version \(version), but this code reads up to version \(sessionsNewest) in \(StoreLayout.workStreamsFolder)/; use a newer version of the tool"
                )
            }
            self = .v3(try WorkStreamV3(json: json, acceptingNewerVersions: true))
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
        let json = try DocumentVersion.parse(bytes)
        let found = try DocumentVersion.peek(json)
        guard found == version else {
            throw SchemaError(
                code: .unsupportedVersion, keyPath: "schema_version",
                detail: "this work stream has schema_version \(found), but version \(version) is expected here")
        }
        switch Self.readingVersion(of: version) {
        case 1: self = .v1(try WorkStreamV1(json: json))
        case WorkStreamV2.version: self = .v2(try WorkStreamV2(json: json))
        case WorkStreamV3.version: self = .v3(try WorkStreamV3(json: json, acceptingNewerVersions: true))
        case WorkStreamV5.version: self = .v5(try WorkStreamV5(json: json))
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
        case .v5(let s): s.schemaVersion
        }
    }

    /// The v1 keys other than `messages`, common to every version (a message's type depends on
    /// the version: see ``messages``). For a v5 work stream: `backend_name` is its `name`, and
    /// the queue keys are the defaults of §3 (v4 has no mirror: the queue is `queue.json`);
    /// setting them changes `name` and the other v1 keys, never a queue key.
    public var fields: WorkStreamKeys {
        get {
            switch self {
            case .v1(let s): s.fields.keys
            case .v2(let s): s.fields.keys
            case .v3(let s): s.fields.keys
            case .v5(let s): s.keys
            }
        }
        set {
            switch self {
            case .v1(var s): s.fields.keys = newValue; self = .v1(s)
            case .v2(var s): s.fields.keys = newValue; self = .v2(s)
            case .v3(var s): s.fields.keys = newValue; self = .v3(s)
            case .v5(var s): s.keys = newValue; self = .v5(s)
            }
        }
    }

    /// The messages of a document at v3 or later (``Message``: each with its `seq` and `offset`);
    /// nil for a v1 or v2 document, whose messages are ``MessageV1`` (its case's `fields.messages`).
    public var messages: [Message]? { MessageV3.messages(of: self) }

    /// The number of messages the document holds (not its `message_count`).
    public var storedMessageCount: Int {
        switch self {
        case .v1(let s): s.fields.messages.count
        case .v2(let s): s.fields.messages.count
        case .v3(let s): s.fields.messages.count
        case .v5(let s): s.messages.count
        }
    }

    /// True for a work stream of `work-streams/` (v5): it has no queue mirror keys.
    public var hasQueueMirror: Bool {
        if case .v5 = self { return false }
        return true
    }

    package var json: JSONValue {
        switch self {
        case .v1(let s): s.json
        case .v2(let s): s.json
        case .v3(let s): s.json
        case .v5(let s): s.json
        }
    }

    public var encoded: [UInt8] {
        switch self {
        case .v1(let s): s.encoded
        case .v2(let s): s.encoded
        case .v3(let s): s.encoded
        case .v5(let s): s.encoded
        }
    }
}
