import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// `import-coredata`: the shipped app's Core Data file (every model version, its -wal, its odd
/// rows) into a new store at the newest rollback-safe schema (v4), the source untouched (spec §13).
@Suite(.enabled(if: SkippedTests.check(CoreDataFixture.sqliteAvailable, "MigrateStoreTests CoreDataImportTests", CoreDataFixture.sqliteMissing)))
struct CoreDataImportTests {
    typealias S = AppStoreSample

    private func importSample(version: Int, _ scratch: TemporaryDirectory) throws -> (CoreDataImportReport, Store) {
        let source = try S.write(version: version, in: scratch.path)
        let report = try CoreDataImport.run(source: source, into: scratch("store"), tool: "tests", version: "1")
        return (report, try Store.open(at: scratch("store"), options: .init(readOnly: true)))
    }

    private func document(_ store: String, _ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: store + "/" + path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(arguments: 1...7)
    func eachModelVersionImportsEveryRow(version: Int) throws {
        let scratch = TemporaryDirectory()
        let (report, store) = try importSample(version: version, scratch)
        #expect(report.modelVersion == version)
        #expect(report.workStreams == 4 && report.messages == 4 && report.customisations == 3)
        #expect(report.storeSchemaVersion == CoreDataImport.schemaVersion && report.files == 4 + 3 + 3)
        #expect(Set(try store.listWorkStreams().items.map(\.id)) == [S.a, S.b, S.c, S.walOnly])
        let manifest = try document(scratch("store"), "store.json")
        #expect(manifest["schema_version"] as? Int == CoreDataImport.schemaVersion && manifest["min_reader_version"] as? Int == 1)
        let a = try document(scratch("store"), "sessions/\(S.a.uuidString.lowercased()).json")
        #expect(a["schema_version"] as? Int == CoreDataImport.schemaVersion)
        #expect(a["provider"] as? String == (version >= 3 ? "cursor" : "claude"))
        #expect(a["next_seq"] as? Int == (version >= 5 ? 42 : 0))
        #expect(a["live_from_seq"] as? Int == (version >= 6 ? 40 : 0))
        #expect(a["last_file_signature"] as? String == (version >= 7 ? "sig-1" : nil))
        let messages = try #require(a["messages"] as? [[String: Any]])
        #expect(messages.map { $0["seq"] as? Int } == (version >= 4 ? [41, 42] : [0, 0]))
        // Models 4–6: each offset derived from its seq as the app derives it once on model 7.
        #expect(messages.map { $0["offset"] as? Int } == (version >= 7 ? [900, 1000] : version >= 4 ? [40, 41] : [0, 0]))
        #expect(a["last_offset_merged"] as? Int == (version >= 7 ? 12_345_678_901 : version >= 5 ? 41 : 0))
    }

    @Test func valuesArriveExactly() throws {
        let scratch = TemporaryDirectory()
        _ = try importSample(version: 7, scratch)
        let text = try String(contentsOfFile: scratch("store") + "/sessions/\(S.a.uuidString.lowercased()).json", encoding: .utf8)
        #expect(text.contains("\"id\": \"a1b2c3d4-0000-4000-8000-00000000000a\""))
        #expect(text.contains("\"last_modified\": \"2025-10-17T14:30:00.123Z\""))
        #expect(text.contains("\"queued_at\": \"2025-10-17T14:31:00.001Z\""))
        #expect(text.contains("\"priority_queued_at\": \"2025-10-17T14:32:00.999Z\""))
        #expect(text.contains("\"server_timestamp\": \"2025-10-17T14:29:31.789Z\""))
        #expect(text.contains("\"timestamp\": \"2025-10-17T14:29:00.456Z\""))
        #expect(text.contains("\"priority_order\": 0.30000000000000004"))
        #expect(text.contains("\"last_offset_merged\": 12345678901"))
        #expect(text.contains("\"provider_session_id\": \"a1b2c3d4-0000-4000-8000-00000000000a\""))
        let a = try document(scratch("store"), "sessions/\(S.a.uuidString.lowercased()).json")
        #expect(a["backend_name"] as? String == "Fix login – \(S.unicode)")
        let messages = try #require(a["messages"] as? [[String: Any]])
        #expect(messages.first?["text"] as? String == S.unicode)
        #expect(messages.map { $0["status"] as? String } == ["confirmed", "sending"])
        #expect(messages.map { $0["session_id"] as? String } == [S.a.uuidString.lowercased(), S.a.uuidString.lowercased()])
        let custom = try document(scratch("store"), "user-sessions/\(S.a.uuidString.lowercased()).json")
        #expect(custom["custom_name"] as? String == "Ana's work 🚀" && custom["created_at"] as? String == "2025-10-01T08:00:00.500Z")
    }

    @Test func theAppsOddRowsAreTakenAsTheyAre() throws {
        let scratch = TemporaryDirectory()
        let (_, store) = try importSample(version: 7, scratch)
        let b = try store.workStream(S.b)
        #expect(b.fields.backendName == "" && b.fields.workingDirectory == "")
        let c = try store.workStream(S.c)
        #expect(c.fields.backendName == S.c.uuidString.lowercased() && c.fields.isLocallyCreated)
        let orphanCustomisation = try document(scratch("store"), "user-sessions/\(S.missing.uuidString.lowercased()).json")
        #expect(orphanCustomisation["is_user_deleted"] as? Bool == true)
    }

    @Test func walOnlyRowsArrive() throws {
        let scratch = TemporaryDirectory()
        let source = try S.write(version: 7, in: scratch.path)
        // The main file alone lacks the last commit: it is only in the -wal.
        try FileManager.default.createDirectory(atPath: scratch("main-only"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: source, toPath: scratch("main-only/x.sqlite"))
        var rows = 0
        try SQLiteDatabase(scratch("main-only/x.sqlite"), readOnly: false).query("SELECT COUNT(*) FROM ZCDBACKENDSESSION") { rows = Int($0.int64(0) ?? -1) }
        #expect(rows == 3)
        let report = try CoreDataImport.run(source: source, into: scratch("store"), tool: "tests", version: "1")
        #expect(report.hadWAL)
        let store = try Store.open(at: scratch("store"), options: .init(readOnly: true))
        let d = try store.workStream(S.walOnly)
        #expect(d.fields.backendName == "From the WAL" && d.messages?.map(\.text) == ["only in the WAL"])
    }

    @Test func queueOrderIsWhatTheAppShows() throws {
        let scratch = TemporaryDirectory()
        let (report, store) = try importSample(version: 7, scratch)
        // FIFO by queue position (1, 2, 5 → renumbered 1, 2, 3); priority by (priority, order, id).
        #expect(report.fifo == [S.b, S.a, S.c])
        #expect(report.priority == [S.a, S.b, S.c])
        let queue = try store.queue()
        #expect(queue.fifo.map(\.workStreamID) == [S.b, S.a, S.c])
        #expect(queue.priority.map(\.workStreamID) == [S.a, S.b, S.c])
        #expect(queue.priority.map(\.priorityOrder) == [S.order, 0.25, 2.5])
        #expect(try store.workStream(S.c).fields.queuePosition == 3)
        #expect(report.findings.contains { $0.kind == .queueRenumbered && $0.id == S.c.uuidString.lowercased() && $0.detail.hasPrefix("queue_position 5 → 3") })
    }

    @Test func everyOddRowIsReportedByTablePrimaryKeyAndID() throws {
        let scratch = TemporaryDirectory()
        let (report, _) = try importSample(version: 7, scratch)
        let byKind = Dictionary(grouping: report.findings, by: \.kind)
        let orphan = try #require(byKind[.orphanMessage]?.first)
        #expect(orphan.table == "ZCDMESSAGE" && orphan.primaryKey == 4 && orphan.id == S.orphan.uuidString.lowercased())
        #expect(orphan.detail == "sessionId \(S.nowhere.uuidString.lowercased()) names no work stream; left out")
        let disagree = try #require(byKind[.relationshipDisagrees]?.first)
        #expect(disagree.primaryKey == 3 && disagree.id == S.m3.uuidString.lowercased())
        let missing = try #require(byKind[.missingDate]?.first)
        #expect(missing.table == "ZCDUSERSESSION" && missing.primaryKey == 3 && missing.detail.hasPrefix("createdAt is empty; set to the time of the import"))
        // Nothing else: every other row is taken as it is.
        #expect(Set(byKind.keys) == [.orphanMessage, .relationshipDisagrees, .missingDate, .queueRenumbered])
        #expect(report.findings.count == 4)
    }

    @Test func duplicatesAndOutOfRangeNumbersAreReportedWithWhatWasDone() throws {
        let scratch = TemporaryDirectory()
        let fixture = try CoreDataFixture(scratch("build.sqlite"), version: 7)
        let id = UUID(), message = UUID()
        try fixture.insert(
            "ZCDBACKENDSESSION",
            [
                "ZID": CoreDataFixture.blob(id), "ZBACKENDNAME": .text("first"), "ZWORKINGDIRECTORY": .text("/"),
                "ZLASTMODIFIED": .real(1), "ZMESSAGECOUNT": .integer(-3), "ZPRIORITY": .integer(5_000_000_000),
                "ZPRIORITYORDER": .real(1), "ZNEXTSEQ": .integer(-1),
            ])
        try fixture.insert(
            "ZCDBACKENDSESSION",
            [
                "ZID": CoreDataFixture.blob(id), "ZBACKENDNAME": .text("second"), "ZWORKINGDIRECTORY": .text("/"),
                "ZLASTMODIFIED": .real(2),
            ])
        for text in ["one", "two"] {
            try fixture.insert(
                "ZCDMESSAGE",
                [
                    "ZID": CoreDataFixture.blob(message), "ZSESSIONID": CoreDataFixture.blob(id), "ZROLE": .text("user"),
                    "ZTEXT": .text(text), "ZTIMESTAMP": .real(text == "one" ? 1 : 2), "ZSEQ": .integer(0), "ZOFFSET": .integer(0),
                ])
        }
        try fixture.copyFiles(to: scratch("VoiceCode.sqlite"))
        let report = try CoreDataImport.run(source: scratch("VoiceCode.sqlite"), into: scratch("store"), tool: "tests", version: "1")
        let lines = report.findings.map { "\($0.kind.rawValue) \($0)" }
        let idText = id.uuidString.lowercased()
        #expect(lines.contains("out_of_range ZCDBACKENDSESSION Z_PK 1 (id \(idText)): messageCount is -3, outside 0…2147483647; taken as 0"))
        #expect(
            lines.contains("out_of_range ZCDBACKENDSESSION Z_PK 1 (id \(idText)): priority is 5000000000, outside -2147483648…2147483647; taken as 2147483647"))
        #expect(lines.contains("out_of_range ZCDBACKENDSESSION Z_PK 1 (id \(idText)): nextSeq is -1, below 0; taken as 0"))
        #expect(
            lines.contains(
                "duplicate_id ZCDBACKENDSESSION Z_PK 2 (id \(idText)): a second work stream with this id; the first (lowest Z_PK) is imported, this row is left out"
            ))
        #expect(lines.contains { $0.hasPrefix("duplicate_id ZCDMESSAGE Z_PK 2 (id \(message.uuidString.lowercased())): a second message") })
        let store = try Store.open(at: scratch("store"), options: .init(readOnly: true))
        let imported = try store.workStream(id)
        #expect(imported.fields.backendName == "first" && imported.messages?.map(\.text) == ["one"])
    }

    @Test func generatedRowsAtScaleImportWithEveryMessageInItsWorkStream() throws {
        let scratch = TemporaryDirectory()
        let source = try S.generate(workStreams: 300, messagesEach: 20, at: scratch("VoiceCode.sqlite"))
        let report = try CoreDataImport.run(source: source, into: scratch("store"), tool: "tests", version: "1")
        #expect(report.workStreams == 300 && report.messages == 6000 && report.findings.isEmpty)
        #expect(report.fifo.count == 30 && report.priority.count == 43)
        let store = try Store.open(at: scratch("store"), options: .init(readOnly: true))
        for summary in try store.listWorkStreams().items.prefix(20) {
            let messages = try #require(try store.workStream(summary.id).messages)
            #expect(messages.count == 20 && messages.allSatisfy { $0.sessionID == summary.id })
            #expect(messages.map(\.timestamp) == messages.map(\.timestamp).sorted())
        }
    }
}
