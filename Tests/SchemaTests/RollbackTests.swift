import Foundation
import Testing

@testable import Schema

@Suite struct RollbackCheckTests {
    static let compacted = "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b"

    func migrated(_ extra: String = "") throws -> (WorkStreamV1, WorkStreamV2) {
        let original = try Fixtures.sessionV1(extra)
        return (original, try WorkStreamV2(migrating: original))
    }

    @Test func aMigratedDocumentPassesAllDocumentChecks() throws {
        let (original, v2) = try migrated("\"draft\": 1.0, \"messages\": [\(Fixtures.message(sessionID: Fixtures.otherID))]")
        #expect(RollbackCheck.checkWorkStream(bytes: v2.encoded, file: "s.json", original: original) == [])
        #expect(RollbackCheck.checkWorkStream(bytes: v2.encoded, file: "s.json", original: nil) == [])
    }

    @Test func v1ViewSeesEveryV1ValueAndKeepsV2KeysAsUnknown() throws {
        let (original, v2) = try migrated("\"provider_session_id\": \"\(Self.compacted)\"")
        let view = try RollbackCheck.v1View(of: v2.encoded)
        #expect(view.fields == original.fields)
        #expect(view.unknown["provider_session_id"] == .string(Self.compacted))
        #expect(view.unknown["provider"] == .string("claude"))
    }

    @Test func checkAFailsWhenV1CannotDecode() throws {
        let (original, _) = try migrated()
        let bad = Fixtures.bytes(Fixtures.minimalSession("\"provider_session_id\": \"p\", \"provider\": \"c\", \"message_count\": \"many\"", version: 2))
        let failures = RollbackCheck.checkWorkStream(bytes: bad, file: "s.json", original: original)
        #expect(failures.map(\.check) == [.v1Decodes])
        #expect(failures.first?.description == "(a) 's.json': message_count: expected an integer, found a string ('many')")
    }

    @Test func checkBFailsWhenAV1ValueChanged() throws {
        let (original, v2) = try migrated()
        var changed = v2
        changed.fields.backendName = "Renamed"
        let failures = RollbackCheck.checkWorkStream(bytes: changed.encoded, file: "s.json", original: original)
        #expect(failures.map(\.check) == [.valuesPreserved])
        #expect(failures.first?.reason == "values differ from the document before migration: backend_name")
    }

    @Test func checkBFailsWhenAKeptProviderSessionIDWasOverwritten() throws {
        let (original, v2) = try migrated("\"provider_session_id\": \"\(Self.compacted)\"")
        var overwritten = v2
        overwritten.providerSessionID = Fixtures.id.lowercased
        let failures = RollbackCheck.checkWorkStream(bytes: overwritten.encoded, file: "s.json", original: original)
        #expect(failures.map(\.check) == [.valuesPreserved])
    }

    @Test func checkBWithoutBackupCatchesAMissingV2Key() throws {
        let bytes = Fixtures.bytes(Fixtures.minimalSession(version: 2))
        let failures = RollbackCheck.checkWorkStream(bytes: bytes, file: "s.json", original: nil)
        #expect(failures.map(\.reason) == ["the v1 view lacks 'provider_session_id' as a string", "the v1 view lacks 'provider' as a string"])
    }

    @Test func checkCFailsWhenAV1WriteWouldRewriteAValue() throws {
        // Check (c) compares JSON values exactly: a date with an offset is re-encoded in UTC by a v1 write.
        let doc = Fixtures.minimalSession("\"provider_session_id\": \"p\", \"provider\": \"c\", \"queued_at\": \"2025-10-17T16:30:00+02:00\"", version: 2)
        let failures = RollbackCheck.checkWorkStream(bytes: Fixtures.bytes(doc), file: "s.json", original: nil)
        #expect(failures.map(\.check) == [.v2KeysSurviveV1Write])
        #expect(failures.first?.reason == "a v1 writer would lose or change: queued_at")
    }

    @Test func checkDComparesTheDerivedQueueWithQueueJSON() throws {
        let a = StoreMigrationTests.id(1), b = StoreMigrationTests.id(2)
        func summary(_ id: UUID, _ pos: Int32) -> WorkStreamQueueSummary {
            var f = WorkStreamFieldsV1(WorkStreamKeys(id: id, backendName: "", workingDirectory: "", lastModified: Fixtures.t0))
            f.isInQueue = pos > 0; f.queuePosition = pos
            return WorkStreamQueueSummary(id: id, schemaVersion: 2, keys: f.queueKeys)
        }
        let queue = QueueV2(fifo: [FIFOEntry(workStreamID: a, queuedAt: nil), FIFOEntry(workStreamID: b, queuedAt: nil)])
        #expect(RollbackCheck.checkMirror(sessions: [summary(a, 1), summary(b, 2)], queue: queue) == nil)
        let failure = RollbackCheck.checkMirror(sessions: [summary(a, 2), summary(b, 1)], queue: queue)
        #expect(failure?.check == .mirrorMatchesQueue)
        #expect(failure?.reason == "FIFO position 1: the session keys give \(b.lowercased), queue.json has \(a.lowercased) (2 vs 2 entries)")
    }
}

