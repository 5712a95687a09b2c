import Foundation
import Testing

@testable import Schema

@Suite struct SessionMigrationTests {
    @Test func rule1AddsLowercaseIDAsProviderSessionIDWhenAbsent() throws {
        let (v2, changes) = try WorkStreamMigration.migrate(try Fixtures.sessionV1())
        #expect(v2.providerSessionID == Fixtures.id.lowercased)
        #expect(changes.contains(.addedKey("provider_session_id", value: Fixtures.id.lowercased)))
        #expect(v2.schemaVersion == 2)
    }

    @Test func rule1NeverOverwritesAnExistingProviderSessionID() throws {
        let compacted = "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b"
        let (v2, changes) = try WorkStreamMigration.migrate(try Fixtures.sessionV1("\"provider_session_id\": \"\(compacted)\""))
        #expect(v2.providerSessionID == compacted)
        #expect(changes == [.schemaVersion(from: 1, to: 2), .keptProviderSessionID(compacted), .addedKey("provider", value: "claude")])
        #expect(v2.unknown["provider_session_id"] == nil)
    }

    @Test func rule2AddsClaudeOnlyWhenProviderIsAbsent() throws {
        let (a, _) = try WorkStreamMigration.migrate(try Fixtures.sessionV1())
        let (b, changes) = try WorkStreamMigration.migrate(try Fixtures.sessionV1("\"provider\": \"cursor\""))
        #expect(a.provider == "claude")
        #expect(b.provider == "cursor")
        #expect(!changes.contains(.addedKey("provider", value: "claude")))
    }

    @Test func existingProviderSessionIDOfWrongTypeStopsTheMigration() throws {
        let v1 = try? Fixtures.sessionV1("\"provider_session_id\": 5")
        let error = Fixtures.error { () throws(SchemaError) in _ = try WorkStreamMigration.migrate(v1!) }
        #expect(error?.code == .wrongType)
        #expect(error?.keyPath == "provider_session_id")
    }

    @Test func rule3KeepsEveryOtherKeyKnownOrUnknown() throws {
        let v1 = try Fixtures.sessionV1("\"draft\": [1.0, {\"x\": null}], \"unread_count\": 4, \"preview\": \"p\"")
        let (v2, _) = try WorkStreamMigration.migrate(v1)
        #expect(v2.fields == v1.fields)
        #expect(v2.unknown == v1.unknown)
    }

    @Test func rule4ContainmentWinsForMessageSessionIDAndIsReported() throws {
        let mid = "11111111-2222-4333-8444-555555555555"
        let v1 = try Fixtures.sessionV1("\"messages\": [\(Fixtures.message(id: mid, sessionID: Fixtures.otherID))]")
        let (v2, changes) = try WorkStreamMigration.migrate(v1)
        #expect(v2.messages[0].sessionID == Fixtures.id)
        #expect(changes.contains(.messageSessionIDFixed(messageID: UUID(uuidString: mid)!, from: Fixtures.otherID, to: Fixtures.id)))
    }

    @Test func migratingAV2DocumentChangesNothing() throws {
        let (v2, _) = try WorkStreamMigration.migrate(try Fixtures.sessionV1())
        let (again, changes) = try MigrationStep.v1ToV2.migrate(.v2(v2), context: StepContext(writtenByOlderWriter: false))
        #expect(again == .v2(v2))
        #expect(changes.isEmpty)
        #expect(again.encoded == v2.encoded)
    }
}

