import Foundation
import StoreGenerator
import Testing

/// `migrate-store migrate` killed with SIGKILL at random instants (spec §6, §9 "resumable"):
/// every file is whole (old or new), every older reader reads the store with its queue, and the
/// next run finishes it byte-identical to an uninterrupted migration (migration timestamps aside).
/// From a v1 store (the whole chain to v4 in one run) and from the same store at v3 (the v3 → v4
/// step every v3 user takes, spec §11).
@Suite(.serialized) struct KillTests {
    @Test(.timeLimit(.minutes(isFullRun ? 120 : 5)), arguments: [1, 3])
    func killedMigrationIsReadableByOlderReadersAndResumesIdentically(from version: Int) throws {
        let seed = environmentSeed()
        let kills = environmentInteger("RELIABILITY_KILLS", default: 15, full: 200)
        var random = SeededGenerator(seed: seed)
        let scratch = TemporaryDirectory()
        let source = scratch("v1")
        _ = try ConcurrencyTests.largeV1Store(source, streams: environmentInteger("RELIABILITY_KILL_STREAMS", default: 120))
        if version > 1 {
            let run = try Tool.migrate(["migrate", source, "--no-backup", "--to", String(version)])
            try #require(run.code == 0, "the store could not be taken to v\(version): \(run)")
        }
        let start = Date()
        let oracle = StoreConsistency(v1Store: source)
        let duration = Date().timeIntervalSince(start)
        try #require(!oracle.migrated.isEmpty, "the reference migration failed")

        var midway = 0, failures: [String] = []
        for round in 0..<kills {
            let store = scratch("round-\(round)")
            try FileManager.default.copyItem(atPath: source, toPath: store)
            let child = try ChildProcess(executable: BuiltTool.executable, ["migrate", store, "--no-backup"])
            if round % 2 == 0 {
                // Anywhere in the run, start-up included.
                usleep(UInt32(Double(random.next() % 1000) / 1000 * duration * 1_000_000))
            } else {
                // In the write phase: once the first temp file or exchange folder appears, within the next 3 ms.
                let deadline = Date().addingTimeInterval(10)
                while temporaryLeftovers(store).isEmpty && child.process.isRunning && Date() < deadline { usleep(200) }
                usleep(UInt32(random.next() % 3000))
            }
            kill(child.pid, SIGKILL)
            _ = child.lines()
            child.wait()
            let killed = child.process.terminationReason == .uncaughtSignal
            let files = rootedTree(store)
            let writing = !temporaryLeftovers(store).isEmpty || files != oracle.original
            if killed && writing && files["/store.json"] == oracle.original["/store.json"] { midway += 1 }
            var problems = oracle.check(store, allowLeftovers: true)
            problems += try oracle.resumes(store)
            failures += problems.prefix(5).map { "round \(round) (killed: \(killed)), RELIABILITY_SEED=\(seed): \($0)" }
            try FileManager.default.removeItem(atPath: store)
        }
        print(
            "kill -9 during migrate from v\(version): \(kills) kills (\(midway) in the middle of writing), RELIABILITY_SEED=\(seed), \(failures.count) failures"
        )
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
        #expect(midway > 0, "no kill landed in the middle of a migration; RELIABILITY_SEED=\(seed)")
    }
}
