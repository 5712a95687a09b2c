import Foundation
import Testing

/// Fault injection on the real binary (issue part 2): system calls of `migrate-store` fail with
/// EIO, ENOSPC, EACCES (libfiu's `fiu-run`, Debian package `fiu-utils`), and a real full disk
/// (a small tmpfs). Every fault: a clear error naming the file and the errno, exit status 74,
/// a consistent store that the next run finishes.
@Suite(.serialized) struct BinaryFaultTests {
    /// Why the libfiu tests skip on a machine without it.
    static let fiuMissing = "fiu-run not found: install libfiu's fiu-utils (apt-get install fiu-utils)"

    /// A libfiu failure point, the errno it sets, and whether it fails every call or a fraction.
    struct Fault: CustomStringConvertible {
        var point: String
        var errno: Int32
        var probability: Double?
        var description: String { "\(point) errno \(errno)" + (probability.map { " p=\($0)" } ?? "") }
        var command: String {
            probability.map { "enable_random name=\(point),probability=\($0),failinfo=\(errno)" } ?? "enable name=\(point),failinfo=\(errno)"
        }
    }

    static let errnoNames: [Int32: String] = [EIO: "EIO", ENOSPC: "ENOSPC", EACCES: "EACCES"]

    static var faults: [Fault] {
        let points = [
            "posix/io/sync/fsync", "posix/io/dir/rename", "posix/io/oc/open", "posix/io/rw/pwrite",
            "posix/io/rw/ftruncate", "posix/io/rw/read", "posix/io/dir/opendir", "posix/io/dir/unlink",
        ]
        var out: [Fault] = []
        for point in points {
            for errno in [EIO, ENOSPC, EACCES] {
                out.append(Fault(point: point, errno: errno, probability: nil))
            }
        }
        // A fraction of the calls: the failure lands in the middle of the migration.
        let rounds = environmentInteger("RELIABILITY_FAULT_ROUNDS", default: 3, full: 20)
        for _ in 0..<rounds {
            for point in ["posix/io/sync/fsync", "posix/io/dir/rename", "posix/io/oc/open"] {
                for (errno, probability) in [(EIO, 0.05), (ENOSPC, 0.1), (EACCES, 0.2)] {
                    out.append(Fault(point: point, errno: errno, probability: probability))
                }
            }
        }
        return out
    }

    @Test(.timeLimit(.minutes(isFullRun ? 120 : 5)))
    func injectedSystemCallFailuresGiveClearErrorExit74AndConsistentStore() throws {
        try SkippedTests.require(Tool.isInstalled("fiu-run"), Self.fiuMissing)
        try #require(!StoreConsistency.migrated.isEmpty, "the reference migration failed")
        var injected = 0, failures: [String] = []
        for fault in Self.faults {
            let scratch = TemporaryDirectory("fiu")
            let store = try scratch.copy(Samples.v1Store, as: "store")
            let run = try Tool.migrate(["migrate", store, "--no-backup"], launcher: ["fiu-run", "-x", "-c", fault.command])
            var problems: [String] = []
            switch run.code {
            case 0 where fault.point.hasSuffix("unlink"):
                break  // a temp file whose removal failed may stay until the next run sweeps it (checked below)
            case 0:
                problems += StoreConsistency.equalsMigrated(store)
            case 74:
                injected += 1
                let name = Self.errnoNames[fault.errno]!
                if !(run.stderr.hasPrefix("Error: Can't ") && run.stderr.contains("(\(name))") && run.stderr.contains("'\(store)")) {
                    problems.append("unclear error: \(run.stderr)")
                }
            default:
                problems.append("exit \(run.code), not 0 or 74: \(run)")
            }
            // After the folder exchange, the store folder is opened and fsynced; if either fails the
            // old folder is kept on purpose (StoreMigrator+Exchange), for the next run's sweep
            // (checked by `resumes` below). A random open failure can land exactly there.
            // A failed unlink while the old folders are removed leaves them (reported as a warning).
            let exchangeFolderMayStay = fault.point.hasSuffix("fsync") || fault.point.hasSuffix("oc/open") || fault.point.hasSuffix("unlink")
            problems += StoreConsistency.check(store, allowLeftovers: fault.point.hasSuffix("unlink"), allowExchangeFolder: exchangeFolderMayStay)
            problems += try StoreConsistency.resumes(store)
            failures += problems.map { "[\(fault)] \($0)" }
        }
        print("fault injection (fiu-run): \(Self.faults.count) runs of 'migrate', \(injected) failed with an injected fault, \(failures.count) failures")
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
        #expect(injected >= Self.faults.count / 2)
    }

