import Foundation
import TestSupport

@testable import JSONStore

/// Writes SQLite files in Core Data's layout for each of the app's model versions (1–7), through
/// the same run-time-loaded SQLite the import uses: a table per entity (`Z` + upper-cased name),
/// a column per attribute (`Z` + upper-cased name), `Z_PK`/`Z_ENT`/`Z_OPT`, `Z_PRIMARYKEY`,
/// `Z_METADATA` (one row whose `Z_PLIST` is a binary property list with the entity hashes, as Core
/// Data writes it), `Z_MODELCACHE`, UUIDs as 16-byte blobs, dates as seconds since 2001-01-01,
/// booleans as 0/1. `early` writes the app's builds before 2025-11-15 (`CDSession`, no
/// `CDUserSession`), with or without the queue columns of 2025-11-14.
///
/// Rows are dictionaries of column values, so a test can write any odd value the app (or a
/// damaged file) may hold; a column the model version lacks is left out.
final class CoreDataFixture {
    /// Whether this machine has the SQLite library the import loads (the suites skip without it).
    static let sqliteAvailable: Bool = { if case .success = SQLiteLibrary.shared { return true } else { return false } }()
    static let sqliteMissing = "libsqlite3.so.0 not found: apt-get install libsqlite3-0"

    typealias Row = [String: SQLiteValue]
    let path: String
    let version: Int
    let early: Bool
    let queueColumns: Bool
    let database: SQLiteDatabase
    let entities: [(String, String)]
    private var nextPK: [String: Int64] = [:]

    static let entities = [("CDBackendSession", "ZCDBACKENDSESSION"), ("CDMessage", "ZCDMESSAGE"), ("CDUserSession", "ZCDUSERSESSION")]
    static let earlyEntities = [("CDSession", "ZCDSESSION"), ("CDMessage", "ZCDMESSAGE")]

    /// The early build's work-stream columns: the first build's, then what 2025-10-19 and 2025-11-14 added.
    static func earlyColumns(queue: Bool) -> [(String, String)] {
        [
            ("ZMARKEDDELETED", "INTEGER"), ("ZMESSAGECOUNT", "INTEGER"), ("ZLASTMODIFIED", "TIMESTAMP"), ("ZBACKENDNAME", "VARCHAR"),
            ("ZLOCALNAME", "VARCHAR"), ("ZPREVIEW", "VARCHAR"), ("ZWORKINGDIRECTORY", "VARCHAR"), ("ZID", "BLOB"),
        ]
            + (queue
                ? [
                    ("ZISLOCALLYCREATED", "INTEGER"), ("ZUNREADCOUNT", "INTEGER"), ("ZISINQUEUE", "INTEGER"), ("ZQUEUEPOSITION", "INTEGER"),
                    ("ZQUEUEDAT", "TIMESTAMP"),
                ] : [])
    }

    /// A stand-in for the 32-byte version hash Core Data computes per entity (SHA-256 of its
    /// description): fixed per entity and model version, so tests can compare it.
    static func hash(_ entity: String, version: Int, early: Bool) -> Data {
        let seed = Array("\(entity)/\(version)/\(early)".utf8)
        return Data((0..<32).map { i in seed[i % seed.count] &+ UInt8(i) })
    }

