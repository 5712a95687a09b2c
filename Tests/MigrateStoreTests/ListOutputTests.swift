import Foundation
import JSONStore
import Schema
import StoreGenerator
import StoreJSON
import TestSupport
import Testing

@testable import MigrateStoreCLI

/// The pieces that make `ls` fast at 50,000 work streams give exactly what the slower ones gave:
/// ids ordered by their bytes as by their lowercase text, rows' JSON written in a fixed key
/// order as the sorted dictionary was, and each mode's output as before (goldens).
@Suite struct ListOutputTests {
    // MARK: Id order

    /// Ids whose bytes sit at the edges where hex digits change class (`9`/`a`) or wrap
    /// (`0f`/`10`), at every byte position, and random ones.
    static func orderingIDs() -> [UUID] {
        var random = SeededGenerator(seed: 1919)
        var ids: [UUID] = []
        for position in 0..<16 {
            for byte: UInt8 in [0x00, 0x09, 0x0a, 0x0f, 0x10, 0x90, 0x99, 0x9a, 0x9f, 0xa0, 0xa9, 0xf0, 0xff] {
                var bytes = [UInt8](repeating: 0x5a, count: 16)
                bytes[position] = byte
                ids.append(uuid(bytes))
            }
        }
        for _ in 0..<400 { ids.append(uuid((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })) }
        return ids
    }

