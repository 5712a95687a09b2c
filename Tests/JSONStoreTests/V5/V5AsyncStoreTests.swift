import Foundation
import Testing

@testable import JSONStore
@testable import StoreCore

/// `AsyncStore`'s v5 calls, and `Store.changes` on a v5 store: work streams in `work-streams/`.
@Suite(.serialized) struct V5AsyncStoreTests {
    static let id = UUID(uuidString: "0e0e0e0e-1111-4222-8333-444455556666")!

    @Test func asyncV5CallsWriteTheSameBytesAsSynchronousOnes() async throws {
        let dir = TemporaryDirectory()
        let asyncPath = try V5Store.make(dir, as: "async")
        let syncPath = try V5Store.make(dir, as: "sync")
        let asyncStore = try await AsyncStore.open(at: asyncPath)
        let syncStore = try Store.open(at: syncPath)
        let message = Message(
            id: UUID(uuidString: "aaaaaaaa-1111-4222-8333-444455556666")!, sessionID: Self.id, role: "user",
            text: "Ship it", timestamp: StoreFixtures.t0)
        try await asyncStore.createRenamedWorkStream(id: Self.id, workingDirectory: "/w", at: StoreFixtures.t0)
        try await asyncStore.appendMessagesToRenamedWorkStream(Self.id, [message])
        let renamed = try await asyncStore.updateRenamedWorkStream(Self.id) { $0.name = "Shipping" }
        try syncStore.createRenamedWorkStream(id: Self.id, workingDirectory: "/w", at: StoreFixtures.t0)
        try syncStore.appendMessagesToRenamedWorkStream(Self.id, [message])
        try syncStore.updateRenamedWorkStream(Self.id) { $0.name = "Shipping" }
        #expect(try await asyncStore.renamedWorkStream(Self.id) == renamed)
        #expect(tree(asyncPath) == tree(syncPath))
        #expect(tree(asyncPath)["work-streams/0e0e0e0e-1111-4222-8333-444455556666.json"] == renamed.encoded)
    }

    @Test func changesReportAWorkStreamWrittenInWorkStreams() async throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let store = try Store.open(at: path)
        let changes = try store.changes()
        var iterator = changes.makeAsyncIterator()
        try store.updateRenamedWorkStream(V5Store.released) { $0.unreadCount += 1 }
        let watcher = iterator.watcher
        let timeout = Task {
            try await Task.sleep(for: .seconds(30))
            watcher.stop()
        }
        defer { timeout.cancel() }
        // Taken first, so that a failure prints the event that came instead.
        let event = await iterator.next()
        #expect(event == .documents([DocumentChange(.workStream(V5Store.released), .modified)]))
    }
}
