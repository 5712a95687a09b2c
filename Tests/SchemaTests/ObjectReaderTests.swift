import Foundation
import Testing

@testable import Schema
@testable import StoreJSON

/// `ObjectReader` with a key table sorts the members into slots once; these tests check that it
/// answers exactly as dictionary lookups do: values, unknown keys, and key paths in errors.
@Suite struct ObjectReaderTests {
    static let table = ObjectKeys(["id", "text", "server_timestamp", "caf\u{E9}", "K"])

    func object(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func aTableSlotMatchesAKeyExactlyWhenStringEqualityDoes() {
        let keys = [
            "id", "text", "server_timestamp", "caf\u{E9}", "cafe\u{301}", "K", "\u{212A}", "Id", "ids",
            "", "server_timestamps", "texT", "t", "caf", "\u{1F600}", String(repeating: "x", count: 70_000),
        ]
        for key in keys {
            #expect(Self.table.slot(of: key) == Self.table.names.firstIndex(of: key), "key '\(key.prefix(20))'")
        }
        // Canonically equivalent spellings fill the slot, as they would be found by a lookup.
        #expect(Self.table.slot(of: "cafe\u{301}") == 3)
        #expect(Self.table.slot(of: "\u{212A}") == 4)
        #expect(Self.table.slot(of: "server_timestamp") == 2)
        #expect(Self.table.slot(of: "server_timestamps") == nil)
        // An all-ASCII table still compares a non-ASCII key as a String.
        let ascii = ObjectKeys(["id", "K"])
        #expect(ascii.slot(of: "\u{212A}") == 1)
        #expect(ascii.slot(of: "k") == nil)
    }

    @Test func valuesAndUnknownKeysAreThoseOfPlainLookups() throws {
        let value = try object(#"{"id": 1, "text": "a", "extra": [true], "server_timestamp": null, "other": {}}"#)
        for keys in [Self.table, ObjectKeys.none] {
            var reader = try ObjectReader(value, path: "", keys: keys)
            #expect(reader.take("text") == .string("a"))
            #expect(reader.take("id") == .number(JSONNumber(1)))
            #expect(reader.take("server_timestamp") == .null)
            #expect(reader.take("missing") == nil)
            #expect(reader.take("other") == .object([:]))  // not in the table: looked up
            #expect(reader.unknownKeys() == ["extra": .array([.bool(true)])])
        }
    }

    @Test func aKeyAskedForTwiceGivesItsValueTwice() throws {
        var reader = try ObjectReader(try object(#"{"id": 1, "text": "t", "x": 2}"#), path: "", keys: Self.table)
        #expect(reader.take("text") == .string("t"))
        #expect(reader.take("text") == .string("t"))
        #expect(reader.take("id") == .number(JSONNumber(1)))
    }

    @Test func aTableNameNeverAskedForIsAnUnknownKey() throws {
        var reader = try ObjectReader(try object(#"{"id": 1, "text": "kept"}"#), path: "", keys: Self.table)
        _ = reader.take("id")
        #expect(reader.unknownKeys() == ["text": .string("kept")])
    }

    @Test func aCanonicallyEquivalentKeyIsTakenNotKeptAsUnknown() throws {
        var reader = try ObjectReader(try object("{\"cafe\u{301}\": 1, \"\u{212A}\": 2}"), path: "", keys: Self.table)
        #expect(reader.take("caf\u{E9}") == .number(JSONNumber(1)))
        #expect(reader.take("K") == .number(JSONNumber(2)))
        #expect(reader.unknownKeys().isEmpty)
    }

    @Test func anObjectOfManyMembersKeepsEveryUnknownKey() throws {
        let members = (0..<100).map { "\"x\($0)\": \($0)" } + [#""id": "kept apart""#]
        var reader = try ObjectReader(try object("{" + members.joined(separator: ", ") + "}"), path: "", keys: Self.table)
        #expect(reader.take("id") == .string("kept apart"))
        let unknown = reader.unknownKeys()
        #expect(unknown.count == 100)
        #expect((0..<100).allSatisfy { unknown["x\($0)"] == .number(JSONNumber($0)) })
    }

    @Test func anElementPathIsFormattedIntoErrors() throws {
        var reader = try ObjectReader(try object(#"{"id": "x"}"#), path: "messages", index: 3, keys: MessageV1.readerKeys)
        #expect(reader.path == "messages[3]")
        #expect(throws: SchemaError(code: .invalidValue, keyPath: "messages[3].id", expected: "a UUID like '4f1c2a9e-…'", found: "'x'")) {
            try reader.uuid("id")
        }
        #expect(throws: SchemaError(code: .wrongType, keyPath: "fifo[0]", expected: "an object", found: "an integer")) {
            _ = try ObjectReader(.number(JSONNumber(1)), path: "fifo", index: 0)
        }
    }

    @Test func messagesInAStoreDocumentKeepTheirUnknownKeys() throws {
        let extra = #""confidence": 0.5, "audio_duration_ms": 10, "status": "error""#
        let session = try Fixtures.sessionV1(#""messages": [\#(Fixtures.message()), \#(Fixtures.message(extra: extra))]"#)
        #expect(session.fields.messages[0].unknown.isEmpty)
        #expect(
            session.fields.messages[1].unknown == [
                "confidence": .number(JSONNumber(literal: "0.5")!),
                "audio_duration_ms": .number(JSONNumber(10)),
            ])
        #expect(session.fields.messages[1].status == "error")
    }
}