    static func uuid(_ b: [UInt8]) -> UUID {
        UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    @Test func idsOrderByTheirBytesExactlyAsByTheirLowercaseText() {
        let ids = Self.orderingIDs()
        var disagreements: [String] = []
        for a in ids {
            for b in ids where (a.textOrderKey < b.textOrderKey) != (a.lowercased < b.lowercased) {
                disagreements.append("\(a.lowercased) vs \(b.lowercased)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(ids.sorted { $0.textOrderKey < $1.textOrderKey } == ids.sorted { $0.lowercased < $1.lowercased })
    }

    // MARK: Row JSON

    /// The row object as it was built before: a dictionary, its keys sorted when written.
    static func dictionaryJSON(_ row: WorkStreamRow) -> JSONOutputValue {
        [
            "id": .string(row.id.lowercased),
            "display_name": .string(row.displayName),
            "display_name_source": .string(row.displayNameSource.rawValue),
            "backend_name": .string(row.summary.backendName),
            "provider": .string(row.summary.effectiveProvider),
            "provider_session_id": .string(row.summary.effectiveProviderSessionID),
            "message_count": .int(Int(row.summary.messageCount)),
            "stored_messages": .int(row.summary.storedMessages),
            "unread_count": .int(Int(row.summary.unreadCount)),
            "last_modified": .string(RFC3339.format(row.summary.lastModified)),
            "working_directory": .string(row.summary.workingDirectory),
            "fifo_position": row.fifoPosition.map { .int($0) } ?? .null,
            "priority": row.priorityEntry.map { .int(Int($0.priority)) } ?? .null,
            "priority_order": row.priorityEntry.map { .double($0.priorityOrder) } ?? .null,
            "priority_position": row.priorityPosition.map { .int($0) } ?? .null,
            "is_user_deleted": .bool(row.isUserDeleted),
            "is_locally_created": .bool(row.summary.isLocallyCreated),
            "is_hidden": .bool(row.isHidden),
            "hidden_reasons": .array(row.hiddenReasons.map(JSONOutputValue.string)),
            "schema_version": .int(row.summary.schemaVersion),
            "file_size": .int(row.summary.fileSize),
            "has_draft": .bool(row.hasDraft),
        ]
    }

    static let texts = ["", "Fix login crash", "a\"b\\c", "line\nbreak\t\u{1}", "é 🦊 \u{202E}", "/Users/x/Projects/app", "  ", "9"]

    /// Rows with every field drawn at random, from a sample work stream's summary.
    static func randomRows(_ count: Int) throws -> [WorkStreamRow] {
        var random = SeededGenerator(seed: 20_251_124)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: Samples.v2Store + "/sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json")))
        let summary = try WorkStreamSummary(bytes: bytes, acceptingNewerVersions: false)
        let template = WorkStreamRow(summary, customisation: nil, queue: QueueLookup(QueueV2()))
        func text() -> String { texts.randomElement(using: &random)! }
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }
        return (0..<count).map { _ in
            var row = template
            row.summary.id = uuid((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
            row.summary.backendName = text()
            row.summary.workingDirectory = text()
            row.summary.effectiveProvider = text()
            row.summary.effectiveProviderSessionID = text()
            row.summary.lastModified = Date(
                timeIntervalSinceReferenceDate: Double(Int.random(in: -2_000_000_000_000...2_000_000_000_000, using: &random)) / 1000)
            row.summary.isLocallyCreated = Bool.random(using: &random)
            row.summary.messageCount = Int32.random(in: 0...Int32.max, using: &random)
            row.summary.storedMessages = Int.random(in: 0...1_000_000, using: &random)
            row.summary.unreadCount = Int32.random(in: 0...500, using: &random)
            row.summary.schemaVersion = Int.random(in: 1...4, using: &random)
            row.summary.fileSize = Int.random(in: 0...Int(Int32.max), using: &random)
            row.displayName = text()
            row.displayNameSource = [.customName, .backendName, .placeholder].randomElement(using: &random)!
            row.isUserDeleted = Bool.random(using: &random)
            row.hasDraft = Bool.random(using: &random)
            row.fifoPosition = maybe(Int.random(in: 1...50_000, using: &random))
            let order = [0.5, 1, -3.25, 1e-7, 123456789.125, Double.random(in: -1e6...1e6, using: &random)].randomElement(using: &random)!
            row.priorityEntry = maybe(
                PriorityEntry(
                    workStreamID: row.summary.id, priority: Int32.random(in: -5...5, using: &random),
                    priorityOrder: order, priorityQueuedAt: nil))
            row.priorityPosition = maybe(Int.random(in: 1...50_000, using: &random))
            return row
        }
    }

    @Test func rowJSONIsWrittenExactlyAsTheSortedDictionaryWas() throws {
        let rows = try Self.randomRows(2_000)
        for row in rows {
            #expect(row.json.rendered() == Self.dictionaryJSON(row).rendered())
        }
        // Nested as `ls` nests them (indented inside the object's array), and as one whole list.
        let object = { (rows: [JSONOutputValue]) in JSONOutputValue.object(["work_streams": .array(rows), "total": .int(rows.count)]) }
        #expect(object(rows.map(\.json)).rendered() == object(rows.map(Self.dictionaryJSON)).rendered())
    }

    @Test func sortedObjectIsWrittenAsTheObjectOfTheSameMembers() {
        var random = SeededGenerator(seed: 7)
        let keys = ["a", "B", "b", "a_b", "ab", "é", "z", "\"q\"", "", "a\nb", "🦊", "Z9"]
        for _ in 0..<500 {
            var members: [String: JSONOutputValue] = [:]
            for key in keys where Bool.random(using: &random) {
                members[key] = [
                    .null, .bool(true), .int(-4), .double(2.5), .string(Self.texts.randomElement(using: &random)!),
                    .array([]), .object([:]), .array([.int(1), .object(["x": .null])]),
                ].randomElement(using: &random)!
            }
            let sorted = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { JSONOutputMember($0, members[$0]!) }
            #expect(JSONOutputValue.array([.sortedObject(sorted)]).rendered() == JSONOutputValue.array([.object(members)]).rendered())
        }
    }

    @Test func largeJSONIsWrittenInPiecesThatJoinToTheWholeObject() throws {
        // Over 3 MB (3.9), with 2-, 3- and 4-byte characters and escapes all through it.
        let rows = (0..<60_000).map { index in JSONOutputValue.object(["n": .int(index), "text": .string("é漢🦊\"\n\(index)")]) }
        let fields: [String: JSONOutputValue] = ["rows": .array(rows), "note": "x"]
        let collected = Pieces()
        let output = Output(
            streams: OutputStreams(standardOutput: collected.append, standardError: { _ in }, standardErrorIsTerminal: false),
            isJSON: true, command: "test")
        output.emitJSON(fields)
        let pieces = collected.all
        var expected = fields
        expected["format_version"] = .int(Output.jsonFormatVersion)
        expected["command"] = "test"
        let whole = JSONOutputValue.object(expected).rendered() + "\n"
        #expect(whole.utf8.count > 3 * JSONOutputBytes.flushThreshold)
        #expect(pieces.count > 3)
        #expect(pieces.dropLast().allSatisfy { $0.utf8.count >= JSONOutputBytes.flushThreshold })
        #expect(pieces.joined() == whole)
        #expect(Array(pieces.joined().utf8) == Array(whole.utf8))
    }

    // MARK: Output of each mode

    /// The v2 sample with the hostile names of ``InspectHostileNameTests``, a truncated work
    /// stream, a copy under another id, an unreadable customisation and a stray file.
    static func damagedFixture() throws -> InspectFixture {
        let f = try InspectHostileNameTests.fixture(label: "ls-modes")
        try f.write("sessions/0badf00d-0000-4000-8000-000000000001.json", "{\n  \"schema_version\": 2,\n  \"id\": ")
        try FileManager.default.copyItem(
            atPath: f.path("sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json"),
            toPath: f.path("sessions/00000000-f10a-49a3-9ec4-a9355366da75.json"))
        try f.write("user-sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json", "[1, 2")
        try f.write("sessions/README.txt", "notes\n")
        return f
    }

    /// Every `--sort`, with and without `--deleted` and `--queued`.
    static let variants: [[String]] = ["last-modified", "name", "queue"].flatMap { sort in
        [[], ["--deleted"], ["--queued"], ["--deleted", "--queued"]].map { ["--sort", sort] + $0 }
    }

    /// Standard output, standard error and exit status of `ls` on `fixture` for every variant.
    static func transcript(_ fixture: InspectFixture, json: Bool) throws -> String {
        try variants.map { arguments in
            let run = try fixture.run("ls", arguments + (json ? ["--json"] : []))
            return "$ ls <store> \((arguments + (json ? ["--json"] : [])).joined(separator: " "))\nexit \(run.code)\n"
                + "--- stdout\n\(run.stdout)--- stderr\n\(run.stderr)"
        }.joined(separator: "\n")
    }

    /// The goldens were written by the `ls` from before the JSON-mode and human-mode outputs were
    /// built apart (commit 425a544): each mode prints exactly what it printed then.
    @Test(arguments: [false, true])
    func eachModePrintsWhatItPrintedBefore(json: Bool) throws {
        let fixture = try Self.damagedFixture()
        try Golden.check(try Self.transcript(fixture, json: json), "ls-modes-damaged-store-\(json ? "json" : "human").txt")
    }
}

/// Each text written, in order.
private final class Pieces: @unchecked Sendable {
    private let lock = NSLock()
    private var pieces: [String] = []

    var all: [String] { lock.lock(); defer { lock.unlock() }; return pieces }

    @Sendable func append(_ text: String) { lock.lock(); pieces.append(text); lock.unlock() }
}
