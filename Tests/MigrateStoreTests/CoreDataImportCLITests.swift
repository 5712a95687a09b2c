import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// `migrate-store import-coredata`, run as the built binary: the result passes `verify` and
/// `validate`, the source files keep their bytes and times, and every bad input is refused with
/// its exit status and nothing written.
@Suite(.enabled(if: SkippedTests.check(CoreDataFixture.sqliteAvailable, "MigrateStoreTests CoreDataImportCLITests", CoreDataFixture.sqliteMissing)))
struct CoreDataImportCLITests {
    typealias S = AppStoreSample

    /// Bytes and modification times of the file, its -wal and -shm.
    private func fingerprint(_ source: String) throws -> [String: ([UInt8], Int, Int)] {
        var result: [String: ([UInt8], Int, Int)] = [:]
        for suffix in ["", "-wal", "-shm"] {
            var status = stat()
            guard lstat(source + suffix, &status) == 0 else { continue }
            #if canImport(Darwin)
            let time = status.st_mtimespec
            #else
            let time = status.st_mtim
            #endif
            result[suffix] = (Array(try Data(contentsOf: URL(fileURLWithPath: source + suffix))), Int(time.tv_sec), Int(time.tv_nsec))
        }
        return result
    }

    private func same(_ a: [String: ([UInt8], Int, Int)], _ b: [String: ([UInt8], Int, Int)]) -> Bool {
        a.keys.sorted() == b.keys.sorted() && a.allSatisfy { key, value in b[key].map { $0 == value } ?? false }
    }