@Suite struct ReconcileTests {
    static let context = StoreMigrationTests.context
    static func id(_ n: Int) -> UUID { StoreMigrationTests.id(n) }

    /// The full rollback cycle in memory: upgrade, v2 writes, v1 writer edits, re-upgrade.
    @Test func reupgradeAfterRollbackLosesNothingEitherSideWrote() throws {
        var store = try StoreMigrationTests.store([
            (1, #""is_in_queue": true, "queue_position": 1"#), (2, #""is_in_queue": true, "queue_position": 2"#), (3, ""),
        ])
        (store, _) = try StoreMigration.migrate(store, context: Self.context)
        // v2 code: compaction changes session 1's provider session.
        guard case .v2(var s1) = store.sessions[Self.id(1)] else { Issue.record("not v2"); return }
        s1.providerSessionID = RollbackCheckTests.compacted
        store.sessions[Self.id(1)] = .v2(s1)
        // v1 writer: reads session 2 with the v1 type, removes it from the queue, writes schema_version 1.
        var s2 = try RollbackCheck.v1View(of: store.sessions[Self.id(2)]!.encoded)
        s2.schemaVersion = 1; s2.fields.isInQueue = false; s2.fields.queuePosition = 0; s2.fields.unreadCount = 7
        store.sessions[Self.id(2)] = .v1(s2)
        // v1 writer: deletes session 3, creates session 4 queued.
        store.sessions[Self.id(3)] = nil
        var s4 = try Fixtures.sessionV1(#""is_in_queue": true, "queue_position": 2"#, id: Self.id(4))
        s4.schemaVersion = 1
        store.sessions[Self.id(4)] = .v1(s4)

        let (after, report) = try StoreMigration.migrate(try StoreSnapshot(files: store.files), context: Self.context)
        guard case .v2(let r1) = after.sessions[Self.id(1)], case .v2(let r2) = after.sessions[Self.id(2)],
            case .v2(let r4) = after.sessions[Self.id(4)]
        else { Issue.record("not upgraded"); return }
        #expect(r1.providerSessionID == RollbackCheckTests.compacted)
        #expect(r2.providerSessionID == Self.id(2).lowercased)
        #expect(r2.unreadCount == 7)
        #expect(r4.provider == "claude")
        #expect(after.queue?.fifo.map(\.workStreamID) == [Self.id(1), Self.id(4)])
        #expect(after.sessions[Self.id(3)] == nil)
        guard case .v2(let manifest) = after.manifest else { Issue.record("manifest"); return }
        #expect(manifest.migrations.count == 2)
        #expect(report.documents.last?.changes == [.migrationRecorded])
        let summaries = after.sessions.values.map(WorkStreamQueueSummary.init)
        #expect(RollbackCheck.checkMirror(sessions: summaries, queue: after.queue!) == nil)
    }

    @Test func allV2StoreTakesQueueJSONAsTruthAndDropsMissingEntries() throws {
        var (store, _) = try StoreMigration.migrate(
            try StoreMigrationTests.store([
                (1, #""is_in_queue": true, "queue_position": 1"#), (2, #""is_in_queue": true, "queue_position": 2"#),
            ]), context: Self.context)
        store.queue!.enqueue(Self.id(9), at: Fixtures.t0)  // an entry for a work stream that does not exist
        store.queue!.enqueue(Self.id(1), at: Fixtures.t0)  // v2 code moved 1 to the end but the mirror was not written
        let resolved = QueueResolution.resolve(
            manifestVersion: 2, target: 2, sessions: store.sessions.values.map(WorkStreamQueueSummary.init), existing: store.queue)
        #expect(resolved.truth == .queueDocument)
        #expect(resolved.queue.fifo.map(\.workStreamID) == [Self.id(2), Self.id(1)])
        #expect(resolved.changes.contains(.queueEntryDropped(list: "fifo", workStreamID: Self.id(9))))
        let (after, _) = try StoreMigration.migrate(store, context: Self.context)
        #expect(after.sessions[Self.id(1)]?.fields.queuePosition == 2)
        #expect(after.sessions[Self.id(2)]?.fields.queuePosition == 1)
    }
}
