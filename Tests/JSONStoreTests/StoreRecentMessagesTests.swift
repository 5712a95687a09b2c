import Foundation
import Schema
import StoreGenerator
import Testing

@testable import JSONStore
@testable import StoreCore

/// A `Store` keeps the messages it wrote last with their bytes (`RecentMessages`) and compares
/// instead of parsing them on the next update. Whatever another writer did in between, every
/// update must read and write exactly what a full decode and encode would.
@Suite struct StoreRecentMessagesTests {
    static func message(_ i: Int, _ text: String) -> Message {
        Message(
            id: UUID(uuidString: String(format: "22222222-3333-4444-8555-%012d", i))!, sessionID: UUID(),
            role: i % 2 == 0 ? "user" : "assistant", text: text, timestamp: StoreFixtures.t0.addingTimeInterval(Double(i)))
    }

    /// A store with one work stream holding `count` messages, and the file of that work stream.
    static func store(_ dir: TemporaryDirectory, messages count: Int = 5) throws -> (Store, UUID, String) {
        let store = try Store.create(at: dir("s"), now: StoreFixtures.t0)
        let stream = try store.createWorkStream(workingDirectory: "/Users/ana/app", at: StoreFixtures.t0)
        try store.appendMessages(stream.id, (0..<count).map { message($0, "text \($0) caf\u{e9}") })
        return (store, stream.id, dir("s/sessions/\(stream.id.lowercased).json"))
    }

