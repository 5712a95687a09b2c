/// Which of the app's Core Data model versions (1–7) a file holds, recognised from its tables and
/// columns (spec §12), and the SELECT statements that read its rows.
///
/// Core Data's SQLite layout: a table per entity, `Z` + the upper-cased entity name; a column per
/// attribute, `Z` + the upper-cased attribute name; `Z_PK`, `Z_ENT`, `Z_OPT`; and the tables
/// `Z_PRIMARYKEY` (one row per entity) and `Z_METADATA`.
struct CoreDataModel: Sendable, Equatable {
    static let workStreamTable = "ZCDBACKENDSESSION", messageTable = "ZCDMESSAGE", customizationTable = "ZCDUSERSESSION"

    /// The model version, 1 to 7.
    let version: Int
    let workStreamColumns: Set<String>
    let messageColumns: Set<String>
    let customizationColumns: Set<String>

    /// The columns each version has, cumulatively: version 1's, then what each later one adds
    /// (the app's `VoiceCode N.xcdatamodel`).
    static let baseWorkStream: Set<String> = ["Z_PK", "ZID", "ZBACKENDNAME", "ZWORKINGDIRECTORY", "ZLASTMODIFIED", "ZMESSAGECOUNT",
                                              "ZPREVIEW", "ZUNREADCOUNT"]
    static let baseMessage: Set<String> = ["Z_PK", "ZID", "ZSESSIONID", "ZROLE", "ZTEXT", "ZTIMESTAMP"]
    static let baseCustomization: Set<String> = ["Z_PK", "ZID"]
    /// What each version adds, as (table, column): the marker the version is recognised by comes first.
    static let added: [Int: [(String, String)]] = [
        2: [(workStreamTable, "ZISINPRIORITYQUEUE"), (workStreamTable, "ZPRIORITY"), (workStreamTable, "ZPRIORITYORDER"),
            (workStreamTable, "ZPRIORITYQUEUEDAT")],
        3: [(workStreamTable, "ZPROVIDER")],
        4: [(messageTable, "ZSEQ")],
        5: [(workStreamTable, "ZNEXTSEQ")],
        6: [(workStreamTable, "ZLIVEFROMSEQ")],
        7: [(workStreamTable, "ZLASTFILESIGNATURE"), (workStreamTable, "ZLASTOFFSETMERGED"), (workStreamTable, "ZLIVEFROMOFFSET"),
            (messageTable, "ZOFFSET")],
    ]

    /// Recognises the model of `database`, or refuses saying what was found.
    static func recognise(_ database: SQLiteDatabase) throws(StoreError) -> CoreDataModel {
        let file = database.name
        var tables: [String] = []
        try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { row in
            if let name = row.text(0) { tables.append(name) }
        }
        let shown = tables.isEmpty ? "no tables" : "tables " + tables.prefix(12).map { "'\($0)'" }.joined(separator: ", ")
            + (tables.count > 12 ? " and \(tables.count - 12) more" : "")
        guard tables.contains("Z_PRIMARYKEY"), tables.contains("Z_METADATA") else {
            throw StoreError(.invalidDocument, "Can't import '\(file)': it is an SQLite database but not a Core Data store (it has "
                                + "\(shown); a Core Data store has Z_PRIMARYKEY and Z_METADATA). Give the path of the app's VoiceCode.sqlite.", path: file)
        }
        let needed = [workStreamTable, messageTable, customizationTable]
        guard needed.allSatisfy(tables.contains) else {
            var entities: [String] = []
            try database.query("SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_NAME") { row in if let name = row.text(0) { entities.append(name) } }
            throw StoreError(.invalidDocument, "Can't import '\(file)': it is a Core Data store, but not the app's: its entities are "
                                + "\(entities.isEmpty ? "none" : entities.map { "'\($0)'" }.joined(separator: ", ")) (the app's are "
                                + "'CDBackendSession', 'CDMessage' and 'CDUserSession'). Give the path of the app's VoiceCode.sqlite.", path: file)
        }
        let workStream = try columns(workStreamTable, database), message = try columns(messageTable, database)
        let customization = try columns(customizationTable, database)
        let present = [workStreamTable: workStream, messageTable: message, customizationTable: customization]
        var version = 1
        for v in 2...7 where present[added[v]![0].0]!.contains(added[v]![0].1) { version = v }
        var missing: [String] = []
        for (table, base) in [(workStreamTable, baseWorkStream), (messageTable, baseMessage), (customizationTable, baseCustomization)] {
            missing += base.subtracting(present[table]!).sorted().map { "\(table).\($0)" }
        }
        for v in 2...max(2, version) where v <= version {
            missing += added[v]!.filter { !present[$0.0]!.contains($0.1) }.map { "\($0.0).\($0.1)" }
        }
        guard missing.isEmpty else {
            throw StoreError(.invalidDocument, "Can't import '\(file)': it looks like the app's store, model version \(version), but "
                                + "lacks \(missing.joined(separator: ", ")); this tool reads model versions 1 to 7 only. Nothing was written.", path: file)
        }
        return CoreDataModel(version: version, workStreamColumns: workStream, messageColumns: message, customizationColumns: customization)
    }

