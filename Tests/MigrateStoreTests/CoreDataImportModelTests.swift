import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// `import-coredata` reads the model as Core Data recorded it (spec §13): the entity set and
/// hashes of `Z_METADATA`'s plist, unknown tables, columns and entities refused or, with
/// `--allow-unknown`, left out and listed; the app's builds before 2025-11-15; the model-7
/// offsets derived as the app derives them; messages in the app's order.
@Suite(.enabled(if: SkippedTests.check(CoreDataFixture.sqliteAvailable, "MigrateStoreTests CoreDataImportModelTests", CoreDataFixture.sqliteMissing)))
struct CoreDataImportModelTests {
    typealias S = AppStoreSample
    typealias F = CoreDataFixture

    private func document(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test func theFixturesMetadataIsTheBinaryPlistCoreDataWrites() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        var blob: [UInt8] = [], caches = 0
        let db = try SQLiteDatabase(source, readOnly: true)
        try db.query("SELECT Z_PLIST FROM Z_METADATA") { blob = $0.blob(0) ?? [] }
        try db.query("SELECT COUNT(*) FROM Z_MODELCACHE") { caches = Int($0.int64(0) ?? 0) }
        #expect(Array(blob.prefix(8)) == Array("bplist00".utf8) && caches == 1)
        var format = PropertyListSerialization.PropertyListFormat.xml
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(blob), options: [], format: &format) as? [String: Any])
        #expect(format == .binary && plist["NSStoreType"] as? String == "SQLite" && plist["NSStoreModelVersionHashesVersion"] as? Int == 3)
        let hashes = try #require(plist["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(hashes.keys.sorted() == ["CDBackendSession", "CDMessage", "CDUserSession"] && hashes.values.allSatisfy { $0.count == 32 })
    }

    @Test func theModelIsExplainedAndItsHashesRecordedInTheMigrationRecord() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 6, in: scratch.path)
        let report = try CoreDataImport.run(source: source, into: scratch("store"), tool: "tests", version: "9.9")
        #expect(
            report.modelExplanation == "entities CDBackendSession, CDMessage, CDUserSession; ZCDBACKENDSESSION has ZLIVEFROMSEQ, "
                + "added in version 6, and not ZLASTFILESIGNATURE (version 7's)")
        let migrations = try #require(try document(scratch("store/store.json"))["migrations"] as? [[String: Any]])
        #expect(migrations.count == 1)
        let record = try #require(migrations.first)
        #expect(
            record["from"] as? Int == CoreDataImport.schemaVersion && record["to"] as? Int == CoreDataImport.schemaVersion
                && record["tool_version"] as? String == "9.9")
        #expect(record["source"] as? String == "core_data" && record["core_data_model_version"] as? Int == 6)
        let hashes = try #require(record["core_data_entity_hashes"] as? [String: String])
        #expect(hashes["CDMessage"] == F.hash("CDMessage", version: 6, early: false).base64EncodedString() && hashes.count == 3)
        let counts = try #require(record["counts"] as? [String: Int])
        #expect(counts["work_streams"] == 4 && counts["messages"] == 4 && counts["offsets_backfilled"] == report.offsetsBackfilled)
    }

    /// The v7 sample with a column the app never had in each of two tables, a new entity, and a table of no entity.
    private func sampleWithUnknowns(_ scratch: TemporaryDirectory) throws -> String {
        let source = try S.write(version: 7, in: scratch.path)
        let db = try SQLiteDatabase(source, readOnly: false)
        try db.execute("ALTER TABLE ZCDBACKENDSESSION ADD COLUMN ZPROVIDERSESSIONID VARCHAR; ALTER TABLE ZCDMESSAGE ADD COLUMN ZATTACHMENTS BLOB")
        try db.execute("UPDATE ZCDBACKENDSESSION SET ZPROVIDERSESSIONID = 'p-1' WHERE Z_PK = 1")
        try db.execute("CREATE TABLE ZCDATTACHMENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)")
        try db.execute("INSERT INTO ZCDATTACHMENT VALUES (1, 4, 1, 'a.png'); INSERT INTO ZCDATTACHMENT VALUES (2, 4, 1, 'b.png')")
        try db.execute("INSERT INTO Z_PRIMARYKEY VALUES (4, 'CDAttachment', 0, 2)")
        try db.execute("CREATE TABLE ZEXTRA (ZNOTE VARCHAR); INSERT INTO ZEXTRA VALUES ('by hand')")
        let names = ["CDBackendSession", "CDMessage", "CDUserSession", "CDAttachment"]
        let plist = try F.metadataPlist(Dictionary(uniqueKeysWithValues: names.map { ($0, F.hash($0, version: 8, early: false)) }), uuid: "U")
        try db.query("UPDATE Z_METADATA SET Z_PLIST = ?", [.blob(plist)])
        return source
    }

    @Test func unknownColumnsAndEntitiesAreRefusedWith65EachNamedWithItsRows() throws {
        let scratch = TemporaryDirectory()
        let source = try sampleWithUnknowns(scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: source))
        let run = try BuiltTool.run(["import-coredata", source, scratch("store")])
        #expect(run.code == 65, "\(run)")
        #expect(
            run.stderr.contains(
                "Error: Can't import '\(source)': it has 4 tables, columns or entities that no model of the app has "
                    + "(a newer model, or an edit), whose data would not be imported: entity CDAttachment (2 rows); table ZEXTRA (1 row); "
                    + "column ZCDBACKENDSESSION.ZPROVIDERSESSIONID (1 row holds a value); column ZCDMESSAGE.ZATTACHMENTS "
                    + "(0 rows hold a value). Run again with --allow-unknown"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("store")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
    }

    @Test func allowUnknownImportsTheRestAndListsEachLeftOut() throws {
        let scratch = TemporaryDirectory()
        let source = try sampleWithUnknowns(scratch)
        let run = try BuiltTool.run(["import-coredata", source, scratch("store"), "--allow-unknown"])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.contains(
                "\n  left out (--allow-unknown), 4 not in any model of the app:\n    entity CDAttachment (2 rows)\n    table ZEXTRA (1 row)\n"
                    + "    column ZCDBACKENDSESSION.ZPROVIDERSESSIONID (1 row holds a value)\n"
                    + "    column ZCDMESSAGE.ZATTACHMENTS (0 rows hold a value)\n"), "\(run.stdout)")
        let json = try BuiltTool.run(["import-coredata", source, scratch("store2"), "--allow-unknown", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let unknown = try #require(object["unknown"] as? [[String: Any]])
        #expect(
            unknown.map { "\($0["kind"]!) \($0["name"]!) \($0["rows"]!)" }
                == ["entity CDAttachment 2", "table ZEXTRA 1", "column ZCDBACKENDSESSION.ZPROVIDERSESSIONID 1", "column ZCDMESSAGE.ZATTACHMENTS 0"])
    }

    @Test func aMissingEntityTableIsNamed() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        try SQLiteDatabase(source, readOnly: false).execute("DROP TABLE ZCDMESSAGE")
        let run = try BuiltTool.run(["import-coredata", source, scratch("store")])
        #expect(run.code == 65, "\(run)")
        #expect(
            run.stderr.contains(
                "Can't import '\(source)': its model has the entity CDMessage (table ZCDMESSAGE) but the file has no "
                    + "table 'ZCDMESSAGE': it is damaged or was edited."), "\(run.stderr)")
    }

    /// The app's builds before 2025-11-15: `CDSession` with `localName` and `markedDeleted`; the
    /// first of them also without the queue columns.
    @Test(arguments: [true, false])
    func earlyBuildsImportWithTheirCustomisations(queueColumns: Bool) throws {
        let scratch = TemporaryDirectory()
        let fixture = try F(scratch("build.sqlite"), version: 1, early: true, queueColumns: queueColumns)
        let named = UUID(), deleted = UUID(), plain = UUID()
        for (id, name, gone) in [(named, "Mine", 0), (deleted, "", 1), (plain, nil, 0)] as [(UUID, String?, Int64)] {
            try fixture.insert(
                "ZCDSESSION",
                [
                    "ZID": F.blob(id), "ZBACKENDNAME": .text("b"), "ZWORKINGDIRECTORY": .text("/w"),
                    "ZLASTMODIFIED": F.date("2025-11-01T10:00:00.000Z"), "ZMESSAGECOUNT": .integer(1),
                    "ZPREVIEW": .text(""), "ZLOCALNAME": name.map { .text($0) } ?? .null,
                    "ZMARKEDDELETED": .integer(gone), "ZISINQUEUE": .integer(1), "ZQUEUEPOSITION": .integer(1),
                ])
        }
        try fixture.insert(
            "ZCDMESSAGE",
            [
                "ZID": F.blob(UUID()), "ZSESSIONID": F.blob(named), "ZSESSION": .integer(1), "ZROLE": .text("user"),
                "ZTEXT": .text("hi"), "ZTIMESTAMP": F.date("2025-11-01T09:00:00.000Z"), "ZSTATUS": .text("confirmed"),
            ])
        try fixture.copyFiles(to: scratch("VoiceCode.sqlite"))
        let report = try CoreDataImport.run(source: scratch("VoiceCode.sqlite"), into: scratch("store"), tool: "tests", version: "1")
        #expect(report.modelVersion == 1 && report.earlyBuild && report.workStreams == 3 && report.messages == 1 && report.customisations == 2)
        #expect(
            report.modelExplanation == "entities CDSession, CDMessage, no CDUserSession: the app's builds before 2025-11-15"
                + (queueColumns ? "" : ", from before 2025-11-14 (no queue columns: their defaults are taken)"))
        #expect(report.fifo.count == (queueColumns ? 3 : 0))
        let mine = try document(scratch("store/user-sessions/\(named.lowercased).json"))
        #expect(
            mine["custom_name"] as? String == "Mine" && mine["is_user_deleted"] as? Bool == false
                && mine["created_at"] as? String == "2025-11-01T10:00:00.000Z")
        let gone = try document(scratch("store/user-sessions/\(deleted.lowercased).json"))
        #expect(gone["custom_name"] is NSNull && gone["is_user_deleted"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: scratch("store/user-sessions/\(plain.lowercased).json")))
        let taken = report.findings.filter { $0.kind == .customisationFromSession }
        #expect(
            Set(taken.map(\.detail)) == [
                "localName 'Mine' and markedDeleted 0 taken as the customisation: custom_name 'Mine', is_user_deleted false, created_at 2025-11-01T10:00:00.000Z (lastModified)",
                "localName empty and markedDeleted 1 taken as the customisation: custom_name none, is_user_deleted true, created_at 2025-11-01T10:00:00.000Z (lastModified)",
            ])
    }

    @Test(arguments: [4, 5, 6])
    func modelsFourToSixGetTheOffsetsTheAppDerives(version: Int) throws {
        let scratch = TemporaryDirectory()
        let report = try CoreDataImport.run(source: try S.write(version: version, in: scratch.path), into: scratch("store"), tool: "tests", version: "1")
        let a = try document(scratch("store/sessions/\(S.a.lowercased).json"))
        #expect(a["last_offset_merged"] as? Int == (version >= 5 ? 41 : 0))
        #expect(a["live_from_offset"] as? Int == (version >= 6 ? 39 : 0))
        let messages = try #require(a["messages"] as? [[String: Any]])
        #expect(messages.map { $0["offset"] as? Int } == [40, 41])
        #expect(report.backfillApplied && report.offsetsBackfilled == 2 + (version >= 5 ? 1 : 0) + (version >= 6 ? 1 : 0))
        #expect(report.findings.contains { $0.kind == .offsetBackfilled && $0.detail == "offset 0 → 41: max(0, seq 42 − 1), as the app does once on model 7" })
        if version >= 5 {
            #expect(
                report.findings.contains {
                    $0.table == "ZCDBACKENDSESSION" && $0.detail == "last_offset_merged 0 → 41: max(0, next_seq 42 − 1), as the app does once on model 7"
                })
        }
    }

    /// A model-7 file: the offsets still 0 are derived unless the preferences say the app did it.
    @Test(arguments: [nil, false, true] as [Bool?])
    func modelSevenFollowsTheAppsBackfillPreference(done: Bool?) throws {
        let scratch = TemporaryDirectory()
        let fixture = try F(scratch("build.sqlite"), version: 7)
        let id = UUID()
        try fixture.insert(
            "ZCDBACKENDSESSION",
            [
                "ZID": F.blob(id), "ZBACKENDNAME": .text("x"), "ZWORKINGDIRECTORY": .text("/"),
                "ZLASTMODIFIED": .real(1), "ZNEXTSEQ": .integer(19), "ZLASTOFFSETMERGED": .integer(0),
            ])
        try fixture.copyFiles(to: scratch("VoiceCode.sqlite"))
        var prefs: String?
        if let done {
            let data = try PropertyListSerialization.data(fromPropertyList: ["VoiceCode.v6ToV7BackfillComplete": done], format: .binary, options: 0)
            try data.write(to: URL(fileURLWithPath: scratch("prefs.plist")))
            prefs = scratch("prefs.plist")
        }
        let report = try CoreDataImport.run(source: scratch("VoiceCode.sqlite"), into: scratch("store"), preferences: prefs, tool: "tests", version: "1")
        #expect(report.backfillApplied == (done != true))
        #expect(try document(scratch("store/sessions/\(id.lowercased).json"))["last_offset_merged"] as? Int == (done == true ? 0 : 18))
        #expect(report.preferenceKeysNotCarried.isEmpty)
    }

    @Test func messagesWithEqualTimestampsAreInOffsetOrderAsTheAppShowsThem() throws {
        let scratch = TemporaryDirectory()
        let fixture = try F(scratch("build.sqlite"), version: 7)
        let id = UUID()
        try fixture.insert("ZCDBACKENDSESSION", ["ZID": F.blob(id), "ZBACKENDNAME": .text("x"), "ZWORKINGDIRECTORY": .text("/"), "ZLASTMODIFIED": .real(1)])
        for (text, time, offset) in [("third", 5.0, 30), ("second", 5.0, 20), ("first", 4.0, 99), ("fourth", 6.0, 0)] as [(String, Double, Int64)] {
            try fixture.insert(
                "ZCDMESSAGE",
                [
                    "ZID": F.blob(UUID()), "ZSESSIONID": F.blob(id), "ZROLE": .text("user"), "ZTEXT": .text(text),
                    "ZTIMESTAMP": .real(time), "ZSEQ": .integer(0), "ZOFFSET": .integer(offset),
                ])
        }
        try fixture.copyFiles(to: scratch("VoiceCode.sqlite"))
        _ = try CoreDataImport.run(source: scratch("VoiceCode.sqlite"), into: scratch("store"), tool: "tests", version: "1")
        let stream = try Store.open(at: scratch("store"), options: .init(readOnly: true)).workStream(id)
        #expect(stream.messages?.map(\.text) == ["first", "second", "third", "fourth"])
    }
}
