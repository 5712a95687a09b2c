// store-test-helper: the child process of JSONStoreTests' multi-process tests (killed with
// SIGKILL, contending for the lock). Not shipped. It uses JSONStore's internal write layer
// through `@testable import`, which only debug builds allow (they compile with -enable-testing),
// so a release build gets a stub that says so.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if DEBUG
@testable import JSONStore

/// Writes one line to standard output at once (`write(2)`, unbuffered), so the parent sees every
/// acknowledgement that was printed before the kill.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

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
    let lock = try StoreLock(store: store, tool: "store-test-helper", version: "1.0", timeout: .seconds(30))
    let swept = try TempSweep.sweep(store: store, holding: lock)
    say("swept \(swept.count)")
    let sessions = store + "/sessions"
    try Directories.create(sessions)
    var random = seed
    for n in first... {
        random = random &* 6364136223846793005 &+ 1442695040888963407
        let name = "00000000-0000-4000-8000-00000000000\(1 + (random >> 33) % 6).json"
        try AtomicFile.durableReplace(directory: sessions, name: name, bytes: payload(name: name, n: n))
        say("ack \(name) \(n)")
    }
}

/// `increment <store> <count>`: `count` times, under the lock, read counters `a` and `b` and
/// write both back plus one in a batch.
func increment(store: String, count: Int) throws {
    for _ in 0..<count {
        try StoreLock.withExclusiveLock(store: store, tool: "store-test-helper", version: "1.0", timeout: .seconds(60)) { _ in
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
func holdLock(store: String) throws {
    let lock = try StoreLock(store: store, tool: "store-test-helper", version: "1.0", timeout: .seconds(30))
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

func run(_ arguments: [String]) throws {
    switch (arguments.first, arguments.count) {
    case ("ack-writes", 4): try ackWrites(store: arguments[1], seed: UInt64(arguments[2])!, first: Int(arguments[3])!)
    case ("increment", 3): try increment(store: arguments[1], count: Int(arguments[2])!)
    case ("hold-lock", 2): try holdLock(store: arguments[1])
    case ("write-with-umask", 3): try writeWithUmask(store: arguments[1], mask: mode_t(arguments[2], radix: 8)!)
    default:
        FileHandle.standardError.write(Data("""
            Usage: store-test-helper ack-writes <store> <seed> <first n>
                   store-test-helper increment <store> <count>
                   store-test-helper hold-lock <store>
                   store-test-helper write-with-umask <store> <octal umask>

            """.utf8))
        exit(2)
    }
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
#else
FileHandle.standardError.write(Data("Error: store-test-helper needs a debug build (it uses @testable import).\n".utf8))
exit(2)
#endif
