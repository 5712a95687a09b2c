import Foundation
import Testing

@testable import Schema

@Suite struct SessionDecodingTests {
    @Test func absentOptionalKeysTakeTheDefaultsOfTheTable() throws {
        let s = try Fixtures.sessionV1()
        #expect(s.schemaVersion == 1)
        #expect(s.id == Fixtures.id)
        #expect(s.backendName == "Fix login")
        #expect(s.workingDirectory == "/Users/ana/app")
        #expect(s.lastModified == Fixtures.t0)
        #expect(s.isLocallyCreated == false)
        #expect(s.messageCount == 0)
        #expect(s.preview == "")
        #expect(s.unreadCount == 0)
        #expect(s.isInQueue == false)
        #expect(s.queuePosition == 0)
        #expect(s.queuedAt == nil)
        #expect(s.isInPriorityQueue == false)
        #expect(s.priority == 10)
        #expect(s.priorityOrder == 0)
        #expect(s.priorityQueuedAt == nil)
        #expect(s.messages == [])
        #expect(s.unknown == [:])
    }

    @Test func messageDefaultsApply() throws {
        let s = try Fixtures.sessionV1("\"messages\": [\(Fixtures.message())]")
        let m = try #require(s.messages.first)
        #expect(m.status == "confirmed")
        #expect(m.serverTimestamp == nil)
        #expect(m.role == "user")
    }

    /// Every key of the session table with a value of the wrong type: the error names the key path,
    /// the expected type and what was found.
    @Test(arguments: [
        ("\"is_locally_created\": 1", "is_locally_created: expected a boolean, found an integer (1)"),
        ("\"message_count\": \"3\"", "message_count: expected an integer, found a string ('3')"),
        ("\"message_count\": 3.0", "message_count: expected an integer, found a number (3.0)"),
        ("\"message_count\": -1", "message_count: expected an integer from 0 to 2147483647, found -1"),
        ("\"unread_count\": 2147483648", "unread_count: expected an integer from 0 to 2147483647, found 2147483648"),
        ("\"preview\": null", "preview: expected a string, found null"),
        ("\"is_in_queue\": \"yes\"", "is_in_queue: expected a boolean, found a string ('yes')"),
        ("\"queue_position\": 1.5", "queue_position: expected an integer, found a number (1.5)"),
        ("\"queued_at\": 5", "queued_at: expected an RFC 3339 date string, found an integer (5)"),
        ("\"queued_at\": \"yesterday\"", "queued_at: expected an RFC 3339 date like '2025-10-17T14:30:00.000Z', found 'yesterday'"),
        ("\"is_in_priority_queue\": null", "is_in_priority_queue: expected a boolean, found null"),
        ("\"priority\": \"high\"", "priority: expected an integer, found a string ('high')"),
        ("\"priority_order\": \"1\"", "priority_order: expected a number, found a string ('1')"),
        ("\"priority_order\": 1e999", "priority_order: expected a finite number, found 1e999"),
        ("\"priority_queued_at\": true", "priority_queued_at: expected an RFC 3339 date string, found a boolean (true)"),
        ("\"messages\": {}", "messages: expected an array, found an object"),
        ("\"messages\": [3]", "messages[0]: expected an object, found an integer"),
    ])
    func wrongTypeNamesKeyPathExpectedAndFound(member: String, reason: String) throws {
        let error = Fixtures.error { () throws(SchemaError) in _ = try WorkStreamV1(bytes: Fixtures.bytes(Fixtures.minimalSession(member))) }
        #expect(error?.reason == reason)
    }

    @Test(arguments: ["id", "backend_name", "working_directory", "last_modified", "schema_version"])
    func missingRequiredKeyIsReported(key: String) throws {
        var object = try #require({ if case .object(let o) = try DocumentVersion.parse(Fixtures.bytes(Fixtures.minimalSession())) { o } else { nil } }())
        object.removeValue(forKey: key)
        let error = Fixtures.error { () throws(SchemaError) in _ = try WorkStreamV1(json: .object(object)) }
        #expect(error?.code == .missingKey)
        #expect(error?.reason == "\(key): required key is missing")
    }

