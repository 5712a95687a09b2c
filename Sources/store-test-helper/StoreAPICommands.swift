// The subcommands of ReliabilityTests' concurrency tests. They use only JSONStore's public API,
// as an application would, so they work in any build.
import Foundation
import JSONStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tool name these subcommands record in the store's lock, as an application names itself:
/// ReliabilityTests' lock-contention tests expect it in the "locked by" messages.
let applicationToolName = "reliability-helper"

func options(lockTimeout: Duration) -> Store.Options {
    Store.Options(readOnly: false, tool: applicationToolName, version: "1.0", lockTimeout: lockTimeout)
}

/// A small deterministic generator (SplitMix64).
struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

/// `mix <store> <worker> <count> <seed> <stream ids comma-separated>`: `count` rounds of one queue
/// change of a random stream, then `unread_count += 1` on the first stream (shared by every worker)
/// and `message_count += 1` on stream number `worker + 1` (this worker's own).
func mix(store path: String, worker: Int, count: Int, seed: UInt64, streams: [UUID]) throws {
    let store = try Store.open(at: path, options: options(lockTimeout: .seconds(60)))
    var random = Random(state: seed)
    for _ in 0..<count {
        let id = streams[random.next(streams.count)]
        switch random.next(5) {
        case 0, 1: try store.enqueue(id)
        case 2: try store.removeFromQueue(id)
        case 3: try store.addToPriorityQueue(id, priority: [1, 5, 10][random.next(3)])
        default: try store.removeFromPriorityQueue(id)
        }
        try store.updateWorkStream(streams[0]) { $0.fields.unreadCount += 1 }
        try store.updateWorkStream(streams[worker + 1]) { $0.fields.messageCount += 1 }
    }
    say("done \(count)")
}

/// `write-loop <store> <stream id> <count>`: an application writer: opens the store and adds one to
/// the stream's `unread_count`, `count` times, printing `ack <n>` after each. While the store is
/// locked it prints `locked <message>`, while it is still v1 `v1`, and tries again.
func writeLoop(store path: String, stream: UUID, count: Int) throws {
    var n = 1
    while n <= count {
        switch attempt(store: path, stream: stream) {
        case nil:
            say("ack \(n)")
            n += 1
        case let error? where error.code == .locked:
            say("locked \(error.message)")
        case let error? where error.code == .unsupportedVersion:
            say("v1")
            usleep(2_000)
        case let error?:
            throw error
        }
    }
    say("done")
}

/// One write of `writeLoop`; nil when it was made.
func attempt(store path: String, stream: UUID) -> StoreError? {
    do {
        let store = try Store.open(at: path, options: options(lockTimeout: .milliseconds(100)))
        try store.updateWorkStream(stream) { (session: inout WorkStreamV3) throws(StoreError) in session.fields.unreadCount += 1 }
        return nil
    } catch {
        return error
    }
}

/// `hold-lock <store> <seconds>`: takes the store's lock, prints `locked`, holds it for `seconds`,
/// then prints `released`.
func holdLock(store path: String, seconds: UInt32) throws {
    try StoreLock.withExclusiveLock(store: path, tool: applicationToolName, version: "1.0") { _ in
        say("locked")
        sleep(seconds)
    }
    say("released")
}

/// `update <store> <stream id> <count>`: opens the store once and adds one to the stream's
/// `unread_count`, `count` times, printing `wrote <n> <wall-clock ns>` after each write returns
/// (for the observation tests' latency), then `done`.
func update(store path: String, stream: UUID, count: Int) throws {
    let store = try Store.open(at: path, options: options(lockTimeout: .seconds(60)))
    for n in 1...max(count, 1) {
        try store.updateWorkStream(stream) { (session: inout WorkStreamV3) throws(StoreError) in session.fields.unreadCount += 1 }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        say("wrote \(n) \(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))")
    }
    say("done")
}

/// `take-next <store> <fifo|priority>`: an application serving a queue: takes the next work stream
/// off it (`takeNextFromQueue` / `takeNextFromPriorityQueue`) until it is empty, printing
/// `took <id>` for each, then `done`. Several at once must never take the same work stream.
func takeNext(store path: String, queue: String) throws {
    let store = try Store.open(at: path, options: options(lockTimeout: .seconds(60)))
    func next() throws(StoreError) -> UUID? {
        if queue == "priority" { return try store.takeNextFromPriorityQueue()?.workStreamID }
        return try store.takeNextFromQueue()?.workStreamID
    }
    while let id = try next() {
        say("took \(StoreLayout.idText(id))")
    }
    say("done")
}
