import Foundation
import StoreGenerator
import Testing

@testable import Schema
@testable import StoreJSON

/// Random work-stream models (fixed seed, so a failure repeats) encoded both ways.
@Suite struct CanonicalEncodingRandomTests {
    @Test func randomSessionsEncodeAsTheReferenceWriterDoes() {
        var random = RandomModels(seed: 20_251_121)
        for round in 0..<400 {
            let fields = random.fields()
            let unknown = random.unknownMembers()
            let document: WorkStreamDocument =
                random.flip()
                ? .v1(WorkStreamV1(fields: fields, unknown: unknown, schemaVersion: random.version()))
                : .v2(
                    WorkStreamV2(
                        fields: fields, providerSessionID: random.text(), provider: random.text(),
                        unknown: unknown, schemaVersion: random.version()))
            expectEncodedMatchesJSONWriter(document, "round \(round)")
        }
    }

    /// The word-at-a-time scans of `JSONWriter.writeString` and `CanonicalWriter.string` against a
    /// byte-by-byte reference (the canonical writer starts with a small buffer, so it also regrows), with
    /// each byte that needs an escape (and its neighbours 0x1F/0x20, 0x21/0x23, 0x5B/0x5D and
    /// non-ASCII bytes) at every position of strings of 0 to 40 bytes.
    @Test func stringEscapesMatchAByteByByteReferenceAtEveryPosition() {
        let probes: [UInt8] = [0x00, 0x08, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F]
        for length in 0...40 {
            for position in 0..<max(length, 1) {
                for probe in probes where length > 0 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = probe
                    if length > 3 { bytes[(position + 3) % length] = 0xC3; bytes[(position + 4) % length] = 0xA9 }
                    let text = String(decoding: bytes, as: UTF8.self)
                    let expected = Self.referenceEscape(text)
                    var written: [UInt8] = []
                    JSONWriter.writeString(text, into: &written)
                    #expect(written == expected, "JSONWriter: length \(length), byte \(probe) at \(position)")
                    var direct = CanonicalWriter(capacity: 0)
                    direct.string(text)
                    #expect(direct.document() == expected + [0x0A], "CanonicalWriter: length \(length), byte \(probe) at \(position)")
                }
            }
        }
    }

    /// A document is written into the returned array when the estimate holds, and moved to the
    /// writer's own memory (then copied) when it outgrows it: the same bytes either way.
    @Test func documentIsTheSameWhetherItFitsItsEstimateOrOutgrowsIt() {
        let text = String(repeating: "ab\u{1}\"cd\n", count: 50)
        let expected = Self.referenceEscape(text) + [0x0A]
        for capacity in [0, 8, 63, 64, 65, expected.count - 1, expected.count, expected.count + 1, 10 * expected.count] {
            let bytes = CanonicalWriter.document(capacity: capacity) { w in w.string(text) }
            #expect(bytes == expected, "capacity \(capacity)")
        }
    }

    /// JSON string escaping the obvious way, one byte at a time.
    static func referenceEscape(_ text: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for byte in text.utf8 {
            switch byte {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5C: out += Array(#"\\"#.utf8)
            case 0x08: out += Array(#"\b"#.utf8)
            case 0x0C: out += Array(#"\f"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0..<0x20: out += Array(("\\u00" + String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)).utf8)
            default: out.append(byte)
            }
        }
        return out + [0x22]
    }
}

/// Builders of random models whose strings, keys and values hit the writer's edge cases.
struct RandomModels {
    var rng: SeededGenerator
    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    /// Pieces of text: every escape class, multi-byte scalars, and plain runs long enough to
    /// cross the writer's 8-byte words.
    static let pieces = [
        "a", "Fix login", "\"", "\\", "/", "\n", "\r\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "e\u{301}",
        "\u{2028}", "😀", "日本語", " ", "{}", "0123456789abcdef",
    ]
    /// Unknown keys around the known ones (both layouts), known keys themselves, and odd ones.
    static let keys = [
        "", "a", "id0", "role_", "zzz", "id", "schema_version", "messages", "message", "messages_",
        "provider", "provider_", "provider_session_id", "priority_", "queue", "text", "é", "\u{1}", "Z", "~",
    ]

    mutating func flip() -> Bool { Bool.random(using: &rng) }
    mutating func below(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }

    mutating func text() -> String {
        (0..<below(6)).map { _ in Self.pieces[below(Self.pieces.count)] }.joined()
    }

    mutating func version() -> Int { [1, 2, 3, 99, Int(Int32.max), Int.random(in: Int.min...Int.max, using: &rng)][below(6)] }

    mutating func int32() -> Int32 { [0, 1, -1, .max, .min, Int32.random(in: .min ... .max, using: &rng)][below(6)] }

    mutating func date() -> Date {
        RFC3339.date(milliseconds: Int64.random(in: RFC3339.representable, using: &rng))
    }

    mutating func optionalDate() -> Date? { flip() ? date() : nil }

    mutating func uuid() -> UUID {
        let a = rng.next(), b = rng.next()
        return withUnsafeBytes(of: (a, b)) { raw in UUID(uuid: raw.load(as: uuid_t.self)) }
    }

    mutating func double() -> Double {
        [0, -0.0, 1, 1.5, 0.1, 1e16, Double.leastNonzeroMagnitude, -1e300, Double.random(in: -1e6...1e6, using: &rng)][below(9)]
    }

    /// A JSON value nested at most `depth` levels.
    mutating func value(depth: Int) -> JSONValue {
        switch below(depth > 0 ? 7 : 4) {
        case 0: return .null
        case 1: return .bool(flip())
        case 2: return .number(JSONNumber(literal: ["0", "-1", "1.0", "2.5e-3", "12345678901234567890"][below(5)])!)
        case 3: return .string(text())
        case 4, 5: return .array((0..<below(3)).map { _ in value(depth: depth - 1) })
        default: return .object(unknownMembers(depth: depth - 1))
        }
    }

    /// Usually no members (like real documents); otherwise a few keys from ``keys``.
    mutating func unknownMembers(depth: Int = 2) -> JSONObject {
        guard below(3) == 0 else { return [:] }
        var members: JSONObject = [:]
        for _ in 0..<below(5) { members[Self.keys[below(Self.keys.count)]] = value(depth: depth) }
        return members
    }

    mutating func message() -> MessageV1 {
        MessageV1(
            id: uuid(), sessionID: uuid(), role: flip() ? "user" : text(), text: text(), timestamp: date(),
            serverTimestamp: optionalDate(), status: flip() ? "confirmed" : text(), unknown: unknownMembers())
    }

    mutating func fields() -> WorkStreamFieldsV1 {
        WorkStreamFieldsV1(
            WorkStreamKeys(
                id: uuid(), backendName: text(), workingDirectory: text(), lastModified: date(),
                isLocallyCreated: flip(), messageCount: int32(), preview: text(), unreadCount: int32(),
                isInQueue: flip(), queuePosition: int32(), queuedAt: optionalDate(), isInPriorityQueue: flip(),
                priority: int32(), priorityOrder: double(), priorityQueuedAt: optionalDate()), messages: (0..<below(4)).map { _ in message() })
    }
}
