import Foundation
import StoreGenerator
import TestSupport
import Testing

@testable import Schema
@testable import StoreJSON

/// The migration's fast path (`MigrationChain.migrateCanonicalWorkStream`: messages upgraded to
/// v3 on their bytes) against the full path (parse, decode, the chain, encode): wherever the fast
/// path answers, its bytes, changes and queue summary are the full path's; where it can't vouch
/// for the bytes it declines, and the full path does what it always did.
@Suite struct MigrationFastPathTests {
    struct Outcome: Equatable {
        var bytes: [UInt8]
        var changes: [Change]
        var summary: WorkStreamQueueSummary
    }

    /// What the migration did before the fast path (and still does where it declines).
    static func full(_ bytes: [UInt8], storeVersion: Int, to target: Int = WorkStreamV3.version) -> Result<Outcome, SchemaError> {
        Result { () throws(SchemaError) -> Outcome in
            let document = try WorkStreamDocument(bytes: bytes)
            let (migrated, changes) = try MigrationChain.migrateWorkStream(document, storeVersion: storeVersion, to: target)
            return Outcome(bytes: migrated.encoded, changes: changes, summary: WorkStreamQueueSummary(document))
        }
    }

    static func fast(_ bytes: [UInt8], storeVersion: Int, to target: Int = WorkStreamV3.version) -> Outcome? {
        MigrationChain.migrateCanonicalWorkStream(bytes, storeVersion: storeVersion, to: target, acceptingNewerVersions: false).map {
            Outcome(bytes: $0.migrated, changes: $0.changes, summary: WorkStreamQueueSummary($0.document))
        }
    }

    /// Checks one document; returns whether the fast path took it.
    @discardableResult
    static func expectSameAsFullPath(_ bytes: [UInt8], storeVersion: Int, to target: Int = WorkStreamV3.version, _ label: String) -> Bool {
        guard let fast = fast(bytes, storeVersion: storeVersion, to: target) else { return false }
        switch full(bytes, storeVersion: storeVersion, to: target) {
        case .success(let full):
            let sameBytes = fast.bytes == full.bytes
            let firstDifference =
                (0..<min(fast.bytes.count, full.bytes.count)).first { fast.bytes[$0] != full.bytes[$0] } ?? min(fast.bytes.count, full.bytes.count)
            #expect(sameBytes, "\(label): bytes differ from byte \(firstDifference)")
            #expect(fast.changes == full.changes, "\(label): changes differ")
            #expect(fast.summary == full.summary, "\(label): queue summary differs")
        case .failure(let error):
            Issue.record("\(label): the fast path migrated a document the full path refuses: \(error)")
        }
        return true
    }

    static func generatedWorkStreams(seed: UInt64, count: Int, messages: Int) -> [[UInt8]] {
        var documents: [[UInt8]] = []
        StoreGenerator(seed: seed, workStreams: count, messagesPerStream: messages).forEachDocument { path, bytes in
            if path.hasPrefix("sessions/") { documents.append(bytes) }
        }
        return documents
    }

    /// The v2 bytes the full path writes for a v1 document (what a v2 store holds).
    static func v2Bytes(_ v1: [UInt8]) throws -> [UInt8] {
        let (migrated, _) = try MigrationChain.migrateWorkStream(try WorkStreamDocument(bytes: v1), storeVersion: 1, to: 2)
        return migrated.encoded
    }

