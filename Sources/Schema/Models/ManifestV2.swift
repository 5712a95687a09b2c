import Foundation
import StoreJSON

/// `store.json` of a v2 store (spec §4). Frozen.
public struct ManifestV2: Sendable, Hashable {
    public var schemaVersion: Int
    /// The oldest reader that may read (and write) this store. 1 for v2.
    public var minReaderVersion: Int
    public var createdAt: Date
    /// One record per completed migration, oldest first.
    public var migrations: [MigrationRecord]
    public var unknown: JSONObject

    public init(
        createdAt: Date, migrations: [MigrationRecord] = [], minReaderVersion: Int = 1,
        unknown: JSONObject = [:], schemaVersion: Int = DocumentVersion.current
    ) {
        self.createdAt = createdAt; self.migrations = migrations; self.minReaderVersion = minReaderVersion
        self.unknown = unknown; self.schemaVersion = schemaVersion
    }

    /// The manifest an upgrade of `v1` writes: same `created_at` and unknown keys, plus `records`
    /// (one per step of the chain, spec §9).
    public init(
        upgrading v1: ManifestV1, records: [MigrationRecord], schemaVersion: Int = DocumentVersion.current,
        minReaderVersion: Int = 1
    ) {
        self.init(
            createdAt: v1.createdAt, migrations: records, minReaderVersion: minReaderVersion, unknown: v1.unknown,
            schemaVersion: schemaVersion)
    }

    package init(json: JSONValue, acceptingNewerVersions: Bool = false) throws(SchemaError) {
        let header = try ManifestHeader(json: json)
        var r = try ObjectReader(json, path: "")
        _ = r.take("format")
        schemaVersion = try DocumentVersion.read(&r, supported: 2...DocumentVersion.newest, acceptingNewer: acceptingNewerVersions, kind: "store manifest")
        _ = r.take("min_reader_version")
        guard let minReader = header.minReaderVersion else {
            throw SchemaError(code: .missingKey, keyPath: "min_reader_version", detail: "required key is missing")
        }
        minReaderVersion = minReader
        createdAt = try r.date("created_at")
        let items = try r.array("migrations") ?? []
        var records: [MigrationRecord] = []
        for (index, item) in items.enumerated() {
            records.append(try MigrationRecord(json: item, path: "migrations[\(index)]"))
        }
        migrations = records
        unknown = r.unknownKeys()
    }

    public init(bytes: [UInt8], acceptingNewerVersions: Bool = false) throws(SchemaError) {
        try self.init(json: try DocumentVersion.parse(bytes), acceptingNewerVersions: acceptingNewerVersions)
    }

    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("format", ManifestHeader.format)
        w.set("schema_version", schemaVersion)
        w.set("min_reader_version", minReaderVersion)
        w.set("created_at", createdAt)
        w.set("migrations", .array(migrations.map(\.json)))
        return w.value
    }

    public var encoded: [UInt8] { JSONWriter.document(json) }
}

/// One completed migration, as recorded in `store.json`.
public struct MigrationRecord: Sendable, Hashable {
    public var from: Int
    public var to: Int
    public var startedAt: Date
    public var finishedAt: Date
    public var toolVersion: String
    /// Counts of what changed, by name (`sessions_migrated`, `messages_fixed`, …).
    public var counts: [String: Int]
    public var unknown: JSONObject

    public init(
        from: Int, to: Int, startedAt: Date, finishedAt: Date, toolVersion: String,
        counts: [String: Int], unknown: JSONObject = [:]
    ) {
        self.from = from; self.to = to; self.startedAt = startedAt; self.finishedAt = finishedAt
        self.toolVersion = toolVersion; self.counts = counts; self.unknown = unknown
    }

    init(json: JSONValue, path: String) throws(SchemaError) {
        var r = try ObjectReader(json, path: path)
        from = Int(try r.int("from", in: 1...Int64(Int32.max)))
        to = Int(try r.int("to", in: 1...Int64(Int32.max)))
        startedAt = try r.date("started_at")
        finishedAt = try r.date("finished_at")
        toolVersion = try r.string("tool_version")
        var counts: [String: Int] = [:]
        if let raw = r.take("counts") {
            guard case .object(let members) = raw else { throw r.wrongType("counts", "an object of integers", raw) }
            for (key, value) in members {
                guard case .number(let n) = value, let i = n.int64Value else {
                    throw SchemaError(code: .wrongType, keyPath: r.keyPath("counts") + ".\(key)", expected: "an integer", found: value.typeName)
                }
                counts[key] = Int(i)
            }
        }
        self.counts = counts
        unknown = r.unknownKeys()
    }

    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("from", from)
        w.set("to", to)
        w.set("started_at", startedAt)
        w.set("finished_at", finishedAt)
        w.set("tool_version", toolVersion)
        w.set("counts", .object(counts.mapValues { .number(JSONNumber($0)) }))
        return w.value
    }
}
