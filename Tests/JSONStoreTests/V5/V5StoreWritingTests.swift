import Foundation
import Testing

@testable import JSONStore

/// The v5 write API (`createRenamedWorkStream`, `updateRenamedWorkStream`, `appendMessagesToRenamedWorkStream`) and every
/// other write on a v5 store: v5 documents in `work-streams/`, the queue in `queue.json` only.
@Suite struct V5StoreWritingTests {
    static let id = UUID(uuidString: "0e0e0e0e-1111-4222-8333-444455556666")!

    @Test func createWritesAV5DocumentInWorkStreams() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let store = try Store.open(at: path)
        let created = try store.createRenamedWorkStream(id: Self.id, workingDirectory: "/w", at: StoreFixtures.t0)
        #expect(created.schemaVersion == 5)
        let text = String(decoding: tree(path)["work-streams/0e0e0e0e-1111-4222-8333-444455556666.json"] ?? [], as: UTF8.self)
        #expect(
            text == """
                {
                  "id": "0e0e0e0e-1111-4222-8333-444455556666",
                  "is_locally_created": true,
                  "last_file_signature": null,
                  "last_modified": "2025-11-20T10:00:00.000Z",
                  "last_offset_merged": 0,
                  "live_from_offset": 0,
                  "live_from_seq": 0,
                  "message_count": 0,
                  "messages": [],
                  "name": "",
                  "next_seq": 0,
                  "preview": "",
                  "provider": "claude",
                  "provider_session_id": "0e0e0e0e-1111-4222-8333-444455556666",
                  "schema_version": 5,
                  "unread_count": 0,
                  "working_directory": "/w"
                }

                """)
        #expect(!FileManager.default.fileExists(atPath: path + "/sessions"))
        let again = #expect(throws: StoreError.self) { try store.createRenamedWorkStream(id: Self.id, workingDirectory: "/w") }
        #expect(again?.code == .alreadyExists)
    }

    @Test func appendAndUpdateRewriteOnlyThatDocument() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let store = try Store.open(at: path)
        let before = tree(path)
        let message = Message(
            id: UUID(uuidString: "aaaaaaaa-1111-4222-8333-444455556666")!, sessionID: Self.id, role: "user",
            text: "Ship it", timestamp: StoreFixtures.t0)
        let appended = try store.appendMessagesToRenamedWorkStream(V5Store.released, [message])
        #expect(appended.messages.count == 3)
        #expect(appended.lastModified == StoreFixtures.t0)
        #expect(appended.messages.last?.sessionID == V5Store.released)
        let renamed = try store.updateRenamedWorkStream(V5Store.released) { $0.name = "Release notes" }
        let after = tree(path)
        let relative = "work-streams/c25e47cd-f10a-49a3-9ec4-a9355366da75.json"
        #expect(Set(after.keys) == Set(before.keys))
        #expect(after.filter { $0.key != relative } == before.filter { $0.key != relative })
        #expect(after[relative] == renamed.encoded)
        let text = String(decoding: after[relative]!, as: UTF8.self)
        #expect(text.contains("\n  \"name\": \"Release notes\",\n"))
        #expect(text.contains("\"text\": \"Ship it\""))
        #expect(!text.contains("backend_name") && !text.contains("is_in_queue") && !text.contains("queue_position"))
        #expect(try store.workStream(V5Store.released) == .v5(renamed))
    }

    @Test func updateThatChangesTheIDWritesNothing() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let store = try Store.open(at: path)
        let before = tree(path)
        let error = #expect(throws: StoreError.self) { try store.updateRenamedWorkStream(V5Store.released) { $0.id = Self.id } }
        #expect(error?.code == .invalidArgument)
        #expect(tree(path) == before)
    }

    @Test func v4CallsOnAV5StoreFailNamingTheV5Call() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let store = try Store.open(at: path)
        let before = tree(path, dotNames: true)
        let update = #expect(throws: StoreError.self) { try store.updateWorkStream(V5Store.released) { $0.fields.preview = "x" } }
        #expect(update?.code == .unsupportedVersion)
        #expect(
            update?.message
                == "Can't update work stream 'c25e47cd-f10a-49a3-9ec4-a9355366da75' in '\(path)' as a v4 work stream: it is a schema v5 store, whose work streams are v5 documents in work-streams/. Use updateRenamedWorkStream(_:_:) instead."
        )
        let create = #expect(throws: StoreError.self) { try store.createWorkStream(id: Self.id, workingDirectory: "/w") }
        #expect(create?.message.hasSuffix("Use createRenamedWorkStream(id:workingDirectory:provider:at:) instead.") == true)
        let append = #expect(throws: StoreError.self) { try store.appendMessages(V5Store.released, []) }
        #expect(append?.message.hasSuffix("Use appendMessagesToRenamedWorkStream(_:_:) instead.") == true)
        #expect(tree(path, dotNames: true) == before)
    }

    @Test func v5CallsOnAV4StoreFailNamingTheV4Call() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v4-store")
        let store = try Store.open(at: path)
        let error = #expect(throws: StoreError.self) { try store.updateRenamedWorkStream(V5Store.released) { $0.name = "x" } }
        #expect(error?.code == .unsupportedVersion)
        #expect(
            error?.message
                == "Can't update work stream 'c25e47cd-f10a-49a3-9ec4-a9355366da75' in '\(path)' as a v5 work stream: it is a schema v4 store, whose work streams are in sessions/. Use updateWorkStream(_:_:), or move the store to v5 first (a migration that takes the breaking step)."
        )
    }

    @Test func queueChangesWriteQueueJSONOnly() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let store = try Store.open(at: path)
        let before = tree(path)
        try store.enqueue(V5Store.released, at: StoreFixtures.t0)
        try store.addToPriorityQueue(V5Store.released, priority: 5, at: StoreFixtures.t0)
        try store.removeFromQueue(V5Store.queued)
        let after = tree(path)
        #expect(after.filter { $0.key != "queue.json" } == before.filter { $0.key != "queue.json" })
        let queue = try QueueV2(bytes: after["queue.json"]!)
        #expect(queue.schemaVersion == 5)
        #expect(
            queue.fifo.map(\.workStreamID.lowercased) == [
                "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b", "555a622d-4eba-4eda-8989-fc9e679fc303", "c25e47cd-f10a-49a3-9ec4-a9355366da75",
            ])
        #expect(queue.priorityEntry(of: V5Store.released)?.priority == 5)
    }

    @Test func customisationsSettingsAndDeletionWriteV5Documents() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let store = try Store.open(at: path)
        try store.setCustomName(Self.id, "Fresh", at: StoreFixtures.t0)
        try store.updateSettings { $0.queueEnabled = true }
        try store.deleteWorkStream(V5Store.queued)
        let after = tree(path)
        #expect(
            String(decoding: after["user-sessions/0e0e0e0e-1111-4222-8333-444455556666.json"] ?? [], as: UTF8.self) == """
                {
                  "created_at": "2025-11-20T10:00:00.000Z",
                  "custom_name": "Fresh",
                  "draft": null,
                  "id": "0e0e0e0e-1111-4222-8333-444455556666",
                  "is_user_deleted": false,
                  "schema_version": 5
                }

                """)
        #expect(String(decoding: after["settings.json"]!, as: UTF8.self).contains("\"schema_version\": 5"))
        #expect(after["work-streams/ec3629cb-f446-449f-b8a0-f43e156345d8.json"] == nil)
        let queue = try QueueV2(bytes: after["queue.json"]!)
        #expect(queue.fifo.count == 2 && queue.priority.count == 3)
        #expect(try Store.open(at: path).compatibility == .breakingCurrent(storeVersion: 5))
    }
}
