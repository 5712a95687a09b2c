import Foundation
import JSONStore
import Schema
import StoreJSON
import TestSupport
import Testing

@testable import StoreGenerator

@Suite struct StoreGeneratorTests {
    /// Small, but large enough that this seed shows every edge case the generator sprinkles.
    static let generator = StoreGenerator(seed: 7, workStreams: 300, messagesPerStream: 6)

    @Test func sameSeedWritesByteIdenticalTrees() throws {
        let dir = TemporaryDirectory()
        try Self.generator.write(to: dir("a"))
        try StoreGenerator(seed: 7, workStreams: 300, messagesPerStream: 6).write(to: dir("b"))
        let a = tree(dir("a"), dotNames: true), b = tree(dir("b"), dotNames: true)
        #expect(a.count == 300 + Self.generator.forEachDocument { _, _ in }.customisations + 2)
        #expect(a == b)
        #expect(fingerprint(a) == fingerprint(b))
    }

    @Test func otherSeedGivesOtherStore() throws {
        var first: [String: [UInt8]] = [:], second: [String: [UInt8]] = [:]
        StoreGenerator(seed: 1, workStreams: 20, messagesPerStream: 4).forEachDocument { first[$0] = $1 }
        StoreGenerator(seed: 2, workStreams: 20, messagesPerStream: 4).forEachDocument { second[$0] = $1 }
        #expect(Set(first.keys).intersection(second.keys) == ["settings.json", "store.json"])
    }

    @Test func writtenFilesAreExactlyTheProducedDocuments() throws {
        let dir = TemporaryDirectory()
        let written = try Self.generator.write(to: dir("store"))
        var produced: [String: [UInt8]] = [:]
        let summary = Self.generator.forEachDocument { produced[$0] = $1 }
        #expect(tree(dir("store"), dotNames: true) == produced)
        #expect(written == summary)
        #expect(summary.bytes == produced.values.reduce(0) { $0 + $1.count })
    }

    @Test func everyDocumentDecodesAndIsCanonical() throws {
        Self.generator.forEachDocument { path, bytes in
            let json = try! DocumentVersion.parse(bytes)
            #expect(JSONWriter.document(json) == bytes, "\(path) is not canonical")
            if path.hasPrefix("sessions/") { #expect(throws: Never.self) { try WorkStreamV1(json: json) } }
            if path.hasPrefix("user-sessions/") { #expect(throws: Never.self) { try CustomisationV1(json: json) } }
        }
    }

    @Test func generatedStoreOpensReadOnlyAndPlansAMigration() throws {
        let dir = TemporaryDirectory()
        let summary = try Self.generator.write(to: dir("store"))
        let before = tree(dir("store"), dotNames: true)
        let store = try Store.open(at: dir("store"), options: .readOnly)
        #expect(store.compatibility == .needsMigration(from: 1))
        let listing = try store.listWorkStreams()
        #expect(listing.problems.isEmpty)
        #expect(listing.items.count == 300)
        for item in listing.items { _ = try store.workStream(item.id) }
        let customisations = try store.customisations()
        #expect(customisations.problems.isEmpty)
        #expect(customisations.items.count == summary.customisations)

        let totals = try StoreMigrator(store: store).plan().totals
        // The v1 faults the migration repairs and reports (spec §6 rules 4–5) are all present.
        #expect(totals["message_session_id_fixed", default: 0] > 0)
        #expect(totals["queue_position_renumbered", default: 0] > 0)
        #expect(totals["queue_position_cleared", default: 0] > 0)
        #expect(tree(dir("store"), dotNames: true) == before, "a read-only open and a plan write nothing")
    }

    @Test func edgeCasesAppearAtTheirRates() throws {
        var upperCaseNames = 0, emptyNames = 0, unknownNumbers = 0, minimal = 0, orphans = 0, deleted = 0
        var ids = Set<String>()
        let summary = Self.generator.forEachDocument { path, bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            guard case .object(let object) = try! DocumentVersion.parse(bytes) else { return }
            if path.hasPrefix("sessions/") {
                guard case .string(let id) = object["id"], case .string(let name) = object["backend_name"] else { return }
                ids.insert(id)
                if name == id.uppercased() { upperCaseNames += 1 }
                if name.isEmpty { emptyNames += 1 }
                if text.contains("\"tts_speed\": 1.0") { unknownNumbers += 1 }
                if object["messages"] == nil { minimal += 1 }
            } else if path.hasPrefix("user-sessions/") {
                guard case .string(let id) = object["id"] else { return }
                if !ids.contains(id) { orphans += 1 }
                if object["is_user_deleted"] == .bool(true) { deleted += 1 }
            }
        }
        #expect(upperCaseNames > 0 && emptyNames > 0 && unknownNumbers > 0 && minimal > 0 && deleted > 0)
        #expect(orphans == summary.orphanCustomisations && orphans > 0)
    }

    @Test func messageTextsHaveRealisticLengths() {
        var rng = SeededGenerator(seed: 99)
        let user = (0..<2_000).map { _ in MessageText.user(&rng).utf8.count }
        let assistant = (0..<2_000).map { _ in MessageText.assistant(&rng).utf8.count }
        #expect(user.allSatisfy { (20...220).contains($0) })
        #expect(assistant.allSatisfy { (200...6_100).contains($0) })
        let average = Double(user.reduce(0, +) + assistant.reduce(0, +)) / 4_000
        #expect((550...900).contains(average), "average message text \(average) bytes")
    }

    @Test func writingIntoANonEmptyFolderIsRefused() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir("store"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir("store") + "/keep.txt"))
        #expect(throws: StoreGeneratorError.self) { try Self.generator.write(to: dir("store")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir("store")) == ["keep.txt"])
    }

    @Test func splitMixMatchesTheReferenceSequence() {
        // First outputs of SplitMix64 seeded with 0 (reference: Vigna's splitmix64.c).
        var rng = SeededGenerator(seed: 0)
        #expect([rng.next(), rng.next(), rng.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }
}

/// FNV-1a (64-bit) over the sorted paths and contents: one number that names a whole tree.
func fingerprint(_ files: [String: [UInt8]]) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for path in files.keys.sorted() {
        for byte in Array(path.utf8) + [0] + files[path]! + [0] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    }
    return hash
}