    @Test(arguments: [(UInt64(20_251_120), 8), (UInt64(1), 0), (UInt64(77), 30)])
    func generatedV1DocumentsTakeTheFastPathWithTheFullPathsResult(seed: UInt64, messages: Int) {
        let documents = Self.generatedWorkStreams(seed: seed, count: 150, messages: messages)
        #expect(documents.count == 150)
        for (i, bytes) in documents.enumerated() {
            // The generator writes a few documents the fast path leaves alone: one without a
            // `messages` member (the full path writes it, empty), and messages of another work
            // stream (fixed and reported by the full path).
            let hasMessages = String(decoding: bytes, as: UTF8.self).contains("\n  \"messages\": [")
            let fixesContainment =
                (try? Self.full(bytes, storeVersion: 1).get())?.changes.contains {
                    if case .messageSessionIDFixed = $0 { true } else { false }
                } ?? false
            // To v3 from a v1 store (plain upgrade) and from a v2 store (the document was
            // written by an older writer after the upgrade: its cursors are reset); to v2.
            for (storeVersion, target) in [(1, 3), (2, 3), (1, 2)] {
                let label = "seed \(seed), document \(i), store v\(storeVersion) to v\(target)"
                let took = Self.expectSameAsFullPath(bytes, storeVersion: storeVersion, to: target, label)
                #expect(
                    took == (hasMessages && !fixesContainment),
                    "\(label): took \(took), has messages \(hasMessages), fixes containment \(fixesContainment)")
            }
        }
    }

    @Test func v2DocumentsWrittenByThisCodeTakeTheFastPathToo() throws {
        for (i, v1) in Self.generatedWorkStreams(seed: 5, count: 60, messages: 6).enumerated() {
            let v2 = try Self.v2Bytes(v1)
            for storeVersion in [2, 3] {
                #expect(Self.expectSameAsFullPath(v2, storeVersion: storeVersion, "document \(i), store v\(storeVersion)"))
            }
        }
    }

    /// The migration's second pass re-migrates the work streams whose queue keys the resolved
    /// queue changes (`StoreMigration.migrateWorkStreamDocument` with the queue index): the fast path with
    /// `mirror` gives its bytes and changes. The queue is built from the generated store's own
    /// queue keys, and built again with every tenth work stream dropped from it, so that some keys
    /// change (renumbered positions) and some entries go.
    @Test func withTheResolvedQueueTheFastPathAppliesTheSameMirror() throws {
        let documents = Self.generatedWorkStreams(seed: 20_251_120, count: 200, messages: 3)
        let summaries = try documents.map { WorkStreamQueueSummary(try WorkStreamDocument(bytes: $0)) }
        let queued = summaries.filter { $0.keys.isInQueue || $0.keys.isInPriorityQueue }
        #expect(queued.count > 10, "the generated store should queue some work streams")
        var changedByMirror = 0
        for (name, index) in [
            ("whole queue", QueueIndex(QueueBuilder.build(from: summaries))),
            ("every tenth dropped", QueueIndex(QueueBuilder.build(from: summaries.enumerated().filter { $0.offset % 10 != 0 }.map(\.element)))),
        ] {
            for (i, bytes) in documents.enumerated() {
                let document = try WorkStreamDocument(bytes: bytes)
                let (migrated, changes) = try StoreMigration.migrateWorkStreamDocument(document, storeVersion: 1, target: WorkStreamV3.version, index: index)
                guard
                    let fast = MigrationChain.migrateCanonicalWorkStream(
                        bytes, storeVersion: 1, to: WorkStreamV3.version,
                        acceptingNewerVersions: false, mirror: index)
                else { continue }
                let sameBytes = fast.migrated == migrated.encoded
                #expect(sameBytes, "\(name), document \(i): bytes differ")
                #expect(fast.changes == changes, "\(name), document \(i): changes differ")
                if changes.contains(where: { if case .mirrorKey = $0 { true } else if case .queuePositionRenumbered = $0 { true } else { false } }) {
                    changedByMirror += 1
                }
            }
        }
        #expect(changedByMirror > 5, "only \(changedByMirror) documents had mirror changes: the test does not exercise the mirror")
    }

    /// The samples hold hand-made oddities; whatever the fast path takes must match.
    @Test(arguments: ["v1-store", "v2-store"])
    func sampleDocumentsMatchTheFullPathWhereverTheFastPathApplies(sample: String) throws {
        let folder = Samples.path(sample) + "/sessions"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        #expect(!names.isEmpty)
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            Self.expectSameAsFullPath(bytes, storeVersion: sample == "v1-store" ? 1 : 2, "\(sample)/\(name)")
            if sample == "v1-store" { Self.expectSameAsFullPath(bytes, storeVersion: 1, to: WorkStreamV2.version, "\(sample)/\(name) to v2") }
        }
    }

    /// One message line of a generated document changed into a form that reads the same but is
    /// not what the writer writes (or that the migration must fix): the fast path declines it,
    /// and the full path still migrates it (or refuses it) as before.
    /// Changes to one message line that read the same (or that the migration must fix) but are
    /// not what the writer writes.
    enum LineEdit: String, CaseIterable, Sendable {
        case uppercaseID, escapedSlash, needlessUnicodeEscape, newlineAsUnicodeEscape, uppercaseUnicodeEscape
        case dateWithoutMilliseconds, dateWithOffset, otherWorkStream, offsetAlreadyThere, nestedUnknownValue
        case spaceBeforeComma, tabIndentation

        /// The key of the line edited.
        var lineKey: String {
            switch self {
            case .uppercaseID: "\"id\": \""
            case .escapedSlash, .needlessUnicodeEscape, .newlineAsUnicodeEscape, .uppercaseUnicodeEscape: "\"text\": \""
            case .dateWithoutMilliseconds, .dateWithOffset: "\"timestamp\": \""
            case .otherWorkStream: "\"session_id\": \""
            case .offsetAlreadyThere, .nestedUnknownValue, .spaceBeforeComma, .tabIndentation: "\"role\": \""
            }
        }

        func apply(_ line: String) -> String {
            let text = "\"text\": \""
            switch self {
            case .uppercaseID:
                let r = line.range(of: "\": \"")!
                return String(line[..<r.upperBound]) + line[r.upperBound...].uppercased()
            case .escapedSlash: return line.replacingOccurrences(of: text, with: text + "\\/")
            case .needlessUnicodeEscape: return line.replacingOccurrences(of: text, with: text + "\\u0041")
            case .newlineAsUnicodeEscape: return line.replacingOccurrences(of: text, with: text + "\\u000a")
            case .uppercaseUnicodeEscape: return line.replacingOccurrences(of: text, with: text + "\\u001F")
            case .dateWithoutMilliseconds: return line.replacingOccurrences(of: #"\.\d\d\dZ"#, with: "Z", options: .regularExpression)
            case .dateWithOffset: return line.replacingOccurrences(of: "Z\"", with: "+00:00\"")
            case .otherWorkStream: return String(line.dropLast(14)) + "00000000000a\","
            case .offsetAlreadyThere: return "      \"offset\": 3,\n" + line
            case .nestedUnknownValue: return "      \"pq\": [],\n" + line
            case .spaceBeforeComma: return line.replacingOccurrences(of: "\",", with: "\" ,")
            case .tabIndentation: return "\t" + line.dropFirst(1)
            }
        }
    }

    @Test(arguments: LineEdit.allCases)
    func nonCanonicalMessagesAreLeftToTheFullPath(edit: LineEdit) throws {
        let what = edit.rawValue, lineKey = edit.lineKey
        let original = Self.generatedWorkStreams(seed: 11, count: 3, messages: 4)[1]
        var lines = String(decoding: original, as: UTF8.self).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.hasPrefix("      " + lineKey) }, "no line of \(lineKey)")
        lines[index] = edit.apply(lines[index])
        let bytes = Array(lines.joined(separator: "\n").utf8)
        #expect(bytes != original, "\(what): the change did nothing")
        let declined = Self.fast(bytes, storeVersion: 1) == nil
        #expect(declined, "\(what): the fast path should decline")
        // The same document with the line as the writer writes it is taken.
        let tookOriginal = Self.fast(original, storeVersion: 1) != nil
        #expect(tookOriginal)
    }

    @Test func aMessageOfAnotherWorkStreamIsFixedAndReportedByTheFullPath() throws {
        let original = Self.generatedWorkStreams(seed: 11, count: 3, messages: 4)[1]
        var text = String(decoding: original, as: UTF8.self)
        let range = try #require(text.range(of: #""session_id": "[0-9a-f-]{36}""#, options: .regularExpression))
        text.replaceSubrange(range, with: #""session_id": "00000000-0000-4000-8000-00000000000a""#)
        let bytes = Array(text.utf8)
        let declined = Self.fast(bytes, storeVersion: 1) == nil
        #expect(declined)
        let full = try Self.full(bytes, storeVersion: 1).get()
        #expect(full.changes.contains { if case .messageSessionIDFixed = $0 { true } else { false } })
    }

    /// Random edits inside the messages (seeded; the seed and the edit are in each failure):
    /// bytes replaced, inserted and deleted, lines swapped and doubled. Whatever the fast path
    /// takes must be exactly the full path's result; both outcomes must occur often.
    @Test func randomEditsOfTheMessagesNeverMakeThePathsDiffer() throws {
        let seed: UInt64 = 20_261_125
        var random = SeededGenerator(seed: seed)
        let documents = Self.generatedWorkStreams(seed: 3, count: 12, messages: 5).filter { $0.count > 600 }
        let interesting: [UInt8] = Array("\"\\u0aAzZ09,:{}[]\n .-e+/".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xE2, 0xED, 0xF0, 0xFF]
        let replacements: [String] = ["é", "😀", "\\n", "\\u0001", "\\u0041", "\\\"", "\\\\", "\\/", "x", "\\ud83d\\ude00", "\u{7F}"]
        var took = 0, declined = 0
        for round in 0..<2_500 {
            var bytes = documents[Int(random.next() % UInt64(documents.count))]
            guard let start = MigrationChain.messagesValueStart(bytes) else { Issue.record("no messages"); return }
            let span = bytes.count - start - 2
            let at = start + Int(random.next() % UInt64(span))
            let edit: String
            switch random.next() % 7 {
            case 0:
                let b = interesting[Int(random.next() % UInt64(interesting.count))]
                bytes[at] = b; edit = "byte \(at) := \(b)"
            case 1:
                let b = interesting[Int(random.next() % UInt64(interesting.count))]
                bytes.insert(b, at: at); edit = "insert \(b) at \(at)"
            case 2:
                bytes.remove(at: at); edit = "delete byte \(at)"
            case 3, 4:
                // Text inside a string value: the edit is often still canonical.
                guard let quote = bytes[at...].firstIndex(of: UInt8(ascii: "\"")), quote + 1 < bytes.count else { continue }
                let insert = replacements[Int(random.next() % UInt64(replacements.count))]
                bytes.insert(contentsOf: Array(insert.utf8), at: quote + 1); edit = "insert \(insert) after byte \(quote)"
            default:
                var lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
                let first = lines.firstIndex { $0.hasPrefix("  \"messages\"") }! + 1
                let i = first + Int(random.next() % UInt64(max(1, lines.count - first - 3)))
                if random.next() % 2 == 0 {
                    lines.swapAt(i, i + 1); edit = "swap lines \(i), \(i + 1)"
                } else {
                    lines.insert(lines[i], at: i); edit = "double line \(i)"
                }
                bytes = Array(lines.joined(separator: "\n").utf8)
            }
            let target = round % 4 == 3 ? WorkStreamV2.version : WorkStreamV3.version
            if Self.expectSameAsFullPath(bytes, storeVersion: 1, to: target, "seed \(seed), round \(round) (to v\(target)): \(edit)") {
                took += 1
            } else {
                declined += 1
            }
        }
        #expect(took > 300, "the fast path took only \(took) edited documents")
        #expect(declined > 300, "the fast path declined only \(declined) edited documents")
    }

    /// The string scan takes every byte the writer leaves raw and each escape it writes, and
    /// nothing else, at every position of a word (the scan reads eight bytes at a time).
    @Test func stringScanAcceptsExactlyTheWritersOutput() {
        let probes: [UInt8] = [0x00, 0x01, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x2F, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F]
        for length in 1...20 {
            for position in 0..<length {
                for probe in probes {
                    var raw = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    raw[position] = probe
                    let text = String(decoding: raw, as: UTF8.self)
                    var written: [UInt8] = []
                    JSONWriter.writeString(text, into: &written)
                    #expect(Self.scansAsString(written), "the writer's \(written) for byte \(probe) at \(position) of \(length)")
                    // The raw bytes in quotes are the writer's only when no byte needed an escape.
                    let quoted = [0x22] + raw + [0x22]
                    #expect(Self.scansAsString(quoted) == (quoted == written), "raw byte \(probe) at \(position) of \(length)")
                }
            }
        }
        for escape in ["\\/", "\\u0041", "\\u000a", "\\u000A", "\\u0008", "\\u001F", "\\ud800", "\\x", "\\q"] {
            #expect(!Self.scansAsString(Array("\"a\(escape)b\"".utf8)), "escape \(escape)")
        }
        for sequence: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF], [0x80]] {
            #expect(!Self.scansAsString([0x22, 0x61] + sequence + [0x62, 0x22]), "bytes \(sequence)")
        }
        #expect(Self.scansAsString(Array("\"é😀€\\u001f\\n\"".utf8)))
    }

    /// `quoted` as the value of a message's only unknown key: taken by the scan or not.
    static func scansAsString(_ quoted: [UInt8]) -> Bool {
        let before = Array("[\n    {\n      \"a\": ".utf8)
        let after = Array(
            """
            ,
                  "id": "5a20a636-a88e-4733-94df-15fed7605b5f",
                  "role": "user",
                  "server_timestamp": null,
                  "session_id": "000c97a2-89a0-4e75-ad13-ca449993f416",
                  "status": "confirmed",
                  "text": "x",
                  "timestamp": "2025-04-13T04:29:56.256Z"
                }
              ]
            """.utf8)
        let bytes = before + quoted + after
        return bytes.withUnsafeBufferPointer { CanonicalMessages.upgradedToV3($0, from: 0) } != nil
    }
}
