import Foundation
import Testing

@testable import JSONStore

@Suite struct StoreOpeningTests {
    @Test func createdStoreHasV4ManifestDefaultSettingsAndPrivateModes() throws {
        let dir = TemporaryDirectory()
        let path = dir("s")
        let store = try Store.create(at: path, now: StoreFixtures.t0)
        #expect(store.compatibility == .current)
        let files = tree(path)
        #expect(Set(files.keys) == ["store.json", "settings.json", "queue.json"])
        #expect(
            String(decoding: files["settings.json"]!, as: UTF8.self)
                == """
                {
                  "command_mru": {},
                  "continue_playback_when_locked": true,
                  "default_provider": "claude",
                  "last_used_directory": null,
                  "max_message_size_kb": 200,
                  "notify_on_response": true,
                  "priority_queue_enabled": false,
                  "queue_enabled": false,
                  "recent_directories": [],
                  "recent_sessions_limit": 5,
                  "resource_storage_location": "~/Downloads",
                  "respect_silent_mode": true,
                  "schema_version": 4,
                  "selected_voice_identifier": null,
                  "server_port": "",
                  "server_url": "",
                  "system_prompt": "",
                  "voice_output_muted": false
                }

                """)
        #expect(try StoreFixtures.mode(path) == 0o700)
        #expect(try StoreFixtures.mode(path + "/sessions") == 0o700)
        #expect(try StoreFixtures.mode(path + "/store.json") == 0o600)
        let error = #expect(throws: StoreError.self) { try Store.create(at: path) }
        #expect(error?.code == .alreadyExists)
    }

    @Test func v1StoreIsClassifiedAsNeedingMigrationAndRefusesWrites() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v1-store")
        let before = tree(path)
        let store = try Store.open(at: path)
        #expect(store.compatibility == .needsMigration(from: 1))
        let error = #expect(throws: StoreError.self) { try store.enqueue(UUID(uuidString: "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b")!) }
        #expect(
            error?.message
                == "Can't write to '\(path)': it is a schema v1 store, and this code writes schema v4 only. Upgrade it first with StoreUpgrade.run(at:), which takes a verified backup and migrates it to schema v4; then open it again."
        )
        #expect(tree(path) == before)
    }

    func storeWithManifest(_ dir: TemporaryDirectory, version: Int, minReader: Int) throws -> String {
        let path = try dir.copySample("v3-store")
        let manifest =
            "{\"format\": \"work-stream-store\", \"schema_version\": \(version), \"min_reader_version\": \(minReader), \"created_at\": \"2025-10-14T07:52:18.000Z\", \"migrations\": []}\n"
        try manifest.write(toFile: path + "/store.json", atomically: false, encoding: .utf8)
        return path
    }

    @Test func newerStoreThatExcludesThisReaderIsRefusedNamingBothVersions() throws {
        let dir = TemporaryDirectory()
        let path = try storeWithManifest(dir, version: 6, minReader: 6)
        let error = #expect(throws: StoreError.self) { try Store.open(at: path, options: .readOnly) }
        #expect(error?.code == .unsupportedVersion)
        #expect(
            error?.message
                == "Can't open '\(path)': the store has schema_version 6 and needs a reader of version 6 or newer (min_reader_version 6), but this tool reads version 5; use a newer version of the tool."
        )
    }

    @Test func newerStoreThatAdmitsThisReaderIsOpened() throws {
        let dir = TemporaryDirectory()
        // Past v5 every store keeps its work streams in work-streams/ (spec §12).
        let path = try V5Store.make(dir)
        let manifest =
            "{\"format\": \"work-stream-store\", \"schema_version\": 6, \"min_reader_version\": 5, \"created_at\": \"2025-10-14T07:52:18.000Z\", \"migrations\": []}\n"
        try manifest.write(toFile: path + "/store.json", atomically: false, encoding: .utf8)
        let store = try Store.open(at: path)
        #expect(store.compatibility == .superseded(storeVersion: 6, minReaderVersion: 5))
        #expect(try store.listWorkStreams().items.count == 8)
    }

    @Test func readOnlyOpenWritesNothingNotEvenALockFile() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v2-store")
        try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/sessions/.tmp-0123456789abcdef-left.json"))
        let store = try Store.open(at: path, options: .readOnly)
        _ = try store.listWorkStreams()
        #expect(!FileManager.default.fileExists(atPath: path + "/.lock"))
        #expect(FileManager.default.fileExists(atPath: path + "/sessions/.tmp-0123456789abcdef-left.json"))
        _ = try Store.open(at: path)
        #expect(!FileManager.default.fileExists(atPath: path + "/sessions/.tmp-0123456789abcdef-left.json"), "opening for writing sweeps temp files")
    }

    @Test func scanReportsEveryBadDocumentNotOnlyTheFirst() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v2-store")
        try "{".write(toFile: path + "/sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json", atomically: false, encoding: .utf8)
        try "{}".write(toFile: path + "/sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json", atomically: false, encoding: .utf8)
        try "{}".write(toFile: path + "/sessions/NOT-A-UUID.json", atomically: false, encoding: .utf8)
        let result = try Store.open(at: path, options: .readOnly).listWorkStreams()
        #expect(result.items.count == 6)
        #expect(result.problems.map(\.code) == [.invalidFileName, .corruptDocument, .invalidDocument])
        #expect(
            result.problems[1].message.hasPrefix(
                "Can't read '\(path)/sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json': JSON syntax error at line 1, column 2 (byte 1)"))
    }

    @Test func documentWhoseIDDiffersFromItsFileNameIsAnError() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v2-store")
        try FileManager.default.moveItem(
            atPath: path + "/sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json",
            toPath: path + "/sessions/00000000-0000-4000-8000-000000000001.json")
        let store = try Store.open(at: path, options: .readOnly)
        let error = #expect(throws: StoreError.self) { try store.workStream(UUID(uuidString: "00000000-0000-4000-8000-000000000001")!) }
        #expect(error?.code == .invalidDocument)
    }
}