    @Test func importedStorePassesVerifyAndValidate() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        let run = try BuiltTool.run(["import-coredata", source, scratch("store")])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.hasPrefix("Imported '\(source)' (Core Data model version 7, with its -wal file) into '\(scratch("store"))': 10 files ("), "\(run.stdout)"
        )
        #expect(run.stdout.contains("\n  4 work streams, 4 messages, 3 customisations\n  queue: 3 in the FIFO queue, 3 in the priority queue\n"))
        #expect(run.stdout.contains("  settings: the defaults, queue_enabled false, priority_queue_enabled false: no --preferences was given\n"))
        #expect(run.stdout.contains("  orphan_message: ZCDMESSAGE Z_PK 4 (id \(S.orphan.uuidString.lowercased())): sessionId "))
        let verify = try BuiltTool.run(["verify", scratch("store")])
        #expect(verify.code == 0, "\(verify)")
        let validate = try BuiltTool.run(["validate", scratch("store")])
        #expect(validate.code == 0, "\(validate)")
    }

    @Test func secondImportIntoTheSameTargetIsRefusedWith73() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        #expect(try BuiltTool.run(["import-coredata", source, scratch("store")]).code == 0)
        let before = tree(scratch("store"), dotNames: true, everyKind: true)
        let again = try BuiltTool.run(["import-coredata", source, scratch("store")])
        #expect(again.code == 73, "\(again)")
        #expect(again.stderr.hasPrefix("Error: Can't import into '\(scratch("store"))': it is not empty ("), "\(again.stderr)")
        #expect(tree(scratch("store"), dotNames: true, everyKind: true) == before)
    }

    @Test func theSourceFilesKeepTheirBytesAndTimes() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        let before = try fingerprint(source)
        #expect(before.keys.sorted() == ["", "-shm", "-wal"])
        #expect(try BuiltTool.run(["import-coredata", source, scratch("store"), "--json"]).code == 0)
        #expect(try BuiltTool.run(["import-coredata", source, scratch("dry"), "--dry-run"]).code == 0)
        #expect(same(before, try fingerprint(source)), "the source changed")
    }

    @Test func dryRunReportsEverythingAndWritesNothing() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 5, in: scratch.path)
        let run = try BuiltTool.run(["import-coredata", source, scratch("store"), "--dry-run"])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.hasPrefix(
                "Dry run: nothing was written. Importing '\(source)' (Core Data model version 5, with its -wal file) into '\(scratch("store"))' would write 10 files ("
            ), "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: scratch("store")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).allSatisfy { !$0.hasPrefix(".store") })
    }

    @Test func jsonOutputListsTheQueuesAndEveryFinding() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        let run = try BuiltTool.run(["import-coredata", source, scratch("store"), "--json"])
        #expect(run.code == 0, "\(run)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["command"] as? String == "import-coredata" && object["model_version"] as? Int == 7)
        let queue = try #require(object["queue"] as? [String: [String]])
        #expect(queue["fifo"] == [S.b, S.a, S.c].map { $0.uuidString.lowercased() })
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(Set(findings.compactMap { $0["kind"] as? String }) == ["orphan_message", "relationship_disagrees", "missing_date", "queue_renumbered"])
    }

    @Test(arguments: ["xml", "binary"])
    func preferencesBecomeTheSettings(format: String) throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        let plist: [String: Any] = ["queueEnabled": true, "priorityQueueEnabled": false, "other": "kept out"]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: format == "xml" ? .xml : .binary, options: 0)
        try data.write(to: URL(fileURLWithPath: scratch("prefs.plist")))
        let run = try BuiltTool.run(["import-coredata", source, scratch("store"), "--preferences", scratch("prefs.plist")])
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout.contains("  settings: queue_enabled true, priority_queue_enabled false from '\(scratch("prefs.plist"))'\n"), "\(run.stdout)")
        let settings = try String(contentsOfFile: scratch("store/settings.json"), encoding: .utf8)
        #expect(settings == String(decoding: Settings(queueEnabled: true, schemaVersion: CoreDataImport.schemaVersion).encoded, as: UTF8.self))
        #expect(settings.contains("\n  \"queue_enabled\": true,\n") && settings.contains("\n  \"schema_version\": 4,\n"))
    }

    // MARK: bad input: a clear error naming the file, the README's exit status, nothing written

    private func refused(
        _ arguments: [String], _ code: Int32, _ message: String, _ scratch: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let run = try BuiltTool.run(["import-coredata"] + arguments)
        #expect(run.code == code, "\(run)", sourceLocation: sourceLocation)
        #expect(run.stderr.contains(message), "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: scratch("store")), "a store was written", sourceLocation: sourceLocation)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.path).allSatisfy { !$0.hasPrefix(".store") },
            "a staging folder was left", sourceLocation: sourceLocation)
    }

    @Test func aFileThatIsNotSQLiteIsRefusedWith65() throws {
        let scratch = TemporaryDirectory()
        try Data("not a database\n".utf8).write(to: URL(fileURLWithPath: scratch("notes.txt")))
        try refused([scratch("notes.txt"), scratch("store")], 65, "Error: Can't import '\(scratch("notes.txt"))': it is not an SQLite database", scratch)
    }

    @Test func sqliteThatIsNotCoreDataIsRefusedWith65SayingWhatWasFound() throws {
        let scratch = TemporaryDirectory()
        let db = try SQLiteDatabase(scratch("other.sqlite"), readOnly: false, create: true)
        try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        try refused(
            [scratch("other.sqlite"), scratch("store")], 65,
            "it is an SQLite database but not a Core Data store (it has tables 'notes'; a Core Data store has Z_PRIMARYKEY and Z_METADATA)", scratch)
    }

    @Test func anotherAppsCoreDataStoreIsRefusedWith65NamingItsEntities() throws {
        let scratch = TemporaryDirectory()
        let db = try SQLiteDatabase(scratch("Notes.sqlite"), readOnly: false, create: true)
        try db.execute(
            "CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR); "
                + "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER); "
                + "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 0); CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
        )
        try db.query("INSERT INTO Z_METADATA VALUES (1, 'U', ?)", [.blob(try CoreDataFixture.metadataPlist(["Note": Data(count: 32)], uuid: "U"))])
        try refused(
            [scratch("Notes.sqlite"), scratch("store")], 65,
            "it is a Core Data store, but not the app's: its model's entities are 'Note' (the app's are 'CDBackendSession', 'CDMessage' and "
                + "'CDUserSession', or before 2025-11-15 'CDSession' and 'CDMessage')", scratch)
    }

    @Test func aCoreDataStoreWithoutItsModelPlistIsRefusedWith65() throws {
        let scratch = TemporaryDirectory()
        let db = try SQLiteDatabase(scratch("Notes.sqlite"), readOnly: false, create: true)
        try db.execute(
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER); "
                + "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB); INSERT INTO Z_METADATA VALUES (1, 'U', X'62706C6973743030')"
        )
        try refused(
            [scratch("Notes.sqlite"), scratch("store")], 65,
            "Error: Can't import '\(scratch("Notes.sqlite"))': its Z_METADATA Z_PLIST has no NSStoreModelVersionHashes dictionary, so the model that wrote it is unknown",
            scratch)
    }

    @Test func anUnknownModelVersionIsRefusedWith65SayingWhatIsMissing() throws {
        let scratch = TemporaryDirectory()
        let db = try SQLiteDatabase(scratch("odd.sqlite"), readOnly: false, create: true)
        try db.execute(
            "CREATE TABLE ZCDBACKENDSESSION (Z_PK INTEGER PRIMARY KEY, ZID BLOB, ZNEXTSEQ INTEGER); "
                + "CREATE TABLE ZCDMESSAGE (Z_PK INTEGER PRIMARY KEY, ZID BLOB); CREATE TABLE ZCDUSERSESSION (Z_PK INTEGER PRIMARY KEY, ZID BLOB); "
                + "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER); "
                + "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        let hashes = Dictionary(uniqueKeysWithValues: ["CDBackendSession", "CDMessage", "CDUserSession"].map { ($0, Data(count: 32)) })
        try db.query("INSERT INTO Z_METADATA VALUES (1, 'U', ?)", [.blob(try CoreDataFixture.metadataPlist(hashes, uuid: "U"))])
        try refused(
            [scratch("odd.sqlite"), scratch("store")], 65,
            "it looks like the app's store, model version 5, but lacks ZCDBACKENDSESSION.ZBACKENDNAME", scratch)
    }

    @Test func aTruncatedFileIsRefusedWith65() throws {
        let scratch = TemporaryDirectory()
        try S.generate(workStreams: 40, messagesEach: 10, at: scratch("full.sqlite"))
        // Checkpointed: the rows are in the main file; cut it in half and leave out the -wal.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch("full.sqlite")))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: scratch("cut.sqlite")))
        try refused(
            [scratch("cut.sqlite"), scratch("store")], 65, "Error: Can't read '\(scratch("cut.sqlite"))': the database is damaged or truncated", scratch)
    }

    @Test func aDatabaseAnotherProcessIsWritingIsRefusedWith75() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        // This test process is the writer: a write transaction holds SQLite's WAL write lock.
        let writer = try SQLiteDatabase(source, readOnly: false)
        try writer.execute("BEGIN IMMEDIATE")
        try refused([source, scratch("store")], 75, "Error: Can't import '\(source)': process \(getpid()) is writing to it", scratch)
        try writer.execute("ROLLBACK")
    }

    @Test func aDatabaseInRollbackModeHeldExclusivelyIsRefusedWith75() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        let writer = try SQLiteDatabase(source, readOnly: false)
        try writer.query("PRAGMA journal_mode=DELETE") { _ in }
        try writer.execute("BEGIN EXCLUSIVE")
        try refused([source, scratch("store")], 75, "Error: Can't import '\(source)': process \(getpid()) is writing to it", scratch)
        try writer.execute("ROLLBACK")
        // Once the writer is done, the same file imports.
        #expect(try BuiltTool.run(["import-coredata", source, scratch("store")]).code == 0)
    }

    @Test func anUnreadableFileIsRefusedWith74() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        guard let tool = try UnprivilegedTool(owning: scratch) else {
            try SkippedTests.require(false, "running as root without runuser(1): chmod 000 stops no one")
            return
        }
        #expect(chmod(source, 0) == 0)
        let run = try tool.run(["import-coredata", source, scratch("store")])
        #expect(run.code == 74, "\(run)")
        #expect(run.stderr.hasPrefix("Error: Can't read '\(source)': permission was denied (EACCES)."), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("store")))
    }

    @Test func aMissingFileOrAFolderIsAUsageError() throws {
        let scratch = TemporaryDirectory()
        try refused(
            [scratch("nope.sqlite"), scratch("store")], 64, "Error: '\(scratch("nope.sqlite"))' does not exist. Check the path of the app's VoiceCode.sqlite.",
            scratch)
        try refused([scratch.path, scratch("store")], 64, "is a folder, not the app's VoiceCode.sqlite", scratch)
    }
}
