import Foundation
import TestSupport
import Testing

@testable import Schema
@testable import StoreJSON

/// Expects `encoded` (the direct writer) to equal `JSONWriter.document(json)` byte for byte.
func expectEncodedMatchesJSONWriter(
    _ document: WorkStreamDocument, _ label: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let direct = document.encoded, reference = JSONWriter.document(document.json)
    #expect(
        direct == reference, "\(label)\n\(Fixtures.string(direct))\n!=\n\(Fixtures.string(reference))",
        sourceLocation: sourceLocation)
}

/// The direct session encoder (`WorkStreamEncoding`, `CanonicalWriter`) against the reference path.
@Suite struct CanonicalEncodingTests {
    static let t0 = Fixtures.t0

    @Test func sampleSessionsEncodeAsTheReferenceWriterDoes() throws {
        for store in ["v1-store", "v2-store"] {
            let files = tree(Samples.path(store))
            let sessions = files.filter { $0.key.hasPrefix("sessions/") }
            #expect(sessions.count == 8)
            for (path, bytes) in sessions {
                let json = try DocumentVersion.parse(bytes)
                expectEncodedMatchesJSONWriter(try WorkStreamDocument(json: json), "\(store)/\(path)")
                // A v2 document read by v1 code keeps the provider keys as unknown keys.
                expectEncodedMatchesJSONWriter(.v1(try WorkStreamV1(json: json, acceptingNewerVersions: true)), "\(store)/\(path) as v1")
            }
        }
    }

    @Test func migratedSampleSessionsEncodeAsTheReferenceWriterDoes() throws {
        let v1 = try StoreSnapshot(files: tree(Samples.v1Store))
        let (v2, _) = try StoreMigration.migrate(v1, context: SampleStoreTests.context)
        #expect(v2.sessions.count == 8)
        for (id, document) in v2.sessions { expectEncodedMatchesJSONWriter(document, id.lowercased) }
    }