    /// `Z_METADATA.Z_PLIST` as Core Data writes it: a binary property list.
    static func metadataPlist(_ entities: [String: Data], uuid: String) throws -> [UInt8] {
        let plist: [String: Any] = [
            "NSStoreModelVersionHashes": entities, "NSStoreModelVersionHashesVersion": 3, "NSStoreModelVersionIdentifiers": [""],
            "NSStoreModelVersionChecksumKey": "bMpud663vz0bXQE24C6Rh4MvJ5jVnzsD2sI3njZkKbc=", "NSStoreType": "SQLite",
            "NSStoreUUID": uuid, "NSPersistenceFrameworkVersion": 1414, "_NSAutoVacuumLevel": "2",
        ]
        return Array(try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
    }

    /// The columns of each table in model `version`, with their SQLite types.
    static func columns(_ table: String, version: Int) -> [(String, String)] {
        let all: [String: [(String, String, Int)]] = [
            "ZCDBACKENDSESSION": [
                ("ZISINQUEUE", "INTEGER", 1), ("ZISLOCALLYCREATED", "INTEGER", 1), ("ZMESSAGECOUNT", "INTEGER", 1),
                ("ZQUEUEPOSITION", "INTEGER", 1), ("ZUNREADCOUNT", "INTEGER", 1), ("ZISINPRIORITYQUEUE", "INTEGER", 2),
                ("ZPRIORITY", "INTEGER", 2), ("ZNEXTSEQ", "INTEGER", 5), ("ZLIVEFROMSEQ", "INTEGER", 6),
                ("ZLASTOFFSETMERGED", "INTEGER", 7), ("ZLIVEFROMOFFSET", "INTEGER", 7), ("ZLASTMODIFIED", "TIMESTAMP", 1),
                ("ZQUEUEDAT", "TIMESTAMP", 1), ("ZPRIORITYORDER", "FLOAT", 2), ("ZPRIORITYQUEUEDAT", "TIMESTAMP", 2),
                ("ZBACKENDNAME", "VARCHAR", 1), ("ZPREVIEW", "VARCHAR", 1), ("ZWORKINGDIRECTORY", "VARCHAR", 1),
                ("ZPROVIDER", "VARCHAR", 3), ("ZLASTFILESIGNATURE", "VARCHAR", 7), ("ZID", "BLOB", 1),
            ],
            "ZCDMESSAGE": [
                ("ZSESSION", "INTEGER", 1), ("ZSEQ", "INTEGER", 4), ("ZOFFSET", "INTEGER", 7), ("ZSERVERTIMESTAMP", "TIMESTAMP", 1),
                ("ZTIMESTAMP", "TIMESTAMP", 1), ("ZROLE", "VARCHAR", 1), ("ZSTATUS", "VARCHAR", 1), ("ZTEXT", "VARCHAR", 1),
                ("ZID", "BLOB", 1), ("ZSESSIONID", "BLOB", 1),
            ],
            "ZCDUSERSESSION": [
                ("ZISUSERDELETED", "INTEGER", 1), ("ZCREATEDAT", "TIMESTAMP", 1), ("ZCUSTOMNAME", "VARCHAR", 1), ("ZID", "BLOB", 1),
            ],
        ]
        return all[table]!.filter { $0.2 <= version }.map { ($0.0, $0.1) }
    }

    /// Creates the file at `path` in WAL mode, with automatic checkpoints off (so that what is
    /// written after `checkpoint()` stays only in the `-wal` until the file is copied).
    init(_ path: String, version: Int, early: Bool = false, queueColumns: Bool = true) throws {
        self.path = path
        self.version = version
        self.early = early
        self.queueColumns = queueColumns
        entities = early ? Self.earlyEntities : Self.entities
        database = try SQLiteDatabase(path, readOnly: false, create: true)
        try database.query("PRAGMA journal_mode=WAL") { _ in }
        try database.execute("PRAGMA wal_autocheckpoint=0")
        try database.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        for (index, (entity, table)) in entities.enumerated() {
            let columns = (table == "ZCDSESSION" ? Self.earlyColumns(queue: queueColumns) : Self.columns(table, version: version)).map { "\($0.0) \($0.1)" }
                .joined(separator: ", ")
            try database.execute("CREATE TABLE \(table) ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \(columns) )")
            try database.query("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, 0, 0)", [.integer(Int64(index + 1)), .text(entity)])
        }
        try database.execute("CREATE INDEX ZCDMESSAGE_ZSESSION_INDEX ON ZCDMESSAGE (ZSESSION)")
        if version >= 4 {
            try database.execute("CREATE INDEX Z_CDMessage_bySessionAndSeq ON ZCDMESSAGE (ZSESSIONID COLLATE BINARY ASC, ZSEQ COLLATE BINARY DESC)")
        }
        try database.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        let uuid = UUID().uuidString
        let hashes = Dictionary(uniqueKeysWithValues: entities.map { ($0.0, Self.hash($0.0, version: version, early: early)) })
        try database.query("INSERT INTO Z_METADATA VALUES (1, ?, ?)", [.text(uuid), .blob(try Self.metadataPlist(hashes, uuid: uuid))])
        // Core Data caches the compiled model here (a compressed blob); its bytes are never read.
        try database.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        try database.query("INSERT INTO Z_MODELCACHE VALUES (?)", [.blob(Array(repeating: 0x5a, count: 64))])
    }

    /// Seconds since 2001-01-01 00:00 UTC, as Core Data stores a date.
    static func date(_ iso: String) -> SQLiteValue {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return .real(formatter.date(from: iso)!.timeIntervalSinceReferenceDate)
    }

    static func blob(_ id: UUID) -> SQLiteValue { .blob(withUnsafeBytes(of: id.uuid) { Array($0) }) }

    /// Inserts one row; returns its `Z_PK`. Columns the version lacks are dropped.
    @discardableResult
    func insert(_ table: String, _ row: Row) throws -> Int64 {
        let pk = (nextPK[table] ?? 0) + 1
        nextPK[table] = pk
        let known = Set((table == "ZCDSESSION" ? Self.earlyColumns(queue: queueColumns) : Self.columns(table, version: version)).map(\.0))
        let kept = row.filter { known.contains($0.key) }.sorted { $0.key < $1.key }
        let entity = Int64(entities.firstIndex { $0.1 == table }! + 1)
        let names = (["Z_PK", "Z_ENT", "Z_OPT"] + kept.map(\.key)).joined(separator: ", ")
        let marks = Array(repeating: "?", count: kept.count + 3).joined(separator: ", ")
        try database.query("INSERT INTO \(table) (\(names)) VALUES (\(marks))", [.integer(pk), .integer(entity), .integer(1)] + kept.map(\.value))
        return pk
    }

    /// Runs `body` in one transaction (much faster for many rows).
    func transaction(_ body: () throws -> Void) throws {
        try database.execute("BEGIN")
        try body()
        try database.execute("COMMIT")
    }

    /// Moves everything written so far into the main file; what is written after stays in the `-wal`.
    func checkpoint() throws { try database.query("PRAGMA wal_checkpoint(TRUNCATE)") { _ in } }

    /// Copies the file, its `-wal` and `-shm` to `target` while this connection still holds them
    /// open, so the copy's last commits are only in its `-wal` (closing would checkpoint them).
    func copyFiles(to target: String) throws {
        try finishPrimaryKeys()
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            if FileManager.default.fileExists(atPath: target + suffix) { try FileManager.default.removeItem(atPath: target + suffix) }
            try FileManager.default.copyItem(atPath: path + suffix, toPath: target + suffix)
        }
    }

    /// `Z_PRIMARYKEY` with each entity's highest `Z_PK`, as Core Data keeps it.
    private func finishPrimaryKeys() throws {
        try database.execute("DELETE FROM Z_PRIMARYKEY")
        for (index, (entity, table)) in entities.enumerated() {
            try database.query(
                "INSERT INTO Z_PRIMARYKEY VALUES (?, ?, 0, ?)",
                [.integer(Int64(index + 1)), .text(entity), .integer(nextPK[table] ?? 0)])
        }
    }
}