    @Test func errorInsideAMessageNamesItsIndex() {
        let doc = Fixtures.minimalSession("\"messages\": [\(Fixtures.message()), \(Fixtures.message(extra: "\"status\": 7"))]")
        let error = Fixtures.error { () throws(SchemaError) in _ = try WorkStreamV1(bytes: Fixtures.bytes(doc)) }
        #expect(error?.reason == "messages[1].status: expected a string, found an integer (7)")
        #expect(error?.inFile("sessions/x.json").description == "'sessions/x.json': messages[1].status: expected a string, found an integer (7).")
    }

    @Test func syntaxErrorCarriesLineColumnAndByteOffset() {
        let error = Fixtures.error { () throws(SchemaError) in _ = try WorkStreamV1(bytes: Fixtures.bytes("{\n  \"a\": 1,\n  \"b\" 2\n}")) }
        #expect(error?.code == .syntax)
        #expect(error?.syntax?.line == 3)
        #expect(error?.syntax?.column == 7)
        #expect(error?.syntax?.offset == 18)
    }

    @Test func documentThatIsNotAnObjectIsRejected() {
        let error = Fixtures.error { () throws(SchemaError) in _ = try WorkStreamV1(bytes: Fixtures.bytes("[1, 2]")) }
        #expect(error?.code == .notAnObject)
        #expect(error?.reason == "expected an object, found an array")
    }

    @Test func newerDocumentIsRefusedNamingBothVersions() {
        let error = Fixtures.error { () throws(SchemaError) in _ = try WorkStreamDocument(bytes: Fixtures.bytes(Fixtures.minimalSession(version: 5))) }
        #expect(error?.code == .unsupportedVersion)
        #expect(
            error?.reason
                == "schema_version: this work stream document has schema_version 5, but this code reads up to version 4 in sessions/; use a newer version of the tool"
        )
    }

    @Test func newerDocumentIsReadWhenTheStoreAllowsIt() throws {
        let doc = Fixtures.minimalSession("\"provider_session_id\": \"p\", \"provider\": \"claude\", \"v4_key\": 1", version: 4)
        guard case .v3(let s) = try WorkStreamDocument(bytes: Fixtures.bytes(doc), acceptingNewerVersions: true) else {
            Issue.record("expected v3"); return
        }
        #expect(s.schemaVersion == 4)
        #expect(s.cursors == .defaults)
        #expect(s.unknown == ["v4_key": .number(JSONNumber(1))])
    }

    @Test func schemaVersionIsReadFirstAndPicksTheType() throws {
        let v1 = try WorkStreamDocument(bytes: Fixtures.bytes(Fixtures.minimalSession()))
        let v2 = try WorkStreamDocument(bytes: Fixtures.bytes(Fixtures.minimalSession("\"provider_session_id\": \"p\", \"provider\": \"cursor\"", version: 2)))
        guard case .v1 = v1, case .v2(let s) = v2 else { Issue.record("wrong dispatch"); return }
        #expect(s.provider == "cursor")
    }

    @Test func v2DocumentWithoutProviderKeysIsAnError() {
        let error = Fixtures.error { () throws(SchemaError) in _ = try WorkStreamV2(bytes: Fixtures.bytes(Fixtures.minimalSession(version: 2))) }
        #expect(error?.reason == "provider_session_id: required key is missing")
    }

    @Test func datesWithoutFractionAndWithOffsetAreAccepted() throws {
        let s = try Fixtures.sessionV1("\"queued_at\": \"2025-10-17T16:30:00+02:00\", \"priority_queued_at\": \"2025-10-17T14:30:00Z\"")
        #expect(s.queuedAt == Fixtures.t0)
        #expect(s.priorityQueuedAt == Fixtures.t0)
    }

    @Test func uppercaseUUIDsAreReadAndWrittenLowercase() throws {
        let doc = Fixtures.minimalSession().replacingOccurrences(of: Fixtures.id.lowercased, with: Fixtures.id.uuidString)
        let s = try WorkStreamV1(bytes: Fixtures.bytes(doc))
        #expect(Fixtures.string(s.encoded).contains("\"id\": \"\(Fixtures.id.lowercased)\""))
    }
}