    private static func columns(_ table: String, _ database: SQLiteDatabase) throws(StoreError) -> Set<String> {
        var names: Set<String> = []
        try database.query("PRAGMA table_info(\(table))") { row in if let name = row.text(1) { names.insert(name.uppercased()) } }
        return names
    }

    /// `SELECT <columns> FROM <table>`, each column the model lacks replaced by its attribute's
    /// default (so a NULL read later is a NULL in the data, never an absent column).
    static func select(_ columns: [(String, String)], from table: String, present: Set<String>, orderBy: String) -> String {
        let list = columns.map { present.contains($0.0) ? $0.0 : $0.1 }.joined(separator: ", ")
        return "SELECT \(list) FROM \(table) ORDER BY \(orderBy)"
    }

    /// Work-stream columns in the order `CoreDataRows.workStream` reads them, with the default of each.
    static let workStreamSelect: [(String, String)] = [
        ("Z_PK", "NULL"), ("ZID", "NULL"), ("ZBACKENDNAME", "NULL"), ("ZWORKINGDIRECTORY", "NULL"), ("ZISLOCALLYCREATED", "0"),
        ("ZLASTMODIFIED", "NULL"), ("ZMESSAGECOUNT", "0"), ("ZPREVIEW", "''"), ("ZUNREADCOUNT", "0"), ("ZISINQUEUE", "0"),
        ("ZQUEUEPOSITION", "0"), ("ZQUEUEDAT", "NULL"), ("ZISINPRIORITYQUEUE", "0"), ("ZPRIORITY", "10"), ("ZPRIORITYORDER", "0"),
        ("ZPRIORITYQUEUEDAT", "NULL"), ("ZPROVIDER", "'claude'"), ("ZNEXTSEQ", "0"), ("ZLIVEFROMSEQ", "0"),
        ("ZLASTOFFSETMERGED", "0"), ("ZLIVEFROMOFFSET", "0"), ("ZLASTFILESIGNATURE", "NULL"),
    ]
    static let messageSelect: [(String, String)] = [
        ("Z_PK", "NULL"), ("ZID", "NULL"), ("ZSESSIONID", "NULL"), ("ZSESSION", "NULL"), ("ZROLE", "NULL"), ("ZTEXT", "NULL"),
        ("ZTIMESTAMP", "NULL"), ("ZSERVERTIMESTAMP", "NULL"), ("ZSTATUS", "'confirmed'"), ("ZSEQ", "0"), ("ZOFFSET", "0"),
    ]
    static let customizationSelect: [(String, String)] = [
        ("Z_PK", "NULL"), ("ZID", "NULL"), ("ZCUSTOMNAME", "NULL"), ("ZISUSERDELETED", "0"), ("ZCREATEDAT", "NULL"),
    ]

    var workStreamQuery: String { Self.select(Self.workStreamSelect, from: Self.workStreamTable, present: workStreamColumns, orderBy: "ZID, Z_PK") }
    var messageQuery: String { Self.select(Self.messageSelect, from: Self.messageTable, present: messageColumns, orderBy: "ZSESSIONID, ZTIMESTAMP, Z_PK") }
    var customizationQuery: String { Self.select(Self.customizationSelect, from: Self.customizationTable, present: customizationColumns, orderBy: "ZID, Z_PK") }
}
