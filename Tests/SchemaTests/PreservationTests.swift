import Foundation
import Testing

@testable import Schema

@Suite struct PreservationTests {
    /// A canonical v2 document: decode → encode gives the same bytes.
    static let canonicalV2 = """
        {
          "backend_name": "Fix login crash",
          "draft_text": "half a sentence",
          "id": "4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69",
          "is_in_priority_queue": true,
          "is_in_queue": true,
          "is_locally_created": false,
          "last_modified": "2025-10-17T14:30:00.123Z",
          "message_count": 12,
          "messages": [
            {
              "audio_duration_ms": 4200,
              "confidence": 0.93,
              "id": "11111111-2222-4333-8444-555555555555",
              "role": "user",
              "server_timestamp": null,
              "session_id": "4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69",
              "status": "sending",
              "text": "Why does login crash on iPad?\\nIt says \\"nil\\".",
              "timestamp": "2025-10-17T14:29:59.999Z"
            }
          ],
          "preview": "Why does login…",
          "priority": 1,
          "priority_order": 1.5,
          "priority_queued_at": "2025-10-17T14:00:00.000Z",
          "provider": "claude",
          "provider_session_id": "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b",
          "queue_position": 2,
          "queued_at": "2025-10-17T14:10:00.000Z",
          "schema_version": 2,
          "unread_count": 3,
          "working_directory": "/Users/ana/app"
        }

        """

    @Test func canonicalDocumentRoundTripsByteForByte() throws {
        let bytes = Fixtures.bytes(Self.canonicalV2)
        let session = try WorkStreamV2(bytes: bytes)
        #expect(Fixtures.string(session.encoded) == Self.canonicalV2)
        #expect(session.providerSessionID == "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b")
    }

    @Test func canonicalDocumentRoundTripsThroughTheV1Reader() throws {
        let view = try WorkStreamV1(bytes: Fixtures.bytes(Self.canonicalV2), acceptingNewerVersions: true)
        #expect(Fixtures.string(view.encoded) == Self.canonicalV2)
        #expect(view.unknown["provider"] == .string("claude"))
    }

    static let oddNumbers = ["1.0", "1", "-0", "12345678901234567890", "1e400", "0.1000", "1E+2", "-1.5e-7", "123456789012345678901234567890.5"]

    @Test(arguments: oddNumbers)
    func unknownNumbersSurviveUnchanged(literal: String) throws {
        let member = "\"n\": \(literal), \"nested\": {\"list\": [\(literal), {\"deep\": \(literal)}]}"
        let s = try Fixtures.sessionV1(member)
        let out = Fixtures.string(s.encoded)
        #expect(out.contains("\"n\": \(literal),\n"))
        #expect(out.contains("\"deep\": \(literal)\n"))
        let again = try WorkStreamV1(bytes: s.encoded)
        #expect(again == s)
    }

    @Test func unknownKeysSurviveInMessages() throws {
        let msg = Fixtures.message(extra: "\"audio\": {\"ms\": 1.0, \"codec\": null}, \"tags\": [\"a\", 1]")
        let s = try Fixtures.sessionV1("\"messages\": [\(msg)]")
        let m = try #require(s.messages.first)
        #expect(m.unknown["tags"] == .array([.string("a"), .number(JSONNumber(1))]))
        #expect(Fixtures.string(s.encoded).contains("\"ms\": 1.0"))
    }

    @Test func unknownKeysSurviveInEveryDocumentKind() throws {
        let user = try CustomisationV1(
            bytes: Fixtures.bytes(
                """
                {"schema_version": 1, "id": "\(Fixtures.id.lowercased)", "created_at": "2025-10-17T14:30:00Z", "color": "teal"}
                """))
        #expect(user.unknown == ["color": .string("teal")])
        #expect(try CustomisationV1(bytes: user.encoded) == user)

        let settings = try SettingsV1(bytes: Fixtures.bytes(#"{"schema_version": 1, "voice": {"rate": 1.25}}"#))
        #expect(Fixtures.string(settings.encoded).contains("\"rate\": 1.25"))
        #expect(settings.queueEnabled == false && settings.priorityQueueEnabled == false)

        let queue = try QueueV2(
            bytes: Fixtures.bytes(
                """
                {"schema_version": 2, "x": 1.0, "fifo": [{"work_stream_id": "\(Fixtures.id.lowercased)", "queued_at": null, "pin": true}], "priority": []}
                """))
        #expect(queue.unknown == ["x": .number(JSONNumber(literal: "1.0")!)])
        #expect(queue.fifo.first?.unknown == ["pin": .bool(true)])
        #expect(try QueueV2(bytes: queue.encoded) == queue)

        let manifest = try ManifestV2(
            bytes: Fixtures.bytes(
                """
                {"format": "work-stream-store", "schema_version": 2, "min_reader_version": 1, "created_at": "2025-10-17T14:30:00Z",
                 "device": "iPad", "migrations": [{"from": 1, "to": 2, "started_at": "2025-10-17T14:30:00Z",
                 "finished_at": "2025-10-17T14:30:01Z", "tool_version": "0.1.0", "counts": {"sessions_upgraded": 3}, "host": "mac"}]}
                """))
        #expect(manifest.unknown == ["device": .string("iPad")])
        #expect(manifest.migrations.first?.unknown == ["host": .string("mac")])
        #expect(try ManifestV2(bytes: manifest.encoded) == manifest)
    }

    @Test func encodingIsSortedPrettyWithFinalNewlineAndMillisecondDates() throws {
        let s = try Fixtures.sessionV1("\"queued_at\": \"2025-10-17T16:30:00+02:00\"")
        let text = Fixtures.string(s.encoded)
        #expect(text.hasPrefix("{\n  \"backend_name\": \"Fix login\",\n"))
        #expect(text.hasSuffix("\n}\n"))
        #expect(text.contains("\"queued_at\": \"2025-10-17T14:30:00.000Z\""))
        #expect(text.contains("\"priority_queued_at\": null"))
        #expect(text.contains("\"messages\": []"))
    }
}