    static func file(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// What the file holds, decoded from scratch: a v4 work stream is a `WorkStreamV3` at
    /// `schema_version` 4 (§11 adds no work-stream key).
    static func decoded(_ path: String) throws -> WorkStreamV3 { try WorkStreamV3(bytes: file(path), acceptingNewerVersions: true) }

    @Test func repeatedUpdatesKeepTheMessagesAndWriteWhatAFullEncodeWrites() throws {
        let dir = TemporaryDirectory()
        let (store, id, path) = try Self.store(dir)
        for round in 0..<5 {
            let expected = try Self.decoded(path)
            let returned = try store.updateWorkStream(id) { $0.fields.unreadCount = Int32(round + 1) }
            var model = expected
            model.fields.unreadCount = Int32(round + 1)
            #expect(returned == model, "round \(round)")
            #expect(try Self.file(path) == model.encoded, "round \(round)")
        }
        #expect(store.recentMessages.messages(of: id)?.messages == (try Self.decoded(path)).fields.messages)
    }

    /// The file changed by another process between two updates of this store: its change is
    /// kept, not overwritten with the messages this store remembered.
    @Test func anotherWritersChangeToTheMessagesIsReadNotOverwritten() throws {
        let dir = TemporaryDirectory()
        let (store, id, path) = try Self.store(dir)
        try store.updateWorkStream(id) { $0.fields.unreadCount = 1 }
        #expect(store.recentMessages.messages(of: id) != nil)

        let other = try Store.open(at: dir("s"))
        try other.updateWorkStream(id) { $0.fields.messages[2].text = "edited on the other device" }
        let after = try store.updateWorkStream(id) { $0.fields.unreadCount = 2 }
        #expect(after.fields.messages[2].text == "edited on the other device")
        let onDisk = try Self.decoded(path)
        #expect(onDisk.fields.messages[2].text == "edited on the other device" && onDisk.fields.unreadCount == 2)
        #expect(try Self.file(path) == onDisk.encoded)
    }

    /// Another writer's own formatting (compact, keys in another order, dates without
    /// milliseconds) of the same content: read in full, written back canonical.
    @Test func anotherWritersFormattingIsParsedAndWrittenBackCanonical() throws {
        let dir = TemporaryDirectory()
        let (store, id, path) = try Self.store(dir)
        try store.updateWorkStream(id) { $0.fields.unreadCount = 1 }
        let canonical = try Self.file(path)
        let object = try JSONSerialization.jsonObject(with: Data(canonical))
        var compact = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        compact = compact.replacingOccurrences(of: ".000Z", with: "Z")
        try Data(compact.utf8).write(to: URL(fileURLWithPath: path))

        let after = try store.updateWorkStream(id) { $0.fields.unreadCount = 2 }
        var expected = try WorkStreamV3(bytes: canonical, acceptingNewerVersions: true)
        expected.fields.unreadCount = 2
        #expect(after == expected)
        #expect(try Self.file(path) == expected.encoded)
    }

    @Test func messagesAppendedOrChangedThroughThisStoreAreWritten() throws {
        let dir = TemporaryDirectory()
        let (store, id, path) = try Self.store(dir)
        try store.updateWorkStream(id) { $0.fields.unreadCount = 1 }
        try store.appendMessages(id, [Self.message(9, "appended")])
        #expect(try Self.decoded(path).fields.messages.map(\.text).last == "appended")
        try store.updateWorkStream(id) { $0.fields.unreadCount = 2 }
        try store.updateWorkStream(id) { $0.fields.messages[0].text = "cafe\u{301}" }  // == "café" in Swift
        try store.updateWorkStream(id) { $0.fields.unreadCount = 3 }
        let onDisk = try Self.file(path)
        #expect(String(decoding: onDisk, as: UTF8.self).contains("cafe\u{301}"))
        let model = try Self.decoded(path)
        #expect(model.fields.messages.count == 6 && model.fields.unreadCount == 3)
        #expect(onDisk == model.encoded)
    }

    /// Appending keeps the messages too: the next append or update compares them.
    @Test func appendedMessagesAreKeptForTheNextUpdate() throws {
        let dir = TemporaryDirectory()
        let (store, id, path) = try Self.store(dir)
        try store.updateWorkStream(id) { $0.fields.unreadCount = 1 }
        for i in 10..<14 {
            let returned = try store.appendMessages(id, [Self.message(i, "appended \(i)")])
            let onDisk = try Self.decoded(path)
            let bytes = try Self.file(path)
            #expect(returned == onDisk && bytes == onDisk.encoded)
            #expect(store.recentMessages.messages(of: id)?.messages == onDisk.fields.messages, "kept after append \(i)")
        }
        #expect(try Self.decoded(path).fields.messages.count == 9)
    }

    /// At most `RecentMessages.capacity` work streams are kept, the least recently updated first.
    @Test func theKeptMessagesAreBoundedLeastRecentlyUsedFirst() throws {
        let dir = TemporaryDirectory()
        let store = try Store.create(at: dir("s"), now: StoreFixtures.t0)
        var ids: [UUID] = []
        for i in 0..<(RecentMessages.capacity + 3) {
            let stream = try store.createWorkStream(workingDirectory: "/w\(i)", at: StoreFixtures.t0)
            try store.appendMessages(stream.id, [Self.message(i, "m")])
            try store.updateWorkStream(stream.id) { $0.fields.unreadCount = 1 }
            ids.append(stream.id)
        }
        #expect(store.recentMessages.usage.workStreams == RecentMessages.capacity)
        #expect(store.recentMessages.messages(of: ids[0]) == nil)
        #expect(store.recentMessages.messages(of: ids.last!) != nil)
    }

    /// Random interleavings (fixed seed) of this store's updates and another writer's changes:
    /// after each, the file decodes to the model the test tracks, and holds its canonical bytes.
    @Test func randomInterleavingsWithAnotherWriterMatchTheModel() throws {
        let dir = TemporaryDirectory()
        let (store, id, path) = try Self.store(dir, messages: 3)
        let other = try Store.open(at: dir("s"))
        var model = try Self.decoded(path)
        var random = SeededGenerator(seed: 20_261_121)
        for step in 0..<150 {
            let n = Int32(random.next() % 1000)
            let operation = random.next() % 6
            switch operation {
            case 0, 1:
                try store.updateWorkStream(id) { $0.fields.unreadCount = n }
                model.fields.unreadCount = n
            case 2:
                let message = Self.message(100 + step, "step \(step)")
                try store.appendMessages(id, [message])
                model = try Self.decoded(path)  // containment and last_modified: the store's rules
            case 3:
                let index = Int(random.next() % UInt64(model.fields.messages.count))
                try other.updateWorkStream(id) { $0.fields.messages[index].text = "other \(step)" }
                model.fields.messages[index].text = "other \(step)"
            case 4:
                // Another writer rewrites the same content in its own formatting.
                let object = try JSONSerialization.jsonObject(with: Data(try Self.file(path)))
                try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]).write(to: URL(fileURLWithPath: path))
            default:
                try store.updateWorkStream(id) { $0.fields.preview = "preview \(n)" }
                model.fields.preview = "preview \(n)"
            }
            #expect(try Self.decoded(path) == model, "step \(step)")
            let formattedElsewhere = try Self.file(path) != model.encoded
            #expect(formattedElsewhere == (operation == 4), "step \(step): only the other writer's formatting is not canonical")
        }
        try store.updateWorkStream(id) { $0.fields.unreadCount = 0 }
        model.fields.unreadCount = 0
        #expect(try Self.file(path) == model.encoded)
    }
}
