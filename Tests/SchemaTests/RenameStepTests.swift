import Foundation
import TestSupport
import Testing

@testable import Schema
@testable import StoreJSON

/// Schema v5 (spec §12), the breaking rename, with its exact inverse, per document; the sample's v3
/// documents are taken to v4 first (v4 only changes a work stream's `schema_version`).
@Suite struct RenameStepTests {
    static func sample() throws -> StoreSnapshot { try StoreSnapshot(files: tree(Samples.v3Store)) }

    /// A v3 sample document as v4 has it.
    static func atV4(_ document: WorkStreamDocument?) -> WorkStreamV3? {
        guard case .v3(var v3) = document else { return nil }
        v3.schemaVersion = 4
        return v3
    }

    /// §9: for every document, inverse(step(d)) equals d except the normalisations the step reports.
    @Test func inverseOfTheRenameGivesBackEveryV3SampleDocumentExceptReportedNormalisations() throws {
        let store = try Self.sample()
        let index = QueueIndex(try #require(store.queue))
        var normalised = 0
        for (id, document) in store.sessions {
            guard let v3 = Self.atV4(document) else { Issue.record("\(id) is not v3"); continue }
            let (v4, changes) = try RenameStep.forward(v3, queue: index)
            let (back, _) = try RenameStep.inverse(try WorkStreamV5(bytes: v4.encoded), queue: index)
            let stale = Set(
                changes.compactMap { change -> String? in
                    if case .staleMirrorKey(let key, _) = change { return key } else { return nil }
                })
            var expected = v3.fields
            let restored = back.fields
            for key in stale {
                switch key {
                case "is_in_queue": expected.isInQueue = restored.isInQueue
                case "queue_position": expected.queuePosition = restored.queuePosition
                case "queued_at": expected.queuedAt = restored.queuedAt
                case "is_in_priority_queue": expected.isInPriorityQueue = restored.isInPriorityQueue
                case "priority": expected.priority = restored.priority
                case "priority_order": expected.priorityOrder = restored.priorityOrder
                default: expected.priorityQueuedAt = restored.priorityQueuedAt
                }
            }
            if !stale.isEmpty { normalised += 1 }
            #expect(restored == expected, "\(id.lowercased): differs beyond the reported normalisations \(stale.sorted())")
            #expect(back.providerSessionID == v3.providerSessionID && back.provider == v3.provider && back.cursors == v3.cursors)
            #expect(back.unknown == v3.unknown, "unknown keys survive both ways")
            if stale.isEmpty { #expect(back.encoded == v3.encoded, "\(id.lowercased): byte for byte") }
        }
        // The sample's not-queued 'ad63adfa' still carries the queued_at a v1 app left (§6 keeps it).
        #expect(normalised >= 1)
    }

    @Test func aV5WorkStreamHasNameAndNoQueueKeysAndReadsBackAsItself() throws {
        let store = try Self.sample()
        let id = try #require(UUID(uuidString: "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b"))
        guard let v3 = Self.atV4(store.sessions[id]) else { Issue.record("not v3"); return }
        let (v4, changes) = try RenameStep.forward(v3, queue: QueueIndex(try #require(store.queue)))
        guard case .object(let object) = try DocumentVersion.parse(v4.encoded) else { Issue.record("not an object"); return }
        #expect(object["name"] == .string(v3.fields.backendName) && object["backend_name"] == nil)
        #expect(RenameStep.mirrorKeys.allSatisfy { object[$0] == nil })
        #expect(object["schema_version"] == .number(JSONNumber(5)))
        #expect(try WorkStreamV5(bytes: v4.encoded) == v4)
        #expect(v4.encoded == JSONWriter.document(v4.json))
        #expect(changes.contains(.keyRenamed("backend_name", to: "name")) && changes.contains(.mirrorKeysRemoved))
        #expect(Change.staleMirrorKey("queued_at", value: "x").isNormalisation)
    }

    @Test func theRenameRefusesToOverwriteAnUnknownKeyEitherWay() throws {
        let store = try Self.sample()
        let index = QueueIndex(try #require(store.queue))
        let id = try #require(UUID(uuidString: "c25e47cd-f10a-49a3-9ec4-a9355366da75"))
        guard var v3 = Self.atV4(store.sessions[id]) else { Issue.record("not v3"); return }
        v3.unknown["name"] = .string("a key an older app added")
        let forward = Fixtures.error { () throws(SchemaError) in _ = try RenameStep.forward(v3, queue: index) }
        #expect(forward?.code == .invalidValue && forward?.keyPath == "name")
        v3.unknown["name"] = nil
        var (v4, _) = try RenameStep.forward(v3, queue: index)
        v4.unknown["priority"] = .number(JSONNumber(5))
        let inverse = Fixtures.error { () throws(SchemaError) in _ = try RenameStep.inverse(v4, queue: index) }
        #expect(inverse?.code == .invalidValue && inverse?.keyPath == "priority")
    }

    /// §4 reader rule: a v5 store (`min_reader_version` 5) is refused by every older reader,
    /// naming both versions; older document types refuse a v5 document.
    @Test func olderReadersRefuseAV5StoreAndItsDocumentsNamingBothVersions() throws {
        let header = ManifestHeader(schemaVersion: 5, minReaderVersion: 5)
        for reader in 1...4 {
            guard case .refused(5, 5, reader) = header.compatibility(reader: reader) else {
                Issue.record("reader \(reader) is not refused: \(header.compatibility(reader: reader))"); continue
            }
            #expect(header.compatibility(reader: reader).refusal?.contains("needs a reader of version 5 or newer") == true)
        }
        #expect(header.compatibility() == .breakingCurrent(storeVersion: 5))
        let v4 = WorkStreamV5(id: Fixtures.id, name: "x", workingDirectory: "/w", lastModified: Fixtures.t0, providerSessionID: "p", provider: "claude")
        let error = Fixtures.error { () throws(SchemaError) in _ = try WorkStreamV3(bytes: v4.encoded) }
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.reason.contains("schema_version 5") == true)
    }

    /// §11: a pre-release build numbered the breaking rename v4 (`schema_version` 4,
    /// `min_reader_version` 4). This code's v4 admits every reader: the pair is recognised and
    /// refused, by this code and every older reader, with the way out.
    @Test func aStoreAtThePreReleaseV4LayoutIsRefusedWithTheWayOut() {
        let header = ManifestHeader(schemaVersion: 4, minReaderVersion: 4)
        for reader in 1...5 {
            guard case .refused(4, 4, reader) = header.compatibility(reader: reader) else {
                Issue.record("reader \(reader) is not refused: \(header.compatibility(reader: reader))"); continue
            }
        }
        #expect(
            header.compatibility().refusal
                == "the store has schema_version 4 with min_reader_version 4, which this tool never writes (its v4 admits readers from version 1): "
                + "a pre-release build took it to that build's v4, the breaking rename to work-streams/, which this version numbers v5. "
                + "Take it back with that build ('migrate --to 3'), then migrate it with this one")
        #expect(ManifestHeader(schemaVersion: 4, minReaderVersion: 1).compatibility() == .current)
    }
}
