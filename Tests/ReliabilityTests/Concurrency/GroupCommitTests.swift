import Foundation
import Schema
import StoreGenerator
import Testing

@testable import JSONStore

/// Group commit (issue 19): threads of one process that write one store share folder `fsync`s
/// (`FolderSyncGroup`) and queue at the store's `WriterGate`. No lost update; every write that
/// returned is durable at every instant of a simulated power loss; and an `fsync` that started
/// before a writer's rename never confirms that writer. None of these tests depends on timing:
/// where threads must meet, a test waits for the state it needs, not for a clock.
@Suite(.serialized) struct GroupCommitTests {
    typealias W = PowerLossWorkloads

    /// Four threads sharing one `Store`, each incrementing the same work stream's counter K times
    /// (read-modify-write under the lock): the counter ends at 4 × K. (Small: on a shared disk
    /// every update waits for two barriers, and the whole suite runs beside this test.)
    @Test func threadsUpdatingOneWorkStreamLoseNoUpdate() throws {
        let scratch = TemporaryDirectory()
        let path = scratch("store")
        let store = try Store.create(at: path)
        let id = W.id(1)
        try store.createWorkStream(id: id, workingDirectory: "/work/one")
        let threads = 4, rounds = 10
        let errors = ThreadErrors()
        onThreads(threads) { _ in
            do {
                for _ in 0..<rounds { try store.updateWorkStream(id) { $0.fields.messageCount += 1 } }
            } catch {
                errors.add(error)
            }
        }
        #expect(errors.all.isEmpty, "\(errors.all)")
        let reopened = try Store.open(at: path, options: .readOnly)
        #expect(try reopened.summary(id).messageCount == Int32(threads * rounds))
        #expect(temporaryLeftovers(path).isEmpty)
    }

    /// Four threads, each appending K messages to its own work stream and renaming one shared
    /// customisation: every message is there, in order, and the store verifies.
    @Test func threadsWritingTheirOwnWorkStreamsKeepEveryWrite() throws {
        let scratch = TemporaryDirectory()
        let path = scratch("store")
        let store = try Store.create(at: path)
        let threads = 4, rounds = 5
        for n in 1...threads { try store.createWorkStream(id: W.id(n), workingDirectory: "/work/\(n)") }
        let errors = ThreadErrors()
        onThreads(threads) { index in
            let id = W.id(index + 1)
            do {
                for round in 0..<rounds {
                    try store.appendMessages(id, [W.message(index * 100 + round, in: id, bytes: 200)])
                    try store.setCustomName(W.id(99), "thread \(index) round \(round)", at: W.t0)
                }
            } catch {
                errors.add(error)
            }
        }
        #expect(errors.all.isEmpty, "\(errors.all)")
        let reopened = try Store.open(at: path, options: .readOnly)
        for index in 0..<threads {
            guard case .v3(let stream) = try reopened.workStream(W.id(index + 1)) else {
                Issue.record("work stream \(index + 1) is not a v3 document")
                continue
            }
            let messages = stream.fields.messages
            #expect(messages.map(\.id) == (0..<rounds).map { W.id(1000 + index * 100 + $0) })
        }
        #expect(try reopened.customisation(W.id(99))?.customName?.hasPrefix("thread ") == true)
        #expect(temporaryLeftovers(path).isEmpty)
    }

    /// A writer whose rename came after the running `fsync` started waits for the next one: when
    /// its `sync` returns, its rename is durable in the model, and the writers that waited during
    /// the first `fsync` shared one more (two `fsync`s for four writers).
    @Test(.timeLimit(.minutes(1)))  // a bound against a hang of broken code, not a timing assertion
    func writersWaitingDuringAnFsyncShareTheNextOneAndReturnDurable() throws {
        let model = ModelFileSystem()
        model.install("/folder/seed", [1])
        let blocking = BlockingFolderSync(model)
        let system = SystemCalls(calls: blocking)
        let group = FolderSyncGroup()
        let context = ErrorContext("write", "/folder")
        let leader = Thread {
            let fd = try! FileDescriptor.directory("/folder", system: system, context: context)
            try! group.sync(fd, system: system, context: context)
        }
        leader.start()
        blocking.firstSyncStarted.wait()  // the leader is inside its fsync
        let done = DispatchGroup()
        for n in 1...3 {
            // Each writer renames its file into the folder after the first fsync started.
            let file = try FileDescriptor(
                opening: "/folder/.tmp-\(n)", flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600,
                system: system, context: context)
            try file.sync(context: context)
            file.discard()
            try system.rename("/folder/.tmp-\(n)", to: "/folder/file-\(n)", context: context)
            done.enter()
            Thread {
                let fd = try! FileDescriptor.directory("/folder", system: system, context: context)
                try! group.sync(fd, system: system, context: context)
                // Returned: its rename must be durable now.
                let folder = model.current.inodes.values.first { $0.durableEntries["seed"] != nil }!
                if folder.durableEntries["file-\(n)"] == nil { blocking.recordFailure("file-\(n) returned before it was durable") }
                done.leave()
            }.start()
        }
        while group.counts.waiting < 3 { usleep(1_000) }  // waits for a state, asserts nothing about time
        blocking.releaseFirstSync.signal()
        done.wait()
        #expect(blocking.failures.isEmpty, "\(blocking.failures)")
        #expect(group.counts.syncs == 2)
        #expect(model.callCounts["fsync"] == 2 + 3)  // two folder fsyncs, one per file
    }

