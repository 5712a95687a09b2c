// store-test-helper: the child process of the multi-process tests. Not shipped.
// - JSONStoreTests (WriteLayerCommands.swift): killed with SIGKILL mid-write, contending for the
//   lock; through JSONStore's internal write layer, so in debug builds only.
// - ReliabilityTests and JSONStoreTests (StoreAPICommands.swift): concurrent writers through the
//   public Store API, as an application would.
// - make-v5-store: the v4 test fixture (StoreGenerator's V5Fixture) from a v3 store, for a person
//   or a script (golden files); tests call V5Fixture directly.
import Foundation
import StoreGenerator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one line to standard output at once (`write(2)`, unbuffered), so the parent sees every
/// line that was printed before a kill.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func run(_ arguments: [String]) throws {
    switch (arguments.first, arguments.count) {
    #if DEBUG
    case ("ack-writes", 4): try ackWrites(store: arguments[1], seed: UInt64(arguments[2])!, first: Int(arguments[3])!)
    case ("increment", 3): try increment(store: arguments[1], count: Int(arguments[2])!)
    case ("hold-lock", 2): try holdLockUntilKilled(store: arguments[1])
    case ("write-with-umask", 3): try writeWithUmask(store: arguments[1], mask: mode_t(arguments[2], radix: 8)!)
    #else
    case ("ack-writes", 4), ("increment", 3), ("hold-lock", 2), ("write-with-umask", 3):
        FileHandle.standardError.write(Data("Error: store-test-helper needs a debug build for '\(arguments[0])' (it uses @testable import).\n".utf8))
        exit(2)
    #endif
    case ("mix", 6):
        try mix(
            store: arguments[1], worker: Int(arguments[2])!, count: Int(arguments[3])!, seed: UInt64(arguments[4])!,
            streams: arguments[5].split(separator: ",").map { UUID(uuidString: String($0))! })
    case ("write-loop", 4): try writeLoop(store: arguments[1], stream: UUID(uuidString: arguments[2])!, count: Int(arguments[3])!)
    case ("hold-lock", 3): try holdLock(store: arguments[1], seconds: UInt32(arguments[2])!)
    case ("update", 4): try update(store: arguments[1], stream: UUID(uuidString: arguments[2])!, count: Int(arguments[3])!)
    case ("make-v5-store", 3): try V5Fixture.make(from: arguments[1], to: arguments[2])
    case ("take-next", 3) where ["fifo", "priority"].contains(arguments[2]): try takeNext(store: arguments[1], queue: arguments[2])
    default:
        FileHandle.standardError.write(
            Data(
                """
                Usage: store-test-helper ack-writes <store> <seed> <first n>
                       store-test-helper increment <store> <count>
                       store-test-helper hold-lock <store>
                       store-test-helper write-with-umask <store> <octal umask>
                       store-test-helper mix <store> <worker> <count> <seed> <stream ids, comma-separated>
                       store-test-helper write-loop <store> <stream id> <count>
                       store-test-helper hold-lock <store> <seconds>
                       store-test-helper update <store> <stream id> <count>
                       store-test-helper make-v5-store <v3 store> <new folder>
                       store-test-helper take-next <store> <fifo|priority>

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
