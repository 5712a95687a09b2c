import Foundation
import StoreJSON
import TestSupport
import Testing

@testable import JSONStore

/// `AsyncStore`: the same results as `Store`, a lock wait that a cancelled task leaves at once.
@Suite struct AsyncStoreTests {
    static let t0 = RFC3339.parse("2025-11-20T10:00:00.000Z")!

    /// Work stream number `n` of the tests: a fixed id.
    static func streamID(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!
    }

    /// The messages task `n` appends in round `round`: fixed ids, texts and dates.
    static func messages(_ n: Int, round: Int) -> [Message] {
        (0..<3).map { (k: Int) -> Message in
            let index: Int = round * 3 + k
            let id = UUID(uuidString: String(format: "10000000-0000-4000-8000-%06d%06d", n, index))!
            return Message(
                id: id, sessionID: streamID(n), role: k == 0 ? "user" : "assistant",
                text: "task \(n), round \(round), message \(k)", timestamp: t0.addingTimeInterval(Double(index)))
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func asyncCallsFromManyTasksWriteTheSameDocumentsAsSynchronousCalls() async throws {
        let folder = TemporaryDirectory()
        let tasks = 12, rounds = 4
        let asyncStore = try await AsyncStore.create(at: folder("async"), now: Self.t0)
        let syncStore = try Store.create(at: folder("sync"), now: Self.t0)

        // Every task works on its own work stream, so the end state does not depend on the order the
        // tasks ran in; the reads in between must see each task's own writes.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<tasks {
                group.addTask {
                    let id = Self.streamID(n)
                    try await asyncStore.createWorkStream(id: id, workingDirectory: "/work/\(n)", at: Self.t0)
                    for round in 0..<rounds {
                        let written = try await asyncStore.appendMessages(id, Self.messages(n, round: round))
                        #expect(try await asyncStore.workStream(id).messages == written.fields.messages)
                        try await asyncStore.updateWorkStream(id) { $0.fields.unreadCount += 1 }
                    }
                    try await asyncStore.setCustomName(id, "Stream \(n)", at: Self.t0)
                    _ = try await asyncStore.listWorkStreams()
                }
            }
            try await group.waitForAll()
        }
        for n in 0..<tasks {
            let id = Self.streamID(n)
            try syncStore.createWorkStream(id: id, workingDirectory: "/work/\(n)", at: Self.t0)
            for round in 0..<rounds {
                try syncStore.appendMessages(id, Self.messages(n, round: round))
                try syncStore.updateWorkStream(id) { $0.fields.unreadCount += 1 }
            }
            try syncStore.setCustomName(id, "Stream \(n)", at: Self.t0)
        }
        #expect(tree(folder("async")) == tree(folder("sync")))

        // Queue changes from every task at once: whatever order they ran in, replaying that order
        // with the synchronous API gives the same files, byte for byte.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<tasks {
                group.addTask { try await asyncStore.enqueue(Self.streamID(n), at: Self.t0) }
            }
            try await group.waitForAll()
        }
        let order = try await asyncStore.queue().fifo.map(\.workStreamID)
        #expect(Set(order) == Set((0..<tasks).map(Self.streamID)))
        for id in order { try syncStore.enqueue(id, at: Self.t0) }
        #expect(tree(folder("async")) == tree(folder("sync")))
        #expect(try await asyncStore.listWorkStreams().items == (try syncStore.listWorkStreams().items))
        let asyncVisible = try await asyncStore.visibleQueue()
        #expect(asyncVisible.fifo == (try syncStore.visibleQueue()).fifo)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingAWriteWaitingForAnotherProcesssLockThrowsPromptlyAndWritesNothing() async throws {
        let folder = TemporaryDirectory()
        // A timeout far beyond the test's time limit: `.cancelled` then shows that the cancel, not
        // the timeout, ended the wait, however late a loaded machine runs the test's tasks.
        let store = try await AsyncStore.create(at: folder("store"), options: Store.Options(lockTimeout: .seconds(600)))
        let id = try await store.createWorkStream(workingDirectory: "/w").id
        let holder = try ChildProcess(["hold-lock", folder("store"), "30"])
        defer { holder.killHard(); holder.wait() }
        #expect(holder.readLine() == "locked")
        let before = snapshot(folder("store"))  // with the holder's record in `.lock`

        let write = Task { try await store.appendMessages(id, Self.messages(0, round: 0)) }
        try await Task.sleep(for: .milliseconds(300))  // the write is waiting for the lock by now
        let cancelledAt = ContinuousClock.now
        write.cancel()
        let outcome = await write.result
        let latency = ContinuousClock.now - cancelledAt
        let error = try #require(outcome.error as? StoreError, "the write ended with \(outcome)")
        #expect(error.code == .cancelled)
        #expect(error.underlying is CancellationError)
        // Reported, not asserted (tests never fail on timing): 20-50 ms here when the machine is quiet.
        print("cancellingAWriteWaitingForAnotherProcesssLockThrowsPromptlyAndWritesNothing: thrown \(latency) after cancel")
        #expect(snapshot(folder("store")) == before, "nothing written, not even over the holder's record in the lock file")
    }

    /// The lock timeout is far beyond the test's time limit: with the default 10 s, CI on a loaded
    /// machine once resumed the test's 200 ms sleep so late that the write had timed out
    /// (`.locked`, correctly) before the cancel came (the test took 92 s).
    @Test(.timeLimit(.minutes(1)))
    func cancellingAWriteWaitingForAnotherStoresLockThrowsCancelled() async throws {
        let folder = TemporaryDirectory()
        let sync = try Store.create(at: folder("store"))
        let id = try sync.createWorkStream(workingDirectory: "/w").id
        let store = AsyncStore(try Store.open(at: folder("store"), options: Store.Options(lockTimeout: .seconds(600))))
        let lock = try StoreLock(store: folder("store"), tool: "other-store", version: "1")
        defer { lock.release() }
        let before = try sync.workStream(id)

        let write = Task { try await store.enqueue(id) }
        try await Task.sleep(for: .milliseconds(200))
        write.cancel()
        let error = try #require(await write.result.error as? StoreError)
        #expect(error.code == .cancelled)
        #expect(try sync.workStream(id) == before)
        #expect(try sync.queue().fifo.isEmpty)
    }

    /// A try of the lock that ends after the timeout, on a task cancelled while it ran, reports
    /// the cancel, not `.locked`: the caller asked to stop first. The writes queue is held so
    /// that the try runs after the 100 ms timeout.
    @Test(.timeLimit(.minutes(1)))
    func aWriteCancelledWhileItsTryOutlastsTheTimeoutThrowsCancelled() async throws {
        let folder = TemporaryDirectory()
        let sync = try Store.create(at: folder("store"))
        let id = try sync.createWorkStream(workingDirectory: "/w").id
        let store = AsyncStore(try Store.open(at: folder("store"), options: Store.Options(lockTimeout: .milliseconds(100))))
        let lock = try StoreLock(store: folder("store"), tool: "other-store", version: "1")
        defer { lock.release() }
        let before = try sync.workStream(id)
        let queueHeld = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        store.writes.async {
            queueHeld.signal(); release.wait()
        }
        queueHeld.wait()
        var released = false
        defer { if !released { release.signal() } }  // never leave the queue held, whatever throws

        let write = Task { try await store.enqueue(id) }
        try await Task.sleep(for: .milliseconds(50))  // the try is queued behind the held queue by now
        write.cancel()
        try await Task.sleep(for: .milliseconds(300))  // past the timeout, the try still queued
        release.signal()
        released = true
        let error = try #require(await write.result.error as? StoreError)
        #expect(error.code == .cancelled)
        #expect(try sync.workStream(id) == before)
        #expect(try sync.queue().fifo.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func asyncWriteThatOutwaitsItsLockTimeoutThrowsLockedNamingTheHolder() async throws {
        let folder = TemporaryDirectory()
        let store = try await AsyncStore.create(at: folder("store"), options: Store.Options(lockTimeout: .milliseconds(300)))
        let holder = try ChildProcess(["hold-lock", folder("store"), "30"])
        defer { holder.killHard(); holder.wait() }
        #expect(holder.readLine() == "locked")
        do {
            try await store.updateSettings { $0.queueEnabled = true }
            Issue.record("the write went through a held lock")
        } catch {
            #expect(error.code == .locked)
            #expect(error.message.contains("process \(holder.pid) (reliability-helper 1.0)"), "\(error.message)")
        }
        #expect(try await store.settings() == .defaults)
    }

    @Test(.timeLimit(.minutes(1)))
    func asyncWriteGoesThroughOnceAnotherProcessReleasesTheLock() async throws {
        let folder = TemporaryDirectory()
        let store = try await AsyncStore.create(at: folder("store"), options: Store.Options(lockTimeout: .seconds(30)))
        let holder = try ChildProcess(["hold-lock", folder("store"), "1"])
        defer { holder.wait() }
        #expect(holder.readLine() == "locked")
        let settings = try await store.updateSettings { $0.queueEnabled = true }
        #expect(settings.queueEnabled)
        #expect(holder.readLine() == "released")
    }

    @Test(.timeLimit(.minutes(1)))
    func asyncUpgradeForwardsTheSameProgressAsTheSynchronousOne() async throws {
        let folder = TemporaryDirectory()
        let seen = LockedState<[StoreProgress]>([])
        _ = try await AsyncStore.upgrade(
            at: try folder.copySample("v1-store", as: "async"), backup: .folder(folder("async-backup")),
            tool: "t", version: "1"
        ) { event in
            if case .progress(let progress) = event { seen.withLock { $0.append(progress) } }
        }
        var expected: [StoreProgress] = []
        _ = try StoreUpgrade.run(
            at: try folder.copySample("v1-store", as: "sync"), backup: .folder(folder("sync-backup")),
            tool: "t", version: "1"
        ) { event in
            if case .progress(let progress) = event { expected.append(progress) }
        }
        #expect(seen.withLock { $0 } == expected)
        #expect(expected.first == .phase(.validating, done: 0, total: 8))
    }

    @Test func asyncOpenOfAMissingStoreThrowsTheSynchronousError() async throws {
        let folder = TemporaryDirectory()
        do {
            _ = try await AsyncStore.open(at: folder("nothing"))
            Issue.record("opened a folder that is not a store")
        } catch {
            #expect(error.code == .notAStore)
        }
    }
}

extension Result {
    /// The error, or nil on success.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