    /// Threads updating their own work streams on the model file system; the power goes after
    /// every call: each update that had returned is in the crash state, the store opens, and no
    /// document is torn (`W.storeOpensAndReads`).
    @Test func concurrentUpdatesThatReturnedSurvivePowerLoss() throws {
        let threads = 3, rounds = 3
        let initial = try W.v2Store(streams: threads)
        let model = ModelFileSystem(initial.allDurable)
        let system = SystemCalls(calls: model)
        // Writers wait for each other: a lock timeout, where the workloads' options try once.
        var options = W.options
        options.lockTimeout = .seconds(600)
        let store = Store(path: W.store, options: options, compatibility: .current, warnings: [], system: system)
        let acknowledged = AcknowledgedUpdates(streams: threads)
        model.startRecording()
        onThreads(threads) { index in
            for round in 1...rounds {
                try! store.updateWorkStream(W.id(index + 1)) { $0.fields.preview = "round \(round)" }
                acknowledged.returned(stream: index, round: round, model: model)
            }
        }
        model.stopRecording()
        var random = SeededGenerator(seed: environmentSeed())
        var failures: [String] = [], states = 0
        for snapshot in model.snapshots {
            let promised = acknowledged.table(at: snapshot.acknowledged)
            for state in CrashStates.explore(snapshot.state, limit: 24, random: &random).states {
                states += 1
                let crash = PowerLossHarness.Crash(state: state, acknowledged: 0, call: snapshot.call, versions: [])
                failures += W.storeOpensAndReads(crash).map { "after '\(snapshot.call)': \($0)" }
                let files = state.files()
                for stream in 0..<threads where promised[stream] > 0 {
                    let path = W.store + "/sessions/" + W.id(stream + 1).lowercased + ".json"
                    let preview = files[path].flatMap { try? WorkStreamV3(bytes: $0, acceptingNewerVersions: true) }?.fields.preview ?? "missing"
                    let round = Int(preview.dropFirst("round ".count)) ?? 0
                    if round < promised[stream] {
                        failures.append("after '\(snapshot.call)': stream \(stream + 1) holds '\(preview)', round \(promised[stream]) had returned")
                    }
                }
            }
        }
        print("group commit power loss: \(model.snapshots.count) crash points, \(states) crash states, \(failures.count) failures")
        #expect(failures.isEmpty, "\(failures.prefix(10).joined(separator: "\n"))")
        #expect(acknowledged.table(at: threads * rounds) == Array(repeating: rounds, count: threads))
    }
}

/// Runs `body(0..<count)` on `count` threads of their own, started together, and returns when all
/// ended. Not `DispatchQueue.concurrentPerform`: its workers are the threads Swift concurrency
/// runs every test on, and writers blocked on the disk there starve the async suites.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            body(index)
            done.leave()
        }.start()
    }
    done.wait()
}

/// Errors collected from several threads.
final class ThreadErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    func add(_ error: any Error) { lock.lock(); errors.append("\(error)"); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return errors }
}

/// Which round of each stream had returned when the model recorded acknowledgement number n.
final class AcknowledgedUpdates: @unchecked Sendable {
    private let lock = NSLock()
    private var current: [Int]
    private var tables: [[Int]]

    init(streams: Int) {
        current = Array(repeating: 0, count: streams)
        tables = [current]
    }

    /// Called after an update returned: a new acknowledgement number and a crash point right after it.
    /// Calls of other threads recorded before it still carry the older number, which promises less.
    func returned(stream: Int, round: Int, model: ModelFileSystem) {
        lock.lock()
        defer { lock.unlock() }
        current[stream] = round
        tables.append(current)
        model.acknowledge(tables.count - 1)
    }

    func table(at number: Int) -> [Int] { lock.lock(); defer { lock.unlock() }; return tables[number] }
}

/// The model, except that the first `fsync` of a folder signals it started and then waits to be
/// released: lets a test put writers behind an `fsync` in flight, without a clock.
final class BlockingFolderSync: ForwardingCalls, @unchecked Sendable {
    let firstSyncStarted = DispatchSemaphore(value: 0)
    let releaseFirstSync = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var first = true
    private var failureList: [String] = []

    /// The model's fsync persists the entries as they are when it is called; the first folder
    /// fsync then does not return until released, as a slow disk would.
    override func system_fsync(_ fd: Int32) throws(Errno) {
        try base.system_fsync(fd)
        guard base.isDirectory(fd) else { return }
        let isFirst = lock.guarded { () -> Bool in
            defer { first = false }
            return first
        }
        if isFirst {
            firstSyncStarted.signal()
            releaseFirstSync.wait()
        }
    }

    func recordFailure(_ text: String) { lock.guarded { failureList.append(text) } }
    var failures: [String] { lock.guarded { failureList } }
}