    /// Unknown keys before, between and after the known ones (and one equal to a known key, which
    /// the model's value overrides), nested unknown values, every escape class, nil optionals,
    /// an empty array and a newer `schema_version`: the exact bytes, written out by hand.
    @Test func edgeCaseDocumentIsWrittenExactly() {
        let expected = #"""
            {
              "\u0001": null,
              "a": [],
              "backend_name": "Fix \"login\"\n",
              "id": "4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69",
              "id0": 1.0,
              "is_in_priority_queue": true,
              "is_in_queue": false,
              "is_locally_created": false,
              "last_modified": "2025-10-17T14:30:00.000Z",
              "message_count": 2,
              "messages": [
                {
                  "": null,
                  "id": "11111111-2222-4333-8444-555555555555",
                  "role": "user",
                  "role_": {
                    "a": "x",
                    "b": true
                  },
                  "server_timestamp": null,
                  "session_id": "4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69",
                  "status": "sending",
                  "text": "héllo\t😀 \\ \/ \b\f\r\u001f\u007f",
                  "timestamp": "2025-10-17T14:30:00.000Z",
                  "zzz": [
                    1,
                    {}
                  ]
                }
              ],
              "preview": "",
              "priority": 5,
              "priority_order": 1.5,
              "priority_queued_at": "2025-10-17T14:30:00.250Z",
              "provider": "claude",
              "provider_": "p",
              "provider_session_id": "abc",
              "queue_position": -1,
              "queued_at": null,
              "schema_version": 3,
              "unread_count": 0,
              "working_directory": "/Users/ana/app",
              "é": false
            }

            """#
            // JSON writes U+007F and `/` raw: only the test's literal needs escapes for them.
            .replacingOccurrences(of: #"\u007f"#, with: "\u{7F}").replacingOccurrences(of: #"\/"#, with: "/")
        let session = Self.edgeCaseSession()
        #expect(Fixtures.string(session.encoded) == expected)
        #expect(session.encoded == Array(expected.utf8))
        expectEncodedMatchesJSONWriter(.v2(session))
    }

    static func edgeCaseSession() -> WorkStreamV2 {
        let message = MessageV1(
            id: UUID(uuidString: "11111111-2222-4333-8444-555555555555")!, sessionID: Fixtures.id,
            role: "user", text: "héllo\t😀 \\ / \u{8}\u{C}\r\u{1F}\u{7F}", timestamp: t0, serverTimestamp: nil,
            status: "sending",
            unknown: [
                "": .null, "zzz": .array([number("1"), .object([:])]),
                "role_": .object(["b": .bool(true), "a": .string("x")]),
            ])
        let fields = WorkStreamFieldsV1(
            WorkStreamKeys(
                id: Fixtures.id, backendName: "Fix \"login\"\n", workingDirectory: "/Users/ana/app",
                lastModified: t0, messageCount: 2, queuePosition: -1, isInPriorityQueue: true, priority: 5,
                priorityOrder: 1.5, priorityQueuedAt: t0.addingTimeInterval(0.25)), messages: [message])
        return WorkStreamV2(
            fields: fields, providerSessionID: "abc", provider: "claude",
            unknown: [
                "a": .array([]), "id0": number("1.0"), "provider_": .string("p"), "id": .string("overridden by the model"),
                "\u{1}": .null, "é": .bool(false),
            ], schemaVersion: 3)
    }

    @Test func v1DocumentKeepsProviderKeysAsUnknownKeysInTheirPlaces() {
        let v2 = Self.edgeCaseSession()
        var unknown = v2.unknown
        unknown["provider"] = .string("cursor")
        unknown["provider_session_id"] = .object(["nested": .array([.null, .string("\n")])])
        let v1 = WorkStreamV1(fields: v2.fields, unknown: unknown, schemaVersion: 1)
        expectEncodedMatchesJSONWriter(.v1(v1))
        let text = Fixtures.string(v1.encoded)
        #expect(
            text.contains(
                "\n  \"provider\": \"cursor\",\n  \"provider_\": \"p\",\n  \"provider_session_id\": {\n    \"nested\": [\n      null,\n      \"\\n\"\n    ]\n  },\n  \"queue_position\": -1,\n"
            ))
    }

    @Test func minimalDocumentWritesEveryKnownKeyWithDefaults() {
        let fields = WorkStreamFieldsV1(WorkStreamKeys(id: Fixtures.id, backendName: "", workingDirectory: "", lastModified: Date(timeIntervalSince1970: 0)))
        let expected = """
            {
              "backend_name": "",
              "id": "4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69",
              "is_in_priority_queue": false,
              "is_in_queue": false,
              "is_locally_created": false,
              "last_modified": "1970-01-01T00:00:00.000Z",
              "message_count": 0,
              "messages": [],
              "preview": "",
              "priority": 10,
              "priority_order": 0.0,
              "priority_queued_at": null,
              "queue_position": 0,
              "queued_at": null,
              "schema_version": 1,
              "unread_count": 0,
              "working_directory": ""
            }

            """
        let v1 = WorkStreamV1(fields: fields)
        #expect(Fixtures.string(v1.encoded) == expected)
        expectEncodedMatchesJSONWriter(.v1(v1))
        expectEncodedMatchesJSONWriter(.v2(WorkStreamV2(fields: fields, providerSessionID: "", provider: "")))
    }

    @Test func extremeScalarsAreSpelledAsTheReferenceWriterDoes() {
        let first = RFC3339.date(milliseconds: RFC3339.representable.lowerBound)
        let last = RFC3339.date(milliseconds: RFC3339.representable.upperBound)
        for (order, position, version) in [(-0.0, Int32.min, Int.min), (Double.leastNonzeroMagnitude, Int32.max, Int.max), (1e300, 0, 0), (-1.0 / 3, -7, 2)] {
            let fields = WorkStreamFieldsV1(
                WorkStreamKeys(
                    id: Fixtures.otherID, backendName: "x", workingDirectory: "y", lastModified: first,
                    messageCount: .max, unreadCount: .max, queuePosition: position, queuedAt: last,
                    priority: position, priorityOrder: order, priorityQueuedAt: first))
            let session = WorkStreamV2(fields: fields, providerSessionID: "p", provider: "q", schemaVersion: version)
            expectEncodedMatchesJSONWriter(.v2(session), "\(order) \(position) \(version)")
        }
        let text = Fixtures.string(
            WorkStreamV1(
                fields: WorkStreamFieldsV1(
                    WorkStreamKeys(
                        id: Fixtures.id, backendName: "", workingDirectory: "", lastModified: last,
                        queuedAt: first, priorityOrder: -0.0)), schemaVersion: Int.min
            ).encoded)
        #expect(text.contains("\"last_modified\": \"9999-12-31T23:59:59.999Z\""))
        #expect(text.contains("\"queued_at\": \"0000-01-01T00:00:00.000Z\""))
        #expect(text.contains("\"priority_order\": -0.0,"))
        #expect(text.contains("\"schema_version\": -9223372036854775808,"))
    }
}
