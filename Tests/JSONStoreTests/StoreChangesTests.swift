import Foundation
import TestSupport
import Testing

@testable import JSONStore
@testable import StoreCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Store.changes`: another process's writes seen, bursts coalesced, own writes left out on request.
@Suite(.serialized) struct StoreChangesTests {
    /// Takes the next event, or nil when none came within `seconds`.
    static func next(_ iterator: inout StoreChanges.Iterator, within seconds: Double = 10) async -> StoreChange? {
        let watcher = iterator.watcher
        let timeout = Task {
            try await Task.sleep(for: .seconds(seconds))
            watcher.stop()
        }
        defer { timeout.cancel() }
        return await iterator.next()
    }

    static func wallClockNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// A store with one work stream, and its id.
    static func store(_ folder: TemporaryDirectory) throws -> (Store, UUID) {
        let store = try Store.create(at: folder("store"))
        return (store, try store.createWorkStream(workingDirectory: "/w").id)
    }

    /// The latency of `rounds` writes by a child process, one at a time, as seen by `changes`: when
    /// the watcher noticed each (its scan found it), and when the consuming task got it (that also
    /// waits for a thread of the cooperative pool, which the other suites running at the same time keep busy).
    func latencies(_ notification: ChangeNotification, rounds: Int, label: String) async throws {
        let folder = TemporaryDirectory(label)
        let (store, id) = try Self.store(folder)
        let changes = try store.changes(options: StoreChanges.Options(notification: notification))
        print("\(label): watching with \(changes.watcher.backend)")
        var iterator = changes.makeAsyncIterator()
        var noticed: [Double] = [], delivered: [Double] = []
        for round in 1...rounds {
            let child = try ChildProcess(["update", store.path, id.lowercased, "1"])
            let line = try #require(child.readLine())
            let wrote = try #require(Int64(line.split(separator: " ")[2]), "\(line)")
            let change = await Self.next(&iterator, within: 60)
            delivered.append(Double(Self.wallClockNanoseconds() - wrote) / 1e6)
            noticed.append(Double(changes.watcher.lastRing - wrote) / 1e6)
            #expect(change == .documents([DocumentChange(.workStream(id), .modified)]), "round \(round)")
            #expect(child.readLine() == "done")
            child.wait()
            #expect(noticed.last! < 10_000, "round \(round): noticed \(noticed.last!) ms after the write")
            #expect(try store.summary(id).unreadCount == Int32(round))
        }
        func text(_ values: [Double]) -> String {
            values.map { String(format: "%.1f", $0) }.joined(separator: ", ") + " ms (median " + String(format: "%.1f", values.sorted()[values.count / 2])
                + " ms)"
        }
        print("\(label): another process's write noticed after \(text(noticed)); delivered to the consuming task after \(text(delivered))")
    }

    @Test(.timeLimit(.minutes(6)))
    func anotherProcesssWriteIsSeenWithinTenSeconds() async throws {
        try await latencies(.automatic, rounds: 5, label: "anotherProcesssWriteIsSeenWithinTenSeconds")
    }

    @Test(.timeLimit(.minutes(4)))
    func pollingFallbackSeesAnotherProcesssWriteWithinTenSeconds() async throws {
        try await latencies(.polling(interval: .milliseconds(100)), rounds: 3, label: "pollingFallbackSeesAnotherProcesssWriteWithinTenSeconds")
    }

    @Test(.timeLimit(.minutes(3)))
    func burstOfAThousandWritesIsCoalescedAndItsFinalStateSeen() async throws {
        let folder = TemporaryDirectory()
        let (store, id) = try Self.store(folder)
        // A 200 ms window: however slowly a loaded machine lets the child write, 1,000 writes take
        // far more windows than events (about 1 s here unloaded: 5 events; 19 with the default 50 ms).
        let changes = try store.changes(options: StoreChanges.Options(coalescing: .milliseconds(200)))
        var iterator = changes.makeAsyncIterator()
        let writes = 1_000
        let child = try ChildProcess(["update", store.path, id.lowercased, "\(writes)"])
        let started = ContinuousClock.now
        var events = 0, rereads = 0, finalSeen = false
        while !finalSeen, let change = await Self.next(&iterator, within: 60) {
            events += 1
            switch change {
            case .documents(let documents): #expect(documents == [DocumentChange(.workStream(id), .modified)])
            case .reread: rereads += 1
            }
            finalSeen = try store.summary(id).unreadCount == Int32(writes)
        }
        let lines = child.lines()
        child.wait()
        #expect(lines.last == "done")
        #expect(finalSeen, "the state after the last write was never read after an event")
        #expect(events < writes / 10, "\(events) events for \(writes) writes")
        #expect(rereads == 0)
        print(
            "burstOfAThousandWritesIsCoalescedAndItsFinalStateSeen: \(writes) writes by another process, \(events) events, "
                + "final state seen after \(ContinuousClock.now - started)")
    }

    @Test(.timeLimit(.minutes(1)))
    func ownWritesAreLeftOutWhenAskedAndAnotherProcesssAreNot() async throws {
        let folder = TemporaryDirectory()
        let (sync, first) = try Self.store(folder)
        let second = try sync.createWorkStream(workingDirectory: "/x").id
        let store = AsyncStore(sync)
        var others = try await store.changes(includingOwnWrites: false).makeAsyncIterator()
        var all = try await store.changes(includingOwnWrites: true).makeAsyncIterator()

        try await store.appendMessages(first, [Message(id: UUID(), sessionID: first, role: "user", text: "hi", timestamp: Date())])
        try await store.enqueue(first)
        #expect(await Self.next(&all) != nil)
        let child = try ChildProcess(["update", sync.path, second.lowercased, "1"])
        #expect(child.lines().last == "done")
        child.wait()
        #expect(await Self.next(&others) == .documents([DocumentChange(.workStream(second), .modified)]))
    }

    @Test(.timeLimit(.minutes(1)))
    func changesNameEachDocumentWithItsNetKind() async throws {
        let folder = TemporaryDirectory()
        let (store, first) = try Self.store(folder)
        var changes = try store.changes(options: StoreChanges.Options(coalescing: .milliseconds(300))).makeAsyncIterator()
        let id = UUID()
        try store.createWorkStream(id: id, workingDirectory: "/new")
        try store.updateWorkStream(id) { $0.fields.preview = "created, then modified: created" }
        try store.setCustomName(first, "Renamed")
        try store.deleteWorkStream(first)
        try store.updateSettings { $0.queueEnabled = true }
        let change = await Self.next(&changes)
        #expect(
            change
                == .documents(
                    [
                        DocumentChange(.settings, .modified),
                        DocumentChange(.workStream(id), .created),
                        DocumentChange(.workStream(first), .deleted),
                        DocumentChange(.customisation(first), .created),
                    ].sorted { $0.document < $1.document }))
    }

    @Test(.timeLimit(.minutes(1)))
    func consumerThatFallsBehindGetsOneRereadInsteadOfABacklog() async throws {
        let folder = TemporaryDirectory()
        let (store, _) = try Self.store(folder)
        let changes = try store.changes(options: StoreChanges.Options(coalescing: .milliseconds(10), maximumPending: 3))
        var iterator = changes.makeAsyncIterator()
        for n in 0..<10 { try store.createWorkStream(workingDirectory: "/w\(n)") }
        try await Task.sleep(for: .milliseconds(500))  // seen and dropped while nobody takes them
        #expect(await Self.next(&iterator) == .reread)
        try store.updateSettings { $0.queueEnabled = true }
        #expect(await Self.next(&iterator) == .documents([DocumentChange(.settings, .modified)]))
    }

    @Test(.timeLimit(.minutes(1)))
    func droppingTheSequenceStopsWatching() async throws {
        let folder = TemporaryDirectory()
        let (store, _) = try Self.store(folder)
        weak var watcher: StoreWatcher?
        do {
            let changes = try store.changes(includingOwnWrites: false)
            watcher = changes.watcher
            var iterator = changes.makeAsyncIterator()
            try store.updateSettings { $0.queueEnabled = true }
            let child = try ChildProcess(["update", store.path, try store.workStreamIDs().items[0].lowercased, "1"])
            #expect(child.lines().last == "done")
            child.wait()
            #expect(await Self.next(&iterator) != nil)
        }
        for _ in 0..<100 where watcher != nil { try await Task.sleep(for: .milliseconds(20)) }
        #expect(watcher == nil, "the watch still runs")
        #expect(store.ownWrites.observers == 0)
    }

    /// "Own" is this process through any store value of the path: they share one record.
    @Test func storesOfOnePathShareTheRecordOfOwnWrites() throws {
        let folder = TemporaryDirectory()
        let (store, _) = try Self.store(folder)
        let again = try Store.open(at: store.path)
        #expect(again.ownWrites === store.ownWrites)
        let changes = try store.changes(includingOwnWrites: false)
        #expect(again.ownWrites.observers == 1)
        changes.watcher.stop()
        #expect(again.ownWrites.observers == 0)
    }

    @Test func documentNamesMapToDocumentsAndNothingElseDoes() {
        let id = UUID(uuidString: "6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f")!
        #expect(StoreDocument.named("6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f.json", inFolder: "sessions") == .workStream(id))
        #expect(StoreDocument.named("6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f.json", inFolder: "user-sessions") == .customisation(id))
        #expect(StoreDocument.named("6F1C2D3E-4A5B-4C6D-8E7F-0A1B2C3D4E5F.json", inFolder: "sessions") == nil)
        #expect(StoreDocument.named(".6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f.json.tmp", inFolder: "sessions") == nil)
        #expect(StoreDocument.named("queue.json", inFolder: "") == .queue)
        #expect(StoreDocument.named(".lock", inFolder: "") == nil)
        #expect(DocumentChange.Kind.created.then(.deleted) == nil)
        #expect(DocumentChange.Kind.deleted.then(.created) == .modified)
        #expect(DocumentChange.Kind.modified.then(.deleted) == .deleted)
    }
}