    /// Folders next to `path` whose names start with `prefix` (backups, asides).
    static func siblings(of path: String, prefix: String) -> [String] {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).filter { $0.hasPrefix(prefix) }.sorted().map { parent + "/" + $0 }
    }

    @Test(.timeLimit(.minutes(isFullRun ? 120 : 5)))
    func injectedFaultsDuringBackupRestoreAndMigrateWithBackupLeaveNothingPartial() throws {
        try SkippedTests.require(Tool.isInstalled("fiu-run"), Self.fiuMissing)
        let faults = Self.faults.filter { !$0.point.hasSuffix("unlink") && !$0.point.hasSuffix("read") }
        var injected = 0, failures: [String] = []
        let v2Files = rootedTree(Samples.v2Store)
        for fault in faults {
            let fiu = ["fiu-run", "-x", "-c", fault.command]
            let scratch = TemporaryDirectory("fiu-backup")
            let name = Self.errnoNames[fault.errno]!
            func expectClear(_ run: ToolRun, _ what: String) -> Bool {
                if run.code == 0 { return false }
                if run.code != 74 || !run.stderr.hasPrefix("Error: Can't ") || !run.stderr.contains("(\(name))") {
                    failures.append("[\(fault)] \(what): unclear failure: \(run)")
                }
                injected += 1
                return true
            }
            // backup: the destination is absent or a complete, verified backup.
            let store = try scratch.copy(Samples.v2Store, as: "store")
            let backup = scratch("backup")
            let made = !expectClear(try Tool.migrate(["backup", store, backup], launcher: fiu), "backup")
            if FileManager.default.fileExists(atPath: backup) {
                let verify = try Tool.migrate(["verify-backup", backup])
                if verify.code != 0 { failures.append("[\(fault)] backup: a partial backup was left: \(verify)") }
            } else if made {
                failures.append("[\(fault)] backup: exit 0 but no backup")
            }
            if rootedTree(store) != v2Files { failures.append("[\(fault)] backup: the store changed") }
            if !FileManager.default.fileExists(atPath: backup) {
                try #require(try Tool.migrate(["backup", store, backup]).code == 0)
            }
            // restore --force over another store: after the fault the target is the old store or the backup.
            let target = try scratch.copy(Samples.v1Store, as: "target")
            let restored = !expectClear(try Tool.migrate(["restore", backup, target, "--force"], launcher: fiu), "restore")
            let after = rootedTree(target)
            // When even putting the old store back failed, the target is absent and the restore
            // journal is next to it: the next restore (checked below) or open for writing finishes it.
            let journal = (target as NSString).deletingLastPathComponent + "/.target.restore-journal"
            let pendingRecovery = !FileManager.default.fileExists(atPath: target) && FileManager.default.fileExists(atPath: journal)
            if after != rootedTree(Samples.v1Store) && after != v2Files && !pendingRecovery {
                failures.append("[\(fault)] restore: the target is neither old nor restored: \(after.keys.sorted())")
            }
            if restored && after != v2Files { failures.append("[\(fault)] restore: exit 0 but the target is not the backup") }
            let again = try Tool.migrate(["restore", backup, target, "--force"])
            if again.code != 0 || rootedTree(target) != v2Files { failures.append("[\(fault)] restore again without faults: \(again)") }
            // migrate with its backup: the store stays consistent, any backup left is complete.
            let v1 = try scratch.copy(Samples.v1Store, as: "v1")
            _ = expectClear(try Tool.migrate(["migrate", v1], launcher: fiu), "migrate with backup")
            failures += StoreConsistency.check(v1, allowExchangeFolder: fault.point.hasSuffix("fsync")).map { "[\(fault)] migrate with backup: \($0)" }
            for left in Self.siblings(of: v1, prefix: "v1.backup-") {
                let verify = try Tool.migrate(["verify-backup", left])
                if verify.code != 0 { failures.append("[\(fault)] migrate with backup: partial backup '\(left)': \(verify)") }
            }
            failures += try StoreConsistency.resumes(v1).map { "[\(fault)] migrate with backup, then again: \($0)" }
        }
        print(
            "fault injection (fiu-run) on backup, restore --force and migrate with backup: \(faults.count * 3) runs, \(injected) failed with an injected fault, \(failures.count) failures"
        )
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
    }

    @Test func shortWritesStillMigrateCorrectly() throws {
        try SkippedTests.require(Tool.isInstalled("fiu-run"), Self.fiuMissing)
        let scratch = TemporaryDirectory()
        let store = try scratch.copy(Samples.v1Store, as: "store")
        let run = try Tool.migrate(["migrate", store, "--no-backup"], launcher: ["fiu-run", "-x", "-c", "enable name=posix/io/rw/write/reduce"])
        #expect(run.code == 0, "\(run)")
        #expect(StoreConsistency.equalsMigrated(store).isEmpty)
    }

    @Test func readFaultsOfReadOnlyCommandsExit74AndWriteNothing() throws {
        try SkippedTests.require(Tool.isInstalled("fiu-run"), Self.fiuMissing)
        let scratch = TemporaryDirectory()
        let store = try scratch.copy(Samples.v1Store, as: "store")
        let migrated = try scratch.copy(Samples.v1Store, as: "migrated")
        try #require(try Tool.migrate(["migrate", migrated, "--no-backup"]).code == 0)
        let before = rootedTree(migrated, includeDotNames: true)
        for (command, target) in [("status", store), ("plan", store), ("status", migrated), ("verify", migrated)] {
            for point in ["posix/io/rw/read", "posix/io/oc/open", "posix/io/dir/opendir"] {
                let run = try Tool.migrate([command, target], launcher: ["fiu-run", "-x", "-c", "enable name=\(point),failinfo=\(EIO)"])
                #expect(run.code == 74 && run.stderr.hasPrefix("Error: Can't ") && run.stderr.contains("(EIO)"), "\(command) \(point): \(run)")
            }
        }
        #expect(rootedTree(store, includeDotNames: true) == rootedTree(Samples.v1Store, includeDotNames: true))
        #expect(rootedTree(migrated, includeDotNames: true) == before)
    }

    // MARK: A real full disk

    @Test(.timeLimit(.minutes(isFullRun ? 120 : 3)), arguments: [false, true])
    func fullDiskGivesNoSpaceErrorAndLeavesStoreConsistent(withBackup: Bool) throws {
        let scratch = TemporaryDirectory()
        let disk = try SmallDisk(at: scratch("disk"))
        defer { disk.unmount() }
        let mount = disk.path
        try #require(!StoreConsistency.migrated.isEmpty, "the reference migration failed")
        var noSpace = 0, succeeded = 0, failures: [String] = []
        // Leave 0, 1, 2, ... pages free, until the migration fits.
        for pages in 0...60 {
            let store = mount + "/store"
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: mount)) ?? [] {
                try FileManager.default.removeItem(atPath: mount + "/" + entry)
            }
            try Samples.copy("v1-store", to: store)
            try fill(mount + "/filler", leavingFree: pages * 4096)
            let run = try Tool.migrate(["migrate", store] + (withBackup ? [] : ["--no-backup"]))
            var problems: [String] = []
            for left in Self.siblings(of: store, prefix: "store.backup-") {
                let verify = try Tool.migrate(["verify-backup", left])
                if verify.code != 0 { problems.append("partial backup '\(left)': \(verify)") }
            }
            if run.code == 74 {
                noSpace += 1
                if !(run.stderr.hasPrefix("Error: Can't ") && run.stderr.contains("the disk is full (ENOSPC)")) {
                    problems.append("unclear error: \(run.stderr)")
                }
            } else if run.code == 0 {
                succeeded += 1
            } else {
                problems.append("exit \(run.code): \(run)")
            }
            problems += StoreConsistency.check(store)
            try FileManager.default.removeItem(atPath: mount + "/filler")
            problems += try StoreConsistency.resumes(store)
            failures += problems.map { "[\(pages) pages free] \($0)" }
            if run.code == 0 { break }
        }
        print(
            "full disk (tmpfs)\(withBackup ? ", migrate with backup" : ""): \(noSpace) migrations stopped by ENOSPC at increasing free space, \(succeeded) fitted; \(failures.count) failures"
        )
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
        #expect(noSpace > 3 && succeeded == 1)
    }

    /// Fills the file system of `path` with a file until `free` bytes are left.
    private func fill(_ path: String, leavingFree free: Int) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x55, count: 4096)
        var written = 0
        while true {
            let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            written += n
        }
        try #require(ftruncate(fd, off_t(max(0, written - free))) == 0)
    }
}
