import Foundation
import Testing

@testable import JSONStore

/// A v5 store (spec §12) opens read-write with this code and reads as v5: work streams from
/// `work-streams/` as `.v5`, the queue from `queue.json` only.
@Suite struct V5StoreReadingTests {
    @Test func v5StoreOpensReadWriteAsBreakingCurrent() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let store = try Store.open(at: path)
        #expect(store.compatibility == .breakingCurrent(storeVersion: 5))
        #expect(store.isWritable)
        #expect(store.hasRenamedLayout)
        #expect(store.workStreamsDirectory == path + "/work-streams")
        #expect(try store.manifest().schemaVersion == 5)
        #expect(tree(path) == tree(try V5Store.make(dir, as: "again")))
    }

    @Test func workStreamsReadAsV5WithNameAsBackendName() throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(at: try V5Store.make(dir), options: .readOnly)
        guard case .v5(let session) = try store.workStream(V5Store.released) else {
            Issue.record("not a v5 document"); return
        }
        #expect(session.name == "Write release notes for 2.4")
        #expect(try store.renamedWorkStream(V5Store.released) == session)
        let listing = try store.listWorkStreams()
        #expect(listing.problems.isEmpty)
        #expect(listing.items.count == 8)
        let summary = try #require(listing.items.first { $0.id == V5Store.released })
        #expect(summary.backendName == "Write release notes for 2.4")
        #expect(summary.schemaVersion == 5)
        #expect(summary.queueKeys == QueueKeys.defaults)
    }

    @Test func queueComesFromQueueJSON() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let store = try Store.open(at: path, options: .readOnly)
        #expect(try store.queue().encoded == tree(path)["queue.json"]!)
        #expect(
            try store.queue().fifo.map(\.workStreamID.lowercased) == [
                "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b", "555a622d-4eba-4eda-8989-fc9e679fc303", "ec3629cb-f446-449f-b8a0-f43e156345d8",
            ])
    }

    @Test func leftoverSessionsFolderIsNeverReadAsData() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        try FileManager.default.copyItem(atPath: Samples.v4Store + "/sessions", toPath: path + "/sessions")
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path + "/sessions/0badf00d-0000-4000-8000-000000000001.json"))
        let store = try Store.open(at: path)
        let listing = try store.listWorkStreams()
        #expect(listing.problems.isEmpty)
        #expect(listing.items.count == 8)
        #expect(listing.items.allSatisfy { $0.schemaVersion == 5 })
    }

    @Test func leftoverWorkStreamsFolderOfAV4StoreIsNeverRead() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v4-store")
        try FileManager.default.createDirectory(atPath: path + "/work-streams", withIntermediateDirectories: false)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path + "/work-streams/0badf00d-0000-4000-8000-000000000001.json"))
        let store = try Store.open(at: path)
        #expect(store.compatibility == .current)
        let listing = try store.listWorkStreams()
        #expect(listing.problems.isEmpty)
        #expect(listing.items.count == 8)
        #expect(listing.items.allSatisfy { $0.schemaVersion == 4 })
    }

    @Test func documentBelowV5InWorkStreamsIsAnErrorNamingTheFileAndBothVersions() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let file = path + "/work-streams/c25e47cd-f10a-49a3-9ec4-a9355366da75.json"
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.copyItem(atPath: Samples.v4Store + "/sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json", toPath: file)
        let store = try Store.open(at: path, options: .readOnly)
        let error = #expect(throws: StoreError.self) { try store.workStream(V5Store.released) }
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.path == file)
        #expect(error?.message.contains("'\(file)'") == true)
        #expect(
            error?.message.contains("this work stream has schema_version 4, but a work stream in work-streams/ must have schema_version 5 or later") == true)
        let listing = try store.listWorkStreams()
        #expect(listing.items.count == 7)
        #expect(listing.problems.map(\.path) == [file])
    }
}
