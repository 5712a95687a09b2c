/// Which of the app's Core Data models a file holds (spec §13), decided from the entity set in
/// `Z_METADATA`'s plist and the columns present, with everything the import does not know.
///
/// Core Data's SQLite layout: a table per entity, `Z` + the upper-cased entity name; a column per
/// attribute, `Z` + the upper-cased attribute name; `Z_PK`, `Z_ENT`, `Z_OPT`; and the tables
/// `Z_PRIMARYKEY` (one row per entity), `Z_METADATA` and `Z_MODELCACHE`.
struct CoreDataModel: Sendable, Equatable {
    /// The app's builds before 2025-11-15 (`CDSession` with `localName` and `markedDeleted`, no
    /// `CDUserSession`; their model 1 was later edited in place), or every later one.
    enum Build: Sendable, Equatable { case early, current }

    static let workStreamTable = "ZCDBACKENDSESSION", messageTable = "ZCDMESSAGE", customisationTable = "ZCDUSERSESSION"
    static let earlyWorkStreamTable = "ZCDSESSION"
    static let currentEntities = ["CDBackendSession", "CDMessage", "CDUserSession"], earlyEntities = ["CDMessage", "CDSession"]

    /// The model version, 1 to 7 (the early build is version 1).
    let version: Int
    let build: Build
    /// `ZCDBACKENDSESSION`, or `ZCDSESSION` in the early build.
    let workStreamTable: String
    let workStreamColumns: Set<String>
    let messageColumns: Set<String>
    /// Empty in the early build (it has no `CDUserSession`).
    let customisationColumns: Set<String>
    /// The plist's entity hashes, recorded in the migration record.
    let metadata: CoreDataMetadata
    /// Tables, columns and entities the import does not know, with how many rows hold a value in each.
    let unknown: [CoreDataUnknown]
    /// Why this version: the entity set and the columns that decided it.
    let explanation: String

    /// The columns of version 1 that every store has, by table.
    static let base: [String: Set<String>] = [
        workStreamTable: ["Z_PK", "ZID", "ZBACKENDNAME", "ZWORKINGDIRECTORY", "ZLASTMODIFIED", "ZMESSAGECOUNT", "ZPREVIEW", "ZUNREADCOUNT"],
        earlyWorkStreamTable: [
            "Z_PK", "ZID", "ZBACKENDNAME", "ZWORKINGDIRECTORY", "ZLASTMODIFIED", "ZMESSAGECOUNT", "ZPREVIEW",
            "ZLOCALNAME", "ZMARKEDDELETED",
        ],
        messageTable: ["Z_PK", "ZID", "ZSESSIONID", "ZROLE", "ZTEXT", "ZTIMESTAMP"],
        customisationTable: ["Z_PK", "ZID"],
    ]
    /// Every column the app's models ever had, by table (what is not here is unknown).
    static let known: [String: Set<String>] = {
        let core: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        let queue: Set<String> = ["ZISLOCALLYCREATED", "ZISINQUEUE", "ZQUEUEPOSITION", "ZQUEUEDAT"]
        let later = Set(added.values.joined().filter { $0.0 == workStreamTable }.map(\.1))
        return [
            workStreamTable: core.union(base[workStreamTable]!).union(queue).union(later),
            earlyWorkStreamTable: core.union(base[earlyWorkStreamTable]!).union(queue).union(["ZUNREADCOUNT"]),
            messageTable: core.union(base[messageTable]!).union(["ZSERVERTIMESTAMP", "ZSTATUS", "ZSESSION", "ZSEQ", "ZOFFSET"]),
            customisationTable: core.union(["ZID", "ZCUSTOMNAME", "ZISUSERDELETED", "ZCREATEDAT"]),
        ]
    }()
    /// What each version adds, as (table, column): the marker the version is recognised by comes first.
    static let added: [Int: [(String, String)]] = [
        2: [
            (workStreamTable, "ZISINPRIORITYQUEUE"), (workStreamTable, "ZPRIORITY"), (workStreamTable, "ZPRIORITYORDER"),
            (workStreamTable, "ZPRIORITYQUEUEDAT"),
        ],
        3: [(workStreamTable, "ZPROVIDER")],
        4: [(messageTable, "ZSEQ")],
        5: [(workStreamTable, "ZNEXTSEQ")],
        6: [(workStreamTable, "ZLIVEFROMSEQ")],
        7: [
            (workStreamTable, "ZLASTFILESIGNATURE"), (workStreamTable, "ZLASTOFFSETMERGED"), (workStreamTable, "ZLIVEFROMOFFSET"),
            (messageTable, "ZOFFSET"),
        ],
    ]

