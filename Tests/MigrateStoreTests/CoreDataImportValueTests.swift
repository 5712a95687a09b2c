import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// `import-coredata` on values of the wrong SQLite type, on a `-wal` that is foreign, garbage or
/// cut, on a source given through a symbolic link, and on preferences it does not carry: each
/// reported by row and column (or by name) with what was done, or refused naming what is wrong.
@Suite(.enabled(if: SkippedTests.check(CoreDataFixture.sqliteAvailable, "MigrateStoreTests CoreDataImportValueTests", CoreDataFixture.sqliteMissing)))
struct CoreDataImportValueTests {
    typealias S = AppStoreSample
    typealias F = CoreDataFixture

    @Test func valuesOfTheWrongTypeAreReportedByRowAndColumnNotCoerced() throws {
        let scratch = TemporaryDirectory()
        let fixture = try F(scratch("build.sqlite"), version: 7)
        let id = UUID(), message = UUID()
        try fixture.insert(
            "ZCDBACKENDSESSION",
            [
                "ZID": F.blob(id), "ZBACKENDNAME": .text("x"), "ZWORKINGDIRECTORY": .text("/"),
                "ZLASTMODIFIED": .text("yesterday"), "ZMESSAGECOUNT": .real(3.7), "ZUNREADCOUNT": .text("12abc"),
                "ZNEXTSEQ": .real(1e30), "ZQUEUEPOSITION": .real(1), "ZISINQUEUE": .integer(1),
            ])
        try fixture.insert(
            "ZCDMESSAGE",
            [
                "ZID": F.blob(message), "ZSESSIONID": F.blob(id), "ZROLE": .text("user"), "ZTEXT": .text("x"),
                "ZTIMESTAMP": .text("2025-01-01"), "ZSEQ": .text("abc"), "ZOFFSET": .integer(0),
            ])
        try fixture.database.execute("UPDATE ZCDMESSAGE SET ZTEXT = CAST(X'48C3FF49' AS TEXT)")
        try fixture.copyFiles(to: scratch("VoiceCode.sqlite"))
        let report = try CoreDataImport.run(source: scratch("VoiceCode.sqlite"), into: scratch("store"), tool: "tests", version: "1")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch("store/store.json")))) as? [String: Any]
        let now = try #require(manifest?["created_at"] as? String)
        let (s, m) = ("ZCDBACKENDSESSION Z_PK 1 (id \(id.lowercased))", "ZCDMESSAGE Z_PK 1 (id \(message.lowercased))")
        // Columns the rows leave NULL are reported as empty (missing_value); these are the others.
        #expect(
            report.findings.filter { $0.kind != .missingValue }.map { "\($0.kind.rawValue) \($0)" } == [
                "wrong_type \(m): seq is the text 'abc', not an integer; taken as 0",
                "invalid_text \(m): text holds bytes that are not UTF-8 (4 bytes in all); each invalid sequence taken as U+FFFD, the rest as it is",
                "wrong_type \(m): timestamp is the text '2025-01-01', not a date; taken as empty, so set to the time of the import, \(now)",
                "wrong_type \(s): lastModified is the text 'yesterday', not a date; taken as empty, so set to the time of the import, \(now)",
                "wrong_type \(s): messageCount is the number 3.7, not an integer; taken as 0",
                "wrong_type \(s): unreadCount is the text '12abc', not an integer; taken as 0",
                "wrong_type \(s): nextSeq is the number 1e+30, not an integer; taken as 0",
            ])
        let document = try Store.open(at: scratch("store"), options: .init(readOnly: true)).workStream(id)
        let stream = document.fields
        #expect(stream.messageCount == 0 && stream.unreadCount == 0 && stream.queuePosition == 1 && stream.isInQueue)
        #expect(document.messages?.map(\.text) == ["H\u{FFFD}\u{FFFD}I"])
    }

    @Test func aBooleanStoredAsTextIsRefusedWith65NamingRowAndColumn() throws {
        let scratch = TemporaryDirectory()
        let fixture = try F(scratch("build.sqlite"), version: 7)
        let id = UUID()
        try fixture.insert(
            "ZCDBACKENDSESSION",
            [
                "ZID": F.blob(id), "ZBACKENDNAME": .text("x"), "ZWORKINGDIRECTORY": .text("/"),
                "ZLASTMODIFIED": .real(1), "ZISINQUEUE": .text("yes"),
            ])
        try fixture.copyFiles(to: scratch("VoiceCode.sqlite"))
        let run = try BuiltTool.run(["import-coredata", scratch("VoiceCode.sqlite"), scratch("store")])
        #expect(run.code == 65, "\(run)")
        #expect(
            run.stderr.hasPrefix(
                "Error: Can't import '\(scratch("VoiceCode.sqlite"))': ZCDBACKENDSESSION Z_PK 1 (id \(id.lowercased)): "
                    + "isInQueue is the text 'yes', not 0 or 1 (false or true)."), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("store")))
    }

    @Test func aSourceGivenThroughASymbolicLinkIsReadWithTheWALBesideItsTarget() throws {
        let scratch = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch("real"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: scratch("link"), withIntermediateDirectories: false)
        let source = try S.write(version: 7, in: scratch("real"))
        try FileManager.default.createSymbolicLink(atPath: scratch("link/VoiceCode.sqlite"), withDestinationPath: source)
        let run = try BuiltTool.run(["import-coredata", scratch("link/VoiceCode.sqlite"), scratch("store")])
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout.hasPrefix("Imported '\(scratch("link/VoiceCode.sqlite"))' (Core Data model version 7, with its -wal file)"), "\(run.stdout)")
        #expect(run.stdout.contains("\n  4 work streams, 4 messages, 3 customisations\n"))
    }

    /// A WAL file of another database, in which a table `notes` replaces the schema.
    private func foreignWAL(_ scratch: TemporaryDirectory) throws -> [UInt8] {
        let other = try SQLiteDatabase(scratch("other.sqlite"), readOnly: false, create: true)
        try other.query("PRAGMA journal_mode=WAL") { _ in }
        try other.execute("PRAGMA wal_autocheckpoint=0; CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        for i in 0..<50 { try other.query("INSERT INTO notes (body) VALUES (?)", [.text(String(repeating: "n\(i)", count: 80))]) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: scratch("other.sqlite-wal"))))
    }

    private func refusedBlamingTheWAL(
        _ wal: [UInt8], _ message: String, _ scratch: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let source = try S.write(version: 7, in: scratch.path)
        try Data(wal).write(to: URL(fileURLWithPath: source + "-wal"))
        let run = try BuiltTool.run(["import-coredata", source, scratch("store")])
        #expect(run.code == 65, "\(run)", sourceLocation: sourceLocation)
        #expect(run.stderr.contains(message), "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(!run.stderr.contains("not a Core Data store") || run.stderr.contains("-wal file '\(source)-wal'"), sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: scratch("store")), sourceLocation: sourceLocation)
    }

    @Test func aWALOfAnotherDatabaseIsBlamedOnTheWAL() throws {
        let scratch = TemporaryDirectory()
        let source = scratch("VoiceCode.sqlite")
        try refusedBlamingTheWAL(
            try foreignWAL(scratch),
            "Error: Can't import '\(source)': its -wal file '\(source)-wal' belongs to another "
                + "database or is damaged: the main file alone is sound, but with the -wal applied", scratch)
    }

    @Test func aGarbageOrCutWALHeaderIsBlamedOnTheWAL() throws {
        let scratch = TemporaryDirectory()
        let source = scratch("VoiceCode.sqlite")
        try refusedBlamingTheWAL(
            Array(repeating: 0x41, count: 5000),
            "Error: Can't import '\(source)': its -wal file '\(source)-wal' is not an SQLite "
                + "WAL file (its first bytes are not a WAL header).", scratch)
        let other = TemporaryDirectory()
        try refusedBlamingTheWAL(
            Array(try foreignWAL(other).prefix(20)),
            "Error: Can't import '\(other("VoiceCode.sqlite"))': its -wal file '\(other("VoiceCode.sqlite"))-wal' "
                + "is cut short (20 bytes, shorter than a WAL file's 32-byte header).", other)
    }

    @Test func aWALCutBeforeItsCommitIsNotCalledApplied() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        let wal = try Data(contentsOf: URL(fileURLWithPath: source + "-wal"))
        try wal.prefix(32 + 24 + 4096 + 100).write(to: URL(fileURLWithPath: source + "-wal"))
        let run = try BuiltTool.run(["import-coredata", source, scratch("store")])
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout.hasPrefix("Imported '\(source)' (Core Data model version 7) into"), "\(run.stdout)")
        #expect(run.stdout.contains("\n  -wal: not applied: it holds no complete commit\n") && run.stdout.contains("\n  3 work streams,"))
    }

    @Test func bytesAfterTheLastCommitOfTheWALAreReportedIgnored() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        var wal = try Data(contentsOf: URL(fileURLWithPath: source + "-wal"))
        wal.append(Data(repeating: 7, count: 100))
        try wal.write(to: URL(fileURLWithPath: source + "-wal"))
        let report = try CoreDataImport.run(source: source, into: scratch("store"), tool: "tests", version: "1")
        #expect(report.walCommits > 0 && report.walIgnoredBytes == 100 && report.workStreams == 4)
        let run = try BuiltTool.run(["import-coredata", source, scratch("store2")])
        #expect(
            run.stdout.contains(
                "\n  -wal: \(report.walCommits) commits applied; the 100 bytes after its last commit are not, as SQLite "
                    + "does not apply them (frames of an unfinished or cut transaction, or older ones already in the main file)\n"),
            "\(run.stdout)")
    }

    @Test func theToolListsThePreferencesCarriedTheDraftsAndTheKeysNotCarried() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        try CoreDataImportPreferencesTests.writePlist(CoreDataImportPreferencesTests.everyKey, to: scratch("p.plist"))
        let run = try BuiltTool.run(["import-coredata", source, scratch("store"), "--preferences", scratch("p.plist")])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.contains(
                """
                  settings: queue_enabled true, priority_queue_enabled true from '\(scratch("p.plist"))'
                  preferences carried (18): commandMRU, continuePlaybackWhenLocked, defaultProvider, lastUsedDirectory, maxMessageSizeKB, \
                notifyOnResponse, priorityQueueEnabled, queueEnabled, recentDirectories, recentSessionsLimit, resourceStorageLocation, \
                respectSilentMode, selectedVoiceIdentifier, serverPort, serverURL, sessionDrafts, systemPrompt, voiceOutputMuted
                  drafts: 3 (2 in a new customisation: its work stream had none)
                  preferences not carried (3): AppleLanguages, NSInterfaceStyle, hasSeenOnboarding
                  2 preference values not taken exactly as they are:
                    not_a_work_stream_id: 'sessionDrafts': the draft of 'not-an-id' (5 characters): 'not-an-id' is not a work stream's id (a UUID); left out
                    duplicate_id: 'sessionDrafts': the draft of '\(S.a.uuidString)' is a second one for work stream \(S.a.lowercased); \
                the lower-case key's is kept, this one left out

                """), "\(run.stdout)")
        #expect(try String(contentsOfFile: scratch("store/settings.json"), encoding: .utf8) == CoreDataImportPreferencesTests.everyKeySettings)
        let json = try BuiltTool.run(["import-coredata", source, scratch("store2"), "--preferences", scratch("p.plist"), "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["preference_keys_not_carried"] as? [String] == ["AppleLanguages", "NSInterfaceStyle", "hasSeenOnboarding"])
        #expect((object["preference_keys_carried"] as? [String])?.count == 18)
        #expect(object["drafts"] as? Int == 3 && object["customizations_for_drafts"] as? Int == 2)
        let findings = try #require(object["preference_findings"] as? [[String: String]])
        #expect(findings.map { $0["kind"] } == ["not_a_work_stream_id", "duplicate_id"] && findings.allSatisfy { $0["key"] == "sessionDrafts" })
    }
}
