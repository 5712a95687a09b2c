// The subcommands of JSONStoreTests' multi-process tests (killed with SIGKILL, contending for the
// lock). They use JSONStore's internal write layer through `@testable import`, which only debug
// builds allow (they compile with -enable-testing); a release build has none of them.
#if DEBUG
import Foundation
@testable import JSONStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tool name these subcommands record in the store's lock.
let internalToolName = "store-test-helper"

/// The content of write number `n` to `name`: a header, a body whose bytes depend on `n`, a footer.
/// A torn or mixed file cannot match it. Keep in step with `ackPayload` in MultiProcessTests.swift.
func payload(name: String, n: Int) -> [UInt8] {
    let length = 1 + (n &* 7919) % 150_000
    var bytes = Array("\(name) \(n) \(length)\n".utf8)
    bytes.reserveCapacity(bytes.count + length + 16)
    for index in 0..<length { bytes.append(UInt8(truncatingIfNeeded: n &* 131 &+ index)) }
    return bytes + Array("\nend \(n)\n".utf8)
}

/// `ack-writes <store> <seed> <first n>`: under the lock, sweep, then forever write durably to
/// one of six session files and print `ack <name> <n>` after each write returns.
func ackWrites(store: String, seed: UInt64, first: Int) throws {
    let lock = try StoreLock(store: store, tool: internalToolName, version: "1.0", timeout: .seconds(30))
    let swept = try TempSweep.sweep(store: store, holding: lock)
    say("swept \(swept.count)")
    let sessions = store + "/" + StoreLayout.workStreamsFolder
    try Directories.create(sessions)
    var random = seed
    for n in first... {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let name = "00000000-0000-4000-8000-00000000000\(1 + (random >> 33) % 6).json"
        try AtomicFile.durableReplace(directory: sessions, name: name, bytes: payload(name: name, n: n))
        say("ack \(name) \(n)")
    }
}

/// `increment <store> <count>`: `count` times, under the lock, read counters `a` and `b` and
/// write both back plus one in a batch.
func increment(store: String, count: Int) throws {
    for _ in 0..<count {
        try StoreLock.withExclusiveLock(store: store, tool: internalToolName, version: "1.0", timeout: .seconds(60)) { _ in
            var changes: [FileChange] = []
            for name in ["a", "b"] {
                var value = 0
                do {
                    let text = String(decoding: try FileReader.read(store + "/" + name), as: UTF8.self)
                    guard let parsed = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                        throw StoreError(.corruptDocument, "Counter '\(name)' holds '\(text)'.")
                    }
                    value = parsed
                } catch let error as StoreError where error.code == .notFound {}
                changes.append(FileChange(directory: store, name: name, bytes: Array("\(value + 1)\n".utf8)))
            }
            try BatchCommit.commit(changes)
        }
    }
    say("done")
}

/// `hold-lock <store>`: take the lock, print `locked`, and hold it until killed.
func holdLockUntilKilled(store: String) throws {
    let lock = try StoreLock(store: store, tool: internalToolName, version: "1.0", timeout: .seconds(30))
    say("locked")
    while lock.isHeld { sleep(60) }
}

/// `write-with-umask <store> <octal umask>`: with that umask, create folder `sub` and file `new.json`.
func writeWithUmask(store: String, mask: mode_t) throws {
    umask(mask)
    try Directories.create(store + "/sub")
    try AtomicFile.durableReplace(directory: store, name: "new.json", bytes: Array("hello\n".utf8))
    say("ok")
}
#endif
