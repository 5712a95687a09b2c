import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `migrate-store migrate` killed with SIGKILL at random instants (spec §6 "resumable"): every
/// file is whole (old or new), a v1 reader reads the store with its queue, and the next run
/// finishes it byte-identical to an uninterrupted migration (migration timestamps aside).
@Suite(.serialized) struct KillTests {
    @Test(.timeLimit(.minutes(isFullRun ? 120 : 5)))
    func killedMigrationIsReadableByV1AndResumesIdentically() throws {
        let seed = environmentSeed()
        let kills = environmentInteger("RELIABILITY_KILLS", default: 15, full: 200)
        var random = SplitMix64(seed: seed)
        let scratch = Scratch()
        let source = scratch("v1")
        _ = try ConcurrencyTests.largeV1Store(source, streams: environmentInteger("RELIABILITY_KILL_STREAMS", default: 120))
        let start = Date()
        let oracle = StoreConsistency(v1Store: source)
        let duration = Date().timeIntervalSince(start)
        try #require(!oracle.migrated.isEmpty, "the reference migration failed")

        var midway = 0, failures: [String] = []
        for round in 0..<kills {
            let store = scratch("round-\(round)")
            try FileManager.default.copyItem(atPath: source, toPath: store)
            let child = try Child(Tool.migrateStore, ["migrate", store, "--no-backup"])
            usleep(UInt32(Double(random.next() % 1000) / 1000 * duration * 1_000_000))
            kill(child.pid, SIGKILL)
            _ = child.lines()
            child.wait()
            let killed = child.process.terminationReason == .uncaughtSignal
            let files = tree(store)
            // In the middle of writing: documents already replaced, or temp files staged (most of a
            // run since the migration stages every work stream before renaming any).
            let staged = !temporaryLeftovers(store).isEmpty
            if killed && (files != oracle.original || staged) && files["/store.json"] == oracle.original["/store.json"] { midway += 1 }
            var problems = oracle.check(store, allowLeftovers: true)
            problems += try oracle.resumes(store)
            failures += problems.prefix(5).map { "round \(round) (killed: \(killed)), RELIABILITY_SEED=\(seed): \($0)" }
            try FileManager.default.removeItem(atPath: store)
        }
        print("kill -9 during migrate: \(kills) kills (\(midway) in the middle of writing), RELIABILITY_SEED=\(seed), \(failures.count) failures")
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
        #expect(midway > 0, "no kill landed in the middle of a migration; RELIABILITY_SEED=\(seed)")
    }
}