    /// Recognises the model of `database`, or refuses saying what was found. Unknown tables,
    /// columns and entities are listed in `unknown`; refusing them is the caller's choice.
    static func recognise(_ database: SQLiteDatabase) throws(StoreError) -> CoreDataModel {
        let file = database.name
        let tables = try CoreDataSchema.tables(database)
        let shown =
            tables.isEmpty
            ? "no tables"
            : "tables " + tables.prefix(12).map { "'\($0)'" }.joined(separator: ", ")
                + (tables.count > 12 ? " and \(tables.count - 12) more" : "")
        guard tables.contains("Z_PRIMARYKEY"), tables.contains("Z_METADATA") else {
            throw StoreError(
                .invalidDocument,
                "Can't import '\(file)': it is an SQLite database but not a Core Data store (it has "
                    + "\(shown); a Core Data store has Z_PRIMARYKEY and Z_METADATA). Give the path of the app's VoiceCode.sqlite.", path: file)
        }
        let metadata = try CoreDataMetadata.read(database)
        let entities = metadata.entityNames
        let build: Build
        if Set(currentEntities).isSubset(of: entities) {
            build = .current
        } else if Set(earlyEntities).isSubset(of: entities), !entities.contains("CDBackendSession") {
            build = .early
        } else {
            throw StoreError(
                .invalidDocument,
                "Can't import '\(file)': it is a Core Data store, but not the app's: its model's entities are "
                    + "\(entities.isEmpty ? "none" : entities.sorted().map { "'\($0)'" }.joined(separator: ", ")) (the app's are "
                    + "'CDBackendSession', 'CDMessage' and 'CDUserSession', or before 2025-11-15 'CDSession' and 'CDMessage'). "
                    + "Give the path of the app's VoiceCode.sqlite.", path: file)
        }
        let names = build == .current ? currentEntities : earlyEntities
        let entityTables = names.map { "Z" + $0.uppercased() }
        let absent = zip(names, entityTables).filter { !tables.contains($0.1) }
        guard absent.isEmpty else {
            throw StoreError(
                .invalidDocument,
                "Can't import '\(file)': its model has the entit\(absent.count == 1 ? "y" : "ies") "
                    + absent.map { "\($0.0) (table \($0.1))" }.joined(separator: ", ") + " but the file has no table "
                    + absent.map { "'\($0.1)'" }.joined(separator: ", ") + ": it is damaged or was edited. Nothing was written.", path: file)
        }
        var present: [String: Set<String>] = [:]
        for table in entityTables { present[table] = try CoreDataSchema.columns(table, database) }
        let workTable = build == .current ? workStreamTable : earlyWorkStreamTable
        var version = 1
        var reason: String
        if build == .current {
            for v in 2...7 where present[added[v]![0].0]!.contains(added[v]![0].1) { version = v }
            reason =
                version == 1
                ? "ZCDBACKENDSESSION has none of the columns later versions add (ZISINPRIORITYQUEUE is version 2's)"
                : "\(added[version]![0].0) has \(added[version]![0].1), added in version \(version)"
                    + (version < 7 ? ", and not \(added[version + 1]![0].1) (version \(version + 1)'s)" : "")
            reason = "entities CDBackendSession, CDMessage, CDUserSession; " + reason
        } else {
            let queue = present[workTable]!.contains("ZISINQUEUE")
            reason =
                "entities CDSession, CDMessage, no CDUserSession: the app's builds before 2025-11-15"
                + (queue ? "" : ", from before 2025-11-14 (no queue columns: their defaults are taken)")
        }
        var missing: [String] = []
        for table in entityTables { missing += base[table]!.subtracting(present[table]!).sorted().map { "\(table).\($0)" } }
        if build == .current {
            for v in 2...max(2, version) where v <= version {
                missing += added[v]!.filter { !present[$0.0]!.contains($0.1) }.map { "\($0.0).\($0.1)" }
            }
        }
        guard missing.isEmpty else {
            throw StoreError(
                .invalidDocument,
                "Can't import '\(file)': it looks like the app's store, model version \(version), but "
                    + "lacks \(missing.joined(separator: ", ")); this tool reads model versions 1 to 7 only. Nothing was written.", path: file)
        }
        let unknown = try CoreDataSchema.unknown(
            database, tables: tables, entityTables: entityTables, present: present,
            known: names, metadata: metadata)
        return CoreDataModel(
            version: version, build: build, workStreamTable: workTable, workStreamColumns: present[workTable]!,
            messageColumns: present[messageTable]!, customisationColumns: present[customisationTable] ?? [],
            metadata: metadata, unknown: unknown, explanation: reason)
    }
}
