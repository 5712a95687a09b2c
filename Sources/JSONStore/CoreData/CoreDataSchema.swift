import Foundation

/// A table, column or entity in the file that none of the app's models has (a newer model, or a
/// hand edit): refused by default, dropped and reported with `--allow-unknown` (spec §13).
public struct CoreDataUnknown: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable { case table, column, entity }
    public var kind: Kind
    /// `ZCDMESSAGE.ZATTACHMENTS` for a column, the table name for a table, the entity name for an entity.
    public var name: String
    /// Rows that hold a non-null value in the column; rows of the table or of the entity's table.
    public var rows: Int

    /// `column ZCDMESSAGE.ZATTACHMENTS (2 rows hold a value)`.
    public var description: String {
        "\(kind.rawValue) \(name) (\(rows) row\(rows == 1 ? "" : "s")\(kind == .column ? " hold\(rows == 1 ? "s" : "") a value" : ""))"
    }
}

/// Reading the file's tables and columns, finding what is unknown, and the SELECT statements
/// that read the app's rows.
enum CoreDataSchema {
    /// Tables Core Data writes for any model besides the entity tables.
    static let coreDataTables: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]

    static func tables(_ database: SQLiteDatabase) throws(StoreError) -> [String] {
        var tables: [String] = []
        try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { row in
            if let name = row.text(0) { tables.append(name) }
        }
        return tables
    }

    static func columns(_ table: String, _ database: SQLiteDatabase) throws(StoreError) -> Set<String> {
        var names: Set<String> = []
        try database.query("PRAGMA table_info(\(quoted(table)))") { row in if let name = row.text(1) { names.insert(name.uppercased()) } }
        return names
    }

    /// An SQL identifier in double quotes.
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Every unknown entity (in the plist or `Z_PRIMARYKEY`), table and column, in that order, by name.
    static func unknown(
        _ database: SQLiteDatabase, tables: [String], entityTables: [String], present: [String: Set<String>],
        known: [String], metadata: CoreDataMetadata
    ) throws(StoreError) -> [CoreDataUnknown] {
        var entities = metadata.entityNames
        try database.query("SELECT Z_NAME FROM Z_PRIMARYKEY") { row in if let name = row.text(0) { entities.insert(name) } }
        var result: [CoreDataUnknown] = []
        var claimed = Set(entityTables).union(coreDataTables)
        for entity in entities.subtracting(known).sorted() {
            let table = "Z" + entity.uppercased()
            var rows = 0
            if tables.contains(table) {
                claimed.insert(table)
                rows = try count("SELECT COUNT(*) FROM \(quoted(table))", database)
            }
            result.append(CoreDataUnknown(kind: .entity, name: entity, rows: rows))
        }
        for table in tables where !claimed.contains(table) && !table.lowercased().hasPrefix("sqlite_") {
            result.append(CoreDataUnknown(kind: .table, name: table, rows: try count("SELECT COUNT(*) FROM \(quoted(table))", database)))
        }
        for table in entityTables {
            for column in present[table, default: []].subtracting(CoreDataModel.known[table] ?? []).sorted() {
                let rows = try count("SELECT COUNT(*) FROM \(quoted(table)) WHERE \(quoted(column)) IS NOT NULL", database)
                result.append(CoreDataUnknown(kind: .column, name: "\(table).\(column)", rows: rows))
            }
        }
        return result
    }

    private static func count(_ sql: String, _ database: SQLiteDatabase) throws(StoreError) -> Int {
        var n = 0
        try database.query(sql) { row in n = Int(row.int64(0) ?? 0) }
        return n
    }

    /// `SELECT <columns> FROM <table>`, each column the model lacks replaced by its attribute's
    /// default (so a NULL read later is a NULL in the data, never an absent column).
    static func select(_ columns: [(String, String)], from table: String, present: Set<String>, orderBy: String) -> String {
        let list = columns.map { present.contains($0.0) ? $0.0 : $0.1 }.joined(separator: ", ")
        return "SELECT \(list) FROM \(table) ORDER BY \(orderBy)"
    }

    /// Work-stream columns in the order `CoreDataRows.workStream` reads them, with the default of
    /// each; the last two are the early build's customisation.
    static let workStreamSelect: [(String, String)] = [
        ("Z_PK", "NULL"), ("ZID", "NULL"), ("ZBACKENDNAME", "NULL"), ("ZWORKINGDIRECTORY", "NULL"), ("ZISLOCALLYCREATED", "0"),
        ("ZLASTMODIFIED", "NULL"), ("ZMESSAGECOUNT", "0"), ("ZPREVIEW", "''"), ("ZUNREADCOUNT", "0"), ("ZISINQUEUE", "0"),
        ("ZQUEUEPOSITION", "0"), ("ZQUEUEDAT", "NULL"), ("ZISINPRIORITYQUEUE", "0"), ("ZPRIORITY", "10"), ("ZPRIORITYORDER", "0"),
        ("ZPRIORITYQUEUEDAT", "NULL"), ("ZPROVIDER", "'claude'"), ("ZNEXTSEQ", "0"), ("ZLIVEFROMSEQ", "0"),
        ("ZLASTOFFSETMERGED", "0"), ("ZLIVEFROMOFFSET", "0"), ("ZLASTFILESIGNATURE", "NULL"), ("ZLOCALNAME", "NULL"), ("ZMARKEDDELETED", "0"),
    ]
    static let messageSelect: [(String, String)] = [
        ("Z_PK", "NULL"), ("ZID", "NULL"), ("ZSESSIONID", "NULL"), ("ZSESSION", "NULL"), ("ZROLE", "NULL"), ("ZTEXT", "NULL"),
        ("ZTIMESTAMP", "NULL"), ("ZSERVERTIMESTAMP", "NULL"), ("ZSTATUS", "'confirmed'"), ("ZSEQ", "0"), ("ZOFFSET", "0"),
    ]
    static let customisationSelect: [(String, String)] = [
        ("Z_PK", "NULL"), ("ZID", "NULL"), ("ZCUSTOMNAME", "NULL"), ("ZISUSERDELETED", "0"), ("ZCREATEDAT", "NULL"),
    ]
}

extension CoreDataModel {
    var workStreamQuery: String {
        CoreDataSchema.select(CoreDataSchema.workStreamSelect, from: workStreamTable, present: workStreamColumns, orderBy: "ZID, Z_PK")
    }
    /// By `sessionId` (each work stream takes its run); within one, re-sorted by (`timestamp`, `offset`, `Z_PK`) once read.
    var messageQuery: String {
        CoreDataSchema.select(CoreDataSchema.messageSelect, from: Self.messageTable, present: messageColumns, orderBy: "ZSESSIONID, ZTIMESTAMP, Z_PK")
    }
    /// Nil in the early build, whose customisations are in the work-stream rows.
    var customisationQuery: String? {
        build == .early
            ? nil
            : CoreDataSchema.select(CoreDataSchema.customisationSelect, from: Self.customisationTable, present: customisationColumns, orderBy: "ZID, Z_PK")
    }
}
