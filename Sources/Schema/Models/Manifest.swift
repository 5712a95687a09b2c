import Foundation
import StoreJSON

/// The part of `store.json` that every version agrees on: enough to decide whether to open a store.
public struct ManifestHeader: Sendable, Hashable {
    public static let format = "work-stream-store"

    public var schemaVersion: Int
    /// Absent in v1 manifests.
    public var minReaderVersion: Int?

    public init(schemaVersion: Int, minReaderVersion: Int?) {
        self.schemaVersion = schemaVersion; self.minReaderVersion = minReaderVersion
    }

    /// Reads `format`, `schema_version` and `min_reader_version` only.
    /// - Throws: `.notAStore` when `format` is not `"work-stream-store"`.
    package init(json: JSONValue) throws(SchemaError) {
        var r = try ObjectReader(json, path: "")
        let format = try r.string("format")
        guard format == ManifestHeader.format else {
            throw SchemaError(code: .notAStore, keyPath: "format", expected: "'\(ManifestHeader.format)'", found: "'\(format)'")
        }
        schemaVersion = Int(try r.int("schema_version", in: 1...Int64(Int32.max)))
        guard let min = r.take("min_reader_version"), min != .null else { minReaderVersion = nil; return }
        guard case .number(let n) = min, let v = n.int64Value, v >= 1, v <= Int64(Int32.max) else {
            throw r.invalid("min_reader_version", "a positive integer", min)
        }
        minReaderVersion = Int(v)
    }

    /// How code of version `reader` may treat this store (spec §4, reader rule).
    ///
    /// This code (the default `reader`, ``DocumentVersion/newest``) writes every version of
    /// ``DocumentVersion/written``: a store at ``DocumentVersion/current`` is `.current`, one past
    /// it (v4) is `.breakingCurrent`. A frozen reader (`reader` 1, 2 or 3) writes its own only.
    ///
    /// A store at the breaking rename as a pre-release build numbered it (schema_version 4 with
    /// min_reader_version 4, spec §11: ``isPreReleaseRename(schemaVersion:minReaderVersion:)``)
    /// is refused, whatever the reader.
    public func compatibility(reader: Int = DocumentVersion.newest) -> StoreCompatibility {
        if let minReader = minReaderVersion, Self.isPreReleaseRename(schemaVersion: schemaVersion, minReaderVersion: minReader) {
            return .refused(storeVersion: schemaVersion, minReaderVersion: minReader, reader: reader)
        }
        if reader == DocumentVersion.newest && DocumentVersion.written.contains(schemaVersion) {
            return schemaVersion == DocumentVersion.current ? .current : .breakingCurrent(storeVersion: schemaVersion)
        }
        if schemaVersion == reader { return .current }
        if schemaVersion < reader { return .needsMigration(from: schemaVersion) }
        let minReader = minReaderVersion ?? schemaVersion
        return minReader <= reader
            ? .superseded(storeVersion: schemaVersion, minReaderVersion: minReader)
            : .refused(storeVersion: schemaVersion, minReaderVersion: minReader, reader: reader)
    }
}

extension ManifestHeader {
    /// True for the pair a pre-release build wrote when it took a store through the breaking
    /// rename, which it numbered one below this chain (spec §11): schema_version 4 with
    /// min_reader_version 4, the version the step after it renames the folder from, with the
    /// `min_reader_version` of a breaking step, which this chain's version never has. Any other
    /// pair is judged by the reader rule and the folders on disk.
    public static func isPreReleaseRename(schemaVersion: Int, minReaderVersion: Int) -> Bool {
        schemaVersion == MigrationChain.folderRenamingStep.from && minReaderVersion == schemaVersion
            && minReaderVersion != MigrationChain.minReaderVersion(at: schemaVersion)
    }
}

/// What the reader rule of spec §4 allows for a store.
public enum StoreCompatibility: Sendable, Hashable {
    /// Written by this version.
    case current
    /// Older; readable (every step so far only adds), and `migrate` upgrades it.
    case needsMigration(from: Int)
    /// Past a breaking step, at a version this code reads and writes as it is (v4, spec §11:
    /// work streams in `work-streams/`): open it read-write.
    case breakingCurrent(storeVersion: Int)
    /// Newer, but its `min_reader_version` admits this code: open it, keep unknown keys.
    case superseded(storeVersion: Int, minReaderVersion: Int)
    /// Newer, and its `min_reader_version` excludes this code; or a version this code knows with
    /// a `min_reader_version` its chain never writes (a pre-release layout).
    case refused(storeVersion: Int, minReaderVersion: Int, reader: Int)

    /// The store's schema version as `store.json` says (1 for a v1 store).
    public var storeSchemaVersion: Int {
        switch self {
        case .current: DocumentVersion.current
        case .needsMigration(let from): from
        case .breakingCurrent(let version): version
        case .superseded(let version, _), .refused(let version, _, _): version
        }
    }

    /// The version whose layout holds the work streams (`StoreLayout.workStreamsFolder`): the
    /// store's own, or for a newer store that admits this code, the oldest reader it admits
    /// (`min_reader_version`), since a reader of that version must find them where it looks.
    public var layoutVersion: Int {
        if case .superseded(_, let minReader) = self { return minReader }
        return storeSchemaVersion
    }

    /// True for a store older than this code: `migrate` upgrades it; this code opens it read-only.
    public var needsMigration: Bool {
        if case .needsMigration = self { return true }
        return false
    }

    /// For `.refused`: a sentence naming both versions.
    public var refusal: String? {
        guard case .refused(let s, let m, let r) = self else { return nil }
        if ManifestHeader.isPreReleaseRename(schemaVersion: s, minReaderVersion: m) {
            return
                "the store has schema_version \(s) with min_reader_version \(m), which this tool never writes (its v\(s) admits readers from version \(MigrationChain.minReaderVersion(at: s))): "
                + "a pre-release build took it to that build's v\(s), the breaking rename to \(StoreLayout.renamedWorkStreamsFolder)/, which this version numbers v\(MigrationChain.folderRenamingStep.to). "
                + "Take it back with that build ('migrate --to \(s - 1)'), then migrate it with this one"
        }
        return
            "the store has schema_version \(s) and needs a reader of version \(m) or newer (min_reader_version \(m)), but this tool reads version \(r); use a newer version of the tool"
    }
}

/// `store.json` of a v1 store. Frozen.
public struct ManifestV1: Sendable, Hashable {
    public var createdAt: Date
    public var unknown: JSONObject

    public init(createdAt: Date, unknown: JSONObject = [:]) { self.createdAt = createdAt; self.unknown = unknown }

    package init(json: JSONValue) throws(SchemaError) {
        _ = try ManifestHeader(json: json)
        var r = try ObjectReader(json, path: "")
        _ = r.take("format")
        _ = try DocumentVersion.read(&r, reader: 1, acceptingNewer: false, kind: "store manifest")
        createdAt = try r.date("created_at")
        unknown = r.unknownKeys()
    }

    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("format", ManifestHeader.format)
        w.set("schema_version", 1)
        w.set("created_at", createdAt)
        return w.value
    }

    public var encoded: [UInt8] { JSONWriter.document(json) }
}

extension StoreCompatibility {
    /// True for a v1 store: its queue lives in the session keys only (no `queue.json`).
    public var isV1: Bool { storeSchemaVersion < 2 }
}