@Suite struct StoreWritingTests {
    @Test func workStreamLifecycleKeepsFilesCanonicalAndPrivate() throws {
        let dir = TemporaryDirectory()
        let store = try Store.create(at: dir("s"))
        let created = try store.createWorkStream(workingDirectory: "/Users/ana/app", at: StoreFixtures.t0)
        #expect(created.providerSessionID == created.id.lowercased && created.backendName == "")
        let message = Message(id: UUID(), sessionID: UUID(), role: "user", text: "hello", timestamp: StoreFixtures.t0.addingTimeInterval(5))
        let updated = try store.appendMessages(created.id, [message])
        #expect(updated.messages.first?.sessionID == created.id)
        #expect(updated.lastModified == message.timestamp)
        let file = dir("s/sessions/\(created.id.lowercased).json")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: file))) == updated.encoded)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
        try store.updateWorkStream(created.id) { $0.fields.unreadCount = 3 }
        #expect(try StoreFixtures.mode(file) == 0o640, "an existing file keeps its mode")
        try store.setCustomName(created.id, "Mine")
        try store.setUserDeleted(created.id, true)
        let customisation = try #require(try store.customisation(created.id))
        #expect(customisation.customName == "Mine" && customisation.isUserDeleted)
        try store.enqueue(created.id)
        try store.deleteWorkStream(created.id)
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try store.queue().fifo.isEmpty)
        #expect(try store.customisation(created.id) != nil, "the customisation is kept")
    }

    @Test func symlinkInPlaceOfADocumentIsRefusedNotFollowed() throws {
        let dir = TemporaryDirectory()
        let store = try Store.create(at: dir("s"))
        let s = try store.createWorkStream(workingDirectory: "/w")
        let outside = dir("outside.json")
        try Data(s.encoded).write(to: URL(fileURLWithPath: outside))
        let file = dir("s/sessions/\(s.id.lowercased).json")
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: outside)
        let error = #expect(throws: StoreError.self) { try store.updateWorkStream(s.id) { $0.fields.unreadCount = 1 } }
        #expect(error?.code == .symlinkRefused)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: outside))) == s.encoded)
    }

    /// Issue 3 acceptance: one queue.json write plus only the mirror writes whose values changed.
    @Test func queueOperationWritesQueueJSONOncePlusOnlyTheChangedMirrors() throws {
        let dir = TemporaryDirectory()
        let calls = CountingCalls()
        let system = SystemCalls(calls: calls)
        let store = try Store.create(at: dir("s"), options: Store.Options(), now: StoreFixtures.t0, system: system)
        var ids: [UUID] = []
        for n in 0..<20 {
            let s = try store.createWorkStream(id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!, workingDirectory: "/w")
            try store.enqueue(s.id, at: StoreFixtures.t0)
            ids.append(s.id)
        }
        calls.reset()
        try store.removeFromQueue(ids[17])  // positions 19 and 20 move up, 18 leaves
        #expect(calls.count(renamesEndingIn: "queue.json") == 1)
        #expect(calls.count(renamesEndingIn: ".json") == 1 + 3)
        calls.reset()
        try store.enqueue(ids[0], at: StoreFixtures.t0)  // every other entry moves up by one
        #expect(calls.count(renamesEndingIn: ".json") == 1 + 19)
        calls.reset()
        try store.addToPriorityQueue(ids[5], priority: 1, at: StoreFixtures.t0)
        #expect(calls.count(renamesEndingIn: ".json") == 1 + 1)
        calls.reset()
        try store.removeFromPriorityQueue(ids[5])
        #expect(calls.count(renamesEndingIn: ".json") == 1 + 1)
        let mirrored = try store.workStream(ids[5]).fields
        #expect(mirrored.priority == 10 && mirrored.priorityOrder == 0 && mirrored.priorityQueuedAt == nil && !mirrored.isInPriorityQueue)
        let summaries = try store.listWorkStreams().items.map(\.queueSummary)
        #expect(RollbackCheck.checkMirror(sessions: summaries, queue: try store.queue()) == nil)
    }

    /// Spec §9: `--to 2` gives the v2 sample; the next run without a target takes it on to the
    /// v3 sample; a third run changes no byte.
    @Test func migratorTurnsTheV1SampleIntoTheV2ThenTheV3SampleAndAThirdRunChangesNoByte() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v1-store")
        let store = try Store.open(at: path)
        let plan = try StoreMigrator(store: store).plan(to: 2)
        let report = try StoreMigrator(store: store).migrate(to: 2, toolVersion: "0.1.0")
        #expect(plan.documents.map(\.file) == report.documents.map(\.file))
        #expect(plan.documents.map(\.changes) == report.documents.map(\.changes))
        var migrated = tree(path)
        var expected = tree(Samples.v2Store)
        #expect(migrated.removeValue(forKey: "store.json") != nil && expected.removeValue(forKey: "store.json") != nil)
        #expect(migrated == expected)
        let v2 = try Store.open(at: path)
        #expect(StoreMigrator(store: v2).defaultTarget == 4)
        let toV3 = try StoreMigrator(store: v2).migrate(to: 3, toolVersion: "0.1.0")
        #expect(!toV3.isNoop)
        migrated = tree(path)
        expected = tree(Samples.v3Store)
        #expect(migrated.removeValue(forKey: "store.json") != nil && expected.removeValue(forKey: "store.json") != nil)
        #expect(migrated == expected)
        let before = tree(path)
        let again = try StoreMigrator(store: try Store.open(at: path)).migrate(to: 3, toolVersion: "0.1.0")
        #expect(again.isNoop)
        #expect(tree(path) == before)
    }
}

