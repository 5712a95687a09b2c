import Foundation
import JSONStore
import StoreGenerator
import Testing

/// `restore --force` killed with SIGKILL at seeded random instants: after recovery (what the next
/// `restore` or a store open runs first), the target is byte-identical to the old store or to
/// the backup, never a mix, and a replaced old store is intact in its aside folder.
///
/// Three rounds in four kill at a random instant of the whole run; every fourth waits for the
/// restore journal to appear and kills within 2 ms, to land inside the swap. The seed is printed; set `BACKUP_KILL_SEED` to repeat a run exactly.
@Suite struct BackupRestoreKillTests {
    static let kills = 32

    @Test func restoreKilledAtRandomInstantsLeavesTheOldOrTheNewStoreNeverAMix() throws {
        let seed =
            ProcessInfo.processInfo.environment["BACKUP_KILL_SEED"].flatMap(UInt64.init)
            ?? UInt64(Date().timeIntervalSince1970 * 1000)
        print("BackupRestoreKillTests: seed \(seed) (set BACKUP_KILL_SEED=\(seed) to repeat)")
        var random = SeededGenerator(seed: seed)
        let scratch = TemporaryDirectory()
        try makeLargeStore(at: scratch("big"), sessions: 40, seed: seed)
        #expect(try BuiltTool.run(["backup", scratch("big"), scratch("backup")]).code == 0)
        let new = tree(scratch("big"), everyKind: true)
        let old = tree(Samples.v1Store, everyKind: true)

        // How long an uninterrupted restore takes (the longest of three runs, fsync times vary).
        // Half the kills fall anywhere in [0, 1.1 × that], half in its last part [0.75, 1.1 ×],
        // where the swap happens.
        let clock = ContinuousClock()
        var full = Duration.zero
        for index in 0..<3 {
            let timed = try scratch.copySample("v1-store", as: "timed-\(index)")
            let start = clock.now
            #expect(try BuiltTool.run(["restore", scratch("backup"), timed, "--force"]).code == 0)
            full = max(full, clock.now - start)
        }

        var outcomes = (old: 0, new: 0, killedWhileRunning: 0)
        for round in 0..<Self.kills {
            let folder = scratch("round-\(round)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let target = folder + "/store"
            try Samples.copy("v1-store", to: target)
            let delay = full * Double.random(in: round % 2 == 0 ? 0...1.1 : 0.75...1.1, using: &random)

            let process = Process()
            process.executableURL = BuiltTool.executable
            process.arguments = ["restore", scratch("backup"), target, "--force"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if round % 4 == 3 {
                // Aim at the swap: wait until the journal appears, then kill within 0–2 ms.
                let journal = folder + "/.store.restore-journal"
                let deadline = clock.now + full * 3
                while process.isRunning && !FileManager.default.fileExists(atPath: journal) && clock.now < deadline { usleep(100) }
                usleep(UInt32.random(in: 0...2000, using: &random))
            } else {
                usleep(UInt32(delay.components.seconds * 1_000_000 + delay.components.attoseconds / 1_000_000_000_000))
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                outcomes.killedWhileRunning += 1
            }
            process.waitUntilExit()

            _ = try Restore.recoverInterrupted(target: target, tool: "test", version: "0")
            let result = tree(target, everyKind: true)
            let asides = folderNames(folder).filter { $0.hasPrefix("store.replaced-") }
            if result == new {
                outcomes.new += 1
                #expect(asides.count == 1, "round \(round), delay \(delay): \(folderNames(folder))")
                if let aside = asides.first { #expect(tree(folder + "/" + aside, everyKind: true) == old, "round \(round): the aside differs") }
            } else {
                #expect(result == old, "round \(round), seed \(seed), delay \(delay): the target is neither the old nor the new store")
                #expect(asides.isEmpty)
                outcomes.old += 1
            }
            if round % 11 == 0 {
                // The next restore run finishes the job whatever the kill left behind.
                #expect(try BuiltTool.run(["restore", scratch("backup"), target, "--force"]).code == 0)
                #expect(tree(target, everyKind: true) == new)
                #expect(folderNames(folder).allSatisfy { !$0.hasPrefix(".store.restoring-") && !$0.hasPrefix(".store.restore-journal") })
            }
        }
        print(
            "BackupRestoreKillTests: seed \(seed): \(Self.kills) runs, \(outcomes.killedWhileRunning) killed while running; "
                + "\(outcomes.old) left the old store, \(outcomes.new) the new one; none a mix")
        #expect(outcomes.old + outcomes.new == Self.kills)
    }
}