@Suite struct StoreMigrationTests {
    /// These tests are about the v1 → v2 step (spec §6, §7): they migrate to version 2.
    static let context = StoreMigration.Context(startedAt: Fixtures.t0, finishedAt: Fixtures.t0, toolVersion: "test", target: 2)

    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }

    static func store(_ sessions: [(Int, String)]) throws -> StoreSnapshot {
        var files: [String: [UInt8]] = [
            "store.json": Fixtures.bytes(#"{"format": "work-stream-store", "schema_version": 1, "created_at": "2025-10-01T00:00:00Z"}"#)
        ]
        for (n, extra) in sessions { files["sessions/\(id(n).lowercased).json"] = Fixtures.bytes(Fixtures.minimalSession(extra, id: id(n))) }
        return try StoreSnapshot(files: files)
    }

    @Test func rule5OrdersByPositionThenQueuedAtThenIDAndRenumbers() throws {
        let store = try Self.store([
            (1, #""is_in_queue": true, "queue_position": 3, "queued_at": "2025-10-17T10:00:00Z""#),
            (2, #""is_in_queue": true, "queue_position": 3, "queued_at": "2025-10-17T09:00:00Z""#),
            (3, #""is_in_queue": true, "queue_position": 1"#),
            (4, #""is_in_queue": true, "queue_position": 0"#),
            (5, #""is_in_queue": true, "queue_position": -2, "queued_at": "2025-10-17T08:00:00Z""#),
            (6, #""is_in_queue": false, "queue_position": 7"#),
        ])
        let (out, report) = try StoreMigration.migrate(store, context: Self.context)
        // Ascending as the app's queue list sorts: -2, the stale 0, 1, then the two 3s by queued_at.
        // (Stale and negative positions used to go last: 3, 2, 1, 5, 4.)
        #expect(out.queue?.fifo.map(\.workStreamID) == [5, 4, 3, 2, 1].map(Self.id))
        #expect(out.sessions[Self.id(2)]?.fields.queuePosition == 4)
        #expect(out.sessions[Self.id(4)]?.fields.queuePosition == 2)
        #expect(out.sessions[Self.id(6)]?.fields.queuePosition == 0)
        let changes6 = report.documents.first { $0.file.contains(Self.id(6).lowercased) }?.changes ?? []
        #expect(changes6.contains(.queuePositionCleared(from: 7)))
        let changes1 = report.documents.first { $0.file.contains(Self.id(1).lowercased) }?.changes ?? []
        #expect(changes1.contains(.queuePositionRenumbered(from: 3, to: 3)) == false)
        #expect(report.totals["queue_position_renumbered"] == 5)
    }

    @Test func rule6SortsThePriorityQueue() throws {
        let store = try Self.store([
            (1, #""is_in_priority_queue": true, "priority": 10, "priority_order": 1"#),
            (2, #""is_in_priority_queue": true, "priority": 1, "priority_order": 2"#),
            (3, #""is_in_priority_queue": true, "priority": 1, "priority_order": 1.5"#),
            (4, #""is_in_priority_queue": false, "priority": 1, "priority_order": 1"#),
        ])
        let (out, _) = try StoreMigration.migrate(store, context: Self.context)
        #expect(out.queue?.priority.map(\.workStreamID) == [3, 2, 1].map(Self.id))
        #expect(out.sessions[Self.id(4)]?.fields.priority == 1)
    }

    @Test func manifestIsWrittenLastWithMinReaderVersionAndRecord() throws {
        let (out, report) = try StoreMigration.migrate(try Self.store([(1, "")]), context: Self.context)
        #expect(report.documents.map(\.file) == ["queue.json", "sessions/\(Self.id(1).lowercased).json", "store.json"])
        guard case .v2(let m) = out.manifest else { Issue.record("manifest not v2"); return }
        #expect(m.minReaderVersion == 1)
        #expect(m.migrations.first?.counts == ["sessions": 1, "user_sessions": 0, "settings": 0, "fifo_entries": 0, "priority_entries": 0])
    }

    @Test func migratingAMigratedStoreChangesNoByte() throws {
        let store = try Self.store([(1, #""is_in_queue": true, "queue_position": 4"#), (2, "")])
        let (once, _) = try StoreMigration.migrate(store, context: Self.context)
        let (twice, report) = try StoreMigration.migrate(try StoreSnapshot(files: once.files), context: Self.context)
        #expect(report.isNoop)
        #expect(report.documents.isEmpty)
        #expect(twice.files == once.files)
    }

    @Test func partiallyAppliedRenumberingKeepsTheOrderAVOneReaderDerives() throws {
        let store = try Self.store([
            (1, #""is_in_queue": true, "queue_position": 10"#), (2, #""is_in_queue": true, "queue_position": 1"#),
            (3, #""is_in_queue": true, "queue_position": 1"#), (4, #""is_in_queue": true, "queue_position": 1"#),
            (5, #""is_in_queue": true, "queue_position": 0"#), (6, #""is_in_queue": true, "queue_position": 7"#),
        ])
        let (final, report) = try StoreMigration.migrate(store, context: Self.context)
        let expected = final.queue!.fifo.map(\.workStreamID)
        var current = store
        // Apply the session writes one at a time, in report order; after each, the derived queue is unchanged.
        for doc in report.documents where doc.file.hasPrefix("sessions/") {
            let id = try StoreSnapshot.documentID(doc.file, String(doc.file.dropFirst("sessions/".count)))
            current.sessions[id] = final.sessions[id]
            let derived = QueueBuilder.build(from: current.sessions.values.map(WorkStreamQueueSummary.init))
            #expect(derived.fifo.map(\.workStreamID) == expected, "after writing \(doc.file)")
            let (resumed, _) = try StoreMigration.migrate(current, context: Self.context)
            #expect(resumed.files == final.files, "resuming after \(doc.file)")
            if resumed.files != final.files { return }
        }
    }
}
