import Foundation
import Testing

@testable import Schema
@testable import StoreJSON

/// The version chain as values (spec §9) and the v2 → v3 step (§10).
@Suite struct MigrationChainTests {
    static let noOlderWriter = StepContext(writtenByOlderWriter: false)

    static func v2(_ extra: String = "", messages: String = "") throws -> WorkStreamV2 {
        try WorkStreamV2(
            bytes: Fixtures.bytes(
                Fixtures.minimalSession(
                    "\"provider_session_id\": \"p-1\", \"provider\": \"cursor\", \"messages\": [\(messages)]" + (extra.isEmpty ? "" : ", " + extra),
                    version: 2)))
    }

    @Test func theChainIsOrderedStepsOfOneVersionEachTheLastOneBreaking() {
        #expect(
            MigrationChain.steps.map { "\($0.from)→\($0.to) \($0.kind.rawValue)" } == [
                "1→2 rollback-safe", "2→3 rollback-safe", "3→4 rollback-safe", "4→5 breaking",
            ])
        #expect(MigrationChain.oldest == 1 && MigrationChain.newest == 5 && DocumentVersion.current == 4 && DocumentVersion.newest == 5)
        #expect(MigrationChain.steps(from: 1, to: 4).count == 3 && MigrationChain.steps(from: 2, to: 3).map(\.from) == [2])
        #expect(MigrationChain.steps(from: 4, to: 4).isEmpty)
        #expect(
            (1...4).map { MigrationChain.defaultTarget(from: $0) } == [4, 4, 4, 4],
            "the default never takes the breaking step")
        #expect(MigrationChain.defaultTarget(from: 5) == 5)
        #expect(MigrationChain.readers(at: 4) == 1...4, "rollback-safe steps keep min_reader_version 1")
        #expect(MigrationChain.readers(at: 5) == 5...5, "the breaking step raises min_reader_version to 5")
        #expect(RollbackCheck.olderReaders(at: 4) == [1, 2, 3] && RollbackCheck.olderReaders(at: 3) == [1, 2] && RollbackCheck.olderReaders(at: 2) == [1])
        #expect(
            MigrationChain.steps.map { $0.inverse.map { "\($0.from)→\($0.to)" } } == [nil, nil, nil, "5→4"],
            "only the breaking step ships an inverse, back to where it came from")
    }

    @Test func theFolderLayoutFollowsTheStepsLayoutEffects() {
        #expect(MigrationChain.steps.map(\.layout) == [.none, .none, .none, .renamesWorkStreamsFolder(from: "sessions", to: "work-streams")])
        #expect(MigrationChain.folderRenamingStep.from == 4 && MigrationChain.folderRenamingStep.kind == .breaking)
        #expect(StoreLayout.renamedFolderVersion == MigrationChain.folderRenamingStep.to)
        #expect(
            (1...6).map { StoreLayout.workStreamsFolder(schemaVersion: $0) } == [
                "sessions", "sessions", "sessions", "sessions", "work-streams", "work-streams",
            ])
        #expect((1...6).map { StoreLayout.otherSideOfFolderRename(schemaVersion: $0) } == [5, 5, 5, 5, 4, 4])
        #expect(StoreLayout.Bookkeeping.staging(for: "work-streams") == StoreLayout.Bookkeeping.stagingWorkStreams)
    }

    @Test func aV4WorkStreamIsReadByTheV3TypeAtItsOwnVersion() throws {
        #expect((1...5).map { WorkStreamDocument.readingVersion(of: $0) } == [1, 2, 3, 3, 5])
        let v3 = try WorkStreamV3(bytes: Fixtures.bytes(Fixtures.minimalSession("\"provider_session_id\": \"p-1\", \"provider\": \"claude\"", version: 3)))
        var v4 = v3
        v4.schemaVersion = 4
        let document = try WorkStreamDocument(bytes: v4.encoded)
        #expect(document == .v3(v4), "a v4 work stream reads as itself, without acceptingNewerVersions")
        #expect(document.encoded == v4.encoded)
        #expect(throws: SchemaError.self) { try WorkStreamDocument(bytes: v4.encoded, frozenVersion: 3) }
        #expect(try WorkStreamDocument(bytes: v4.encoded, frozenVersion: 4) == .v3(v4))
    }

    @Test func v2ToV3AddsEveryCursorWithItsDefaultAndSeqAndOffsetToEachMessage() throws {
        let v2 = try Self.v2(messages: Fixtures.message())
        let (document, changes) = try MigrationStep.v2ToV3.migrate(.v2(v2), context: Self.noOlderWriter)
        guard case .v3(let v3) = document else { Issue.record("not v3"); return }
        #expect(v3.cursors == .defaults)
        #expect(v3.fields.messages.map(\.seq) == [0] && v3.fields.messages.map(\.offset) == [0])
        let m = v2.fields.messages[0]
        #expect(
            v3.providerSessionID == "p-1" && v3.provider == "cursor"
                && v3.fields
                    == WorkStreamFieldsV3(
                        v2.fields.keys,
                        messages: [
                            MessageV3(
                                id: m.id, sessionID: m.sessionID, role: m.role, text: m.text, timestamp: m.timestamp,
                                serverTimestamp: m.serverTimestamp, status: m.status, unknown: m.unknown)
                        ])
        )
        #expect(changes.first == .schemaVersion(from: 2, to: 3))
        #expect(changes.filter { $0.code == "added_key" }.count == 5)
        #expect(changes.last == .messageKeysAdded(messages: 1))
        #expect(String(decoding: v3.encoded, as: UTF8.self).contains("\"last_file_signature\": null,\n"))
        #expect(v3.encoded == JSONWriter.document(v3.json))
    }

    @Test func v2ToV3KeepsPresentValuesOfAWriterThatKnewThem() throws {
        let v2 = try Self.v2(
            "\"next_seq\": 40, \"last_file_signature\": \"sig\"",
            messages: Fixtures.message(extra: "\"seq\": 7, \"offset\": 900"))
        let (document, changes) = try MigrationStep.v2ToV3.migrate(.v2(v2), context: Self.noOlderWriter)
        guard case .v3(let v3) = document else { Issue.record("not v3"); return }
        #expect(v3.cursors == SyncCursors(nextSeq: 40, lastFileSignature: "sig"))
        #expect(v3.fields.messages[0].seq == 7 && v3.fields.messages[0].offset == 900 && v3.fields.messages[0].unknown.isEmpty)
        #expect(v3.unknown.isEmpty)
        #expect(!changes.contains { $0.code == "message_keys_added" || $0.code == "cursor_reset" })
    }

    /// §10: a document an older writer rewrote after the upgrade has untrusted cursors: reset, each
    /// reset value reported; messages keep their seq and offset.
    @Test func v2ToV3ResetsTheCursorsOfAnOlderWritersDocumentAndReportsEach() throws {
        let v2 = try Self.v2(
            "\"next_seq\": 40, \"live_from_seq\": 0, \"last_file_signature\": \"sig\"",
            messages: Fixtures.message(extra: "\"seq\": 7, \"offset\": 900"))
        let (document, changes) = try MigrationStep.v2ToV3.migrate(.v2(v2), context: StepContext(writtenByOlderWriter: true))
        guard case .v3(let v3) = document else { Issue.record("not v3"); return }
        #expect(v3.cursors == .defaults)
        #expect(v3.fields.messages[0].seq == 7 && v3.fields.messages[0].offset == 900)
        #expect(changes.filter { $0.code == "cursor_reset" } == [.cursorReset("next_seq", from: "40"), .cursorReset("last_file_signature", from: "'sig'")])
        #expect(Change.cursorReset("next_seq", from: "40").isNormalisation)
    }

    @Test func v2ToV3RefusesACursorOfTheWrongTypeRatherThanOverwriteIt() throws {
        let v2 = try Self.v2("\"next_seq\": \"forty\"")
        let error = Fixtures.error { () throws(SchemaError) in _ = try MigrationStep.v2ToV3.migrate(.v2(v2), context: Self.noOlderWriter) }
        #expect(error?.code == .wrongType && error?.keyPath == "next_seq")
    }

    @Test func aV1DocumentGoesThroughBothStepsWithOneMergedVersionChange() throws {
        let v1 = try Fixtures.sessionV1("\"messages\": [\(Fixtures.message())]")
        let (document, changes) = try MigrationChain.migrateWorkStream(.v1(v1), storeVersion: 1, to: 3)
        guard case .v3(let v3) = document else { Issue.record("not v3"); return }
        #expect(v3.providerSessionID == Fixtures.id.lowercased && v3.cursors == .defaults)
        #expect(changes.filter { $0.code == "schema_version" } == [.schemaVersion(from: 1, to: 3)])
        let (again, none) = try MigrationChain.migrateWorkStream(document, storeVersion: 3, to: 3)
        #expect(again == document && none.isEmpty, "idempotent")
        let (toV2, _) = try MigrationChain.migrateWorkStream(.v1(v1), storeVersion: 1, to: 2)
        let (onToV3, _) = try MigrationChain.migrateWorkStream(toV2, storeVersion: 2, to: 3)
        #expect(onToV3.encoded == document.encoded, "two runs give the bytes of one")
    }

    /// Check (c) has teeth for every reader version: an older writer that drops a newer key is caught.
    @Test func checkCCatchesAnOlderWriterThatDropsANewerKey() throws {
        let v3 = WorkStreamV3(
            fields: WorkStreamFieldsV3(WorkStreamKeys(id: Fixtures.id, backendName: "x", workingDirectory: "/w", lastModified: Fixtures.t0)),
            providerSessionID: "p", provider: "claude", cursors: SyncCursors(nextSeq: 3))
        let bytes = v3.encoded
        #expect(RollbackCheck.checkWorkStream(bytes: bytes, file: "s.json", original: nil, reader: 2, storeVersion: 3) == [])
        var broken = try WorkStreamV2(bytes: bytes, acceptingNewerVersions: true)
        broken.unknown.removeValue(forKey: "next_seq")
        #expect(RollbackCheck.writeLoses(view: .v2(broken), bytes: bytes, reader: 2) == "a v2 writer would lose or change: next_seq")
        var brokenV1 = try WorkStreamV1(bytes: bytes, acceptingNewerVersions: true)
        brokenV1.unknown.removeValue(forKey: "provider")
        #expect(RollbackCheck.writeLoses(view: .v1(brokenV1), bytes: bytes, reader: 1) == "a v1 writer would lose or change: provider")
    }
}