@Suite struct StoreReconcileOnOpenTests {
    /// Spec §7: a v1 writer changed the queue keys of a session in a v2 store; opening the store
    /// for writing takes the session keys as the truth and rebuilds queue.json, read-only opening changes nothing.
    @Test func openingForWritingReconcilesAfterAV1Writer() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v4-store")
        let file = path + "/sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json"
        var session = try WorkStreamV1(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: file))), acceptingNewerVersions: true)
        session.schemaVersion = 1
        session.fields.isInQueue = false
        session.fields.queuePosition = 0
        try Data(session.encoded).write(to: URL(fileURLWithPath: file))
        let before = tree(path)
        _ = try Store.open(at: path, options: .readOnly)
        #expect(tree(path) == before)
        let store = try Store.open(at: path)
        #expect(try store.queue().fifo.map { $0.workStreamID.lowercased.prefix(8) } == ["555a622d", "ec3629cb"])
        #expect(try store.workStream(UUID(uuidString: "555a622d-4eba-4eda-8989-fc9e679fc303")!).fields.queuePosition == 1)
        guard case .v3(let upgraded) = try store.workStream(UUID(uuidString: "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b")!) else {
            Issue.record("the v1 document was not upgraded"); return
        }
        #expect(upgraded.providerSessionID == "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b")
    }

    @Test func openingAConsistentStoreWritesNothing() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v2-store")
        let before = tree(path)
        _ = try Store.open(at: path)
        #expect(tree(path) == before)
    }
}

@Suite struct MigrationReportModesTests {
    /// `migrate` keeps totals only (constant memory); they equal the totals of the per-document plan.
    @Test func totalsOnlyReportEqualsThePlansTotals() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v1-store")
        let plan = try StoreMigrator(store: try Store.open(at: path, options: .readOnly)).plan()
        let report = try StoreMigrator(store: try Store.open(at: path)).migrate(toolVersion: "test", keepingDocuments: false)
        #expect(report.documents.isEmpty)
        #expect(report.totals == plan.totals)
        #expect(report.filesChanged == plan.filesChanged)
        #expect(report.filesChanged == 15)
    }
}
