import Foundation
import JSONStore
import Schema
import Testing

/// Concurrency (issue part 4): several processes on one store. No lost update, queue invariants
/// hold, and a writer that can't get the lock is told who holds it.
@Suite(.serialized) struct ConcurrencyTests {
    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }

    /// A v2 store with `count` work streams, made through the Store API.
    static func v2Store(_ path: String, streams count: Int) throws -> [UUID] {
        let store = try Store.create(at: path)
        return try (1...count).map { n in try store.createWorkStream(id: id(n), workingDirectory: "/work/\(n)").fields.id }
    }

    /// Queue invariants: `queue.json` lists each stream at most once per queue, only existing
    /// streams, and the mirror a v1 reader sees has FIFO positions 1...n and equals `queue.json`.
    static func queueInvariants(_ path: String) throws -> [String] {
        let store = try Store.open(at: path, options: .readOnly)
        let summaries = try store.listWorkStreams()
        guard let queue = try store.queueDocument() else { return ["queue.json missing"] }
        var failures = summaries.problems.map(\.message)
        let fifo = queue.fifo.map(\.workStreamID), priority = queue.priority.map(\.workStreamID)
        if Set(fifo).count != fifo.count { failures.append("duplicate FIFO entries: \(fifo)") }
        if Set(priority).count != priority.count { failures.append("duplicate priority entries") }
        let ids = Set(summaries.items.map(\.id))
        if !Set(fifo + priority).isSubset(of: ids) { failures.append("queue.json names a missing work stream") }
        let positions = summaries.items.filter(\.queueKeys.isInQueue).map { Int($0.queueKeys.queuePosition) }.sorted()
        if positions != Array(1..<(positions.count + 1)) { failures.append("mirror FIFO positions \(positions)") }
        if let failure = RollbackCheck.checkMirror(sessions: summaries.items.map(\.queueSummary), queue: queue) {
            failures.append("mirror disagrees with queue.json: \(failure)")
        }
        return failures
    }

    @Test(.timeLimit(.minutes(isFullRun ? 120 : 3)))
    func processesMixingQueueMovesAndUpdatesLoseNoUpdate() throws {
        let seed = environmentSeed()
        let workers = 4, rounds = environmentInteger("RELIABILITY_MIX_ROUNDS", default: 40, full: 250)
        let scratch = TemporaryDirectory()
        let path = scratch("store")
        let streams = try Self.v2Store(path, streams: 6)
        let list = streams.map(\.uuidString).joined(separator: ",")
        let children = try (0..<workers).map { worker in
            try ChildProcess(["mix", path, "\(worker)", "\(rounds)", "\(seed &+ UInt64(worker))", list])
        }
        for child in children {
            #expect(child.lines() == ["done \(rounds)"])
            #expect(child.wait().status == 0)
        }
        let store = try Store.open(at: path, options: .readOnly)
        #expect(try store.summary(streams[0]).unreadCount == Int32(workers * rounds), "RELIABILITY_SEED=\(seed)")
        for worker in 0..<workers {
            #expect(try store.summary(streams[worker + 1]).messageCount == Int32(rounds), "worker \(worker), RELIABILITY_SEED=\(seed)")
        }
        let failures = try Self.queueInvariants(path)
        #expect(failures.isEmpty, "RELIABILITY_SEED=\(seed): \(failures)")
        #expect(temporaryLeftovers(path).isEmpty)
        print("concurrency [mix]: \(workers) processes × \(rounds) rounds (queue change + 2 updates), RELIABILITY_SEED=\(seed), \(failures.count) failures")
    }

    /// A v1 store with `count` work streams (copies of a sample's smallest document), big enough
    /// that migrating it takes a while.
    static func largeV1Store(_ path: String, streams count: Int) throws -> [UUID] {
        try Samples.copy("v1-store", to: path)
        let template = try String(contentsOfFile: Samples.v1Store + "/sessions/d664cf84-65da-4768-8ba1-acf742bdc1f1.json", encoding: .utf8)
        var ids: [UUID] = []
        for n in 1...count {
            let id = Self.id(n)
            ids.append(id)
            let text = template.replacingOccurrences(of: "d664cf84-65da-4768-8ba1-acf742bdc1f1", with: id.uuidString.lowercased())
            try text.write(toFile: path + "/sessions/\(id.uuidString.lowercased()).json", atomically: false, encoding: .utf8)
        }
        return ids
    }

    @Test(.timeLimit(.minutes(isFullRun ? 120 : 3)))
    func migrateRacingAnApplicationWriterLosesNoUpdateAndNamesTheHolder() throws {
        let scratch = TemporaryDirectory()
        let path = scratch("store")
        let ids = try Self.largeV1Store(path, streams: environmentInteger("RELIABILITY_RACE_STREAMS", default: 200))
        let writes = 60
        let writer = try ChildProcess(["write-loop", path, ids[0].uuidString, "\(writes)"])
        // Let the writer see the v1 store first, then migrate under it.
        #expect(writer.readLine() == "v1")
        let migrate = try ChildProcess(executable: BuiltTool.executable, ["migrate", path, "--no-backup"])
        let migrateOutput = migrate.lines()
        let migrateStatus = migrate.wait().status
        let lines = writer.lines()
        #expect(writer.wait().status == 0)
        #expect(migrateStatus == 0, "\(migrateOutput)")

        let acks = lines.filter { $0.hasPrefix("ack ") }
        let locked = lines.filter { $0.hasPrefix("locked ") }
        #expect(acks == (1...writes).map { "ack \($0)" })
        #expect(lines.last == "done")
        // The holder is `migrate` (no other process of the tool runs for it), named as holding the
        // lock, or as its last recorded holder when it released the lock between the writer's
        // try and its look at who holds it; or another writer of this test.
        for line in locked {
            let migrateNamed = "process \(migrate.pid) (migrate-store "
            #expect(
                line.contains("it is locked by " + migrateNamed) || line.contains("(reliability-helper")
                    || line.contains("it was locked when this tried, and is free now (the lock file names " + migrateNamed),
                "the lock error does not name its holder: \(line)")
        }
        let store = try Store.open(at: path, options: .readOnly)
        #expect(store.compatibility == .current)
        #expect(try store.summary(ids[0]).unreadCount == Int32(writes))
        let verification = try StoreVerifier(store: store).verify()
        #expect(verification.passed, "\(verification.unreadable.map(\.message)) \(verification.integrity) \(verification.failures)")
        #expect(try Self.queueInvariants(path).isEmpty)
        print(
            "concurrency [migrate vs writer]: \(ids.count) streams migrated while a writer made \(writes) updates; "
                + "the writer met the lock \(locked.count) times and the v1 store \(lines.filter { $0 == "v1" }.count) times")
    }

    @Test(.timeLimit(.minutes(isFullRun ? 120 : 3)))
    func backupsDuringContinuousWritesAreConsistentSnapshotsAndLoseNoUpdate() throws {
        try SkippedTests.require(Tool.implements("backup") && Tool.implements("verify-backup"), "this build has no 'backup' command")
        let scratch = TemporaryDirectory()
        let path = scratch("store")
        let ids = try Self.v2Store(path, streams: 5)
        let writes = environmentInteger("RELIABILITY_BACKUP_WRITES", default: 150, full: 1000)
        let writer = try ChildProcess(["write-loop", path, ids[0].uuidString, "\(writes)"])
        var backups: [String] = []
        var failures: [String] = []
        for n in 1...6 {
            let destination = scratch("backup-\(n)")
            let run = try Tool.migrate(["backup", path, destination])
            if run.code == 0 { backups.append(destination) } else { failures.append("backup \(n): \(run)") }
            usleep(20_000)
        }
        let lines = writer.lines()
        #expect(writer.wait().status == 0)
        #expect(lines.filter { $0.hasPrefix("ack ") } == (1...writes).map { "ack \($0)" })
        for line in lines where line.hasPrefix("locked ") && !line.contains("(migrate-store ") {
            failures.append("the lock error does not name the backup as its holder: \(line)")
        }
        var previous: Int32 = -1
        for backup in backups {
            let verify = try Tool.migrate(["verify-backup", backup])
            if verify.code != 0 { failures.append("verify-backup '\(backup)': \(verify)") }
            // Each backup is a consistent snapshot: every document whole, the counter between the
            // previous backup's and the final value.
            let copy = scratch("open-" + URL(fileURLWithPath: backup).lastPathComponent)
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
            for relative in ["store.json", "settings.json", "queue.json", "sessions", "user-sessions"] {
                try FileManager.default.copyItem(atPath: backup + "/" + relative, toPath: copy + "/" + relative)
            }
            let snapshot = try Store.open(at: copy, options: .readOnly)
            let listing = try snapshot.listWorkStreams()
            if !listing.problems.isEmpty { failures.append("'\(backup)': \(listing.problems.map(\.message))") }
            let counter = try snapshot.summary(ids[0]).unreadCount
            if counter < previous || counter > Int32(writes) { failures.append("'\(backup)': counter \(counter) after \(previous)") }
            previous = counter
        }
        let store = try Store.open(at: path, options: .readOnly)
        #expect(try store.summary(ids[0]).unreadCount == Int32(writes))
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(backups.count == 6)
        print(
            "concurrency [backup vs writer]: \(backups.count) backups taken and verified while a writer made \(writes) updates "
                + "(it met the lock \(lines.filter { $0.hasPrefix("locked ") }.count) times); \(failures.count) failures")
    }

    @Test(.timeLimit(.minutes(isFullRun ? 120 : 1)))
    func lockedStoreErrorNamesItsHolderInLibraryAndTool() throws {
        let scratch = TemporaryDirectory()
        let path = scratch("store")
        _ = try Self.v2Store(path, streams: 1)
        let holder = try ChildProcess(["hold-lock", path, "12"])
        #expect(holder.readLine() == "locked")

        let options = Store.Options(readOnly: false, tool: "t", version: "1", lockTimeout: .zero)
        let error = #expect(throws: StoreError.self) { _ = try Store.open(at: path, options: options) }
        #expect(error?.code == .locked)
        #expect(error?.message.hasPrefix("Can't write '\(path)': it is locked by process \(holder.pid) (reliability-helper 1.0) since ") == true)
        #expect(try StoreLock.currentHolder(store: path)?.pid == holder.pid)

        let status = try Tool.migrate(["status", path])
        #expect(status.stdout.contains("held by process \(holder.pid) (reliability-helper 1.0)"), "\(status)")
        // `migrate` waits for the lock (10 s by default), then exits 75 naming the holder.
        let v1 = try scratch.copy(Samples.v1Store, as: "v1")
        let v1Holder = try ChildProcess(["hold-lock", v1, "12"])
        #expect(v1Holder.readLine() == "locked")
        let run = try Tool.migrate(["migrate", v1, "--no-backup"])
        #expect(run.code == 75, "\(run)")
        #expect(run.stderr.contains("it is locked by process \(v1Holder.pid) (reliability-helper 1.0) since "), "\(run.stderr)")
        #expect(rootedTree(v1) == rootedTree(Samples.v1Store))
        kill(holder.pid, SIGKILL); kill(v1Holder.pid, SIGKILL)
        holder.wait(); v1Holder.wait()
    }

    /// `backup` and `restore --force` wait for a lock another process holds (up to 10 s) and say
    /// so on standard error, once, naming the holder; then they do their work. Standard output,
    /// and the JSON object with `--json`, are what they are without a wait.
    @Test(.timeLimit(.minutes(isFullRun ? 120 : 1)))
    func backupAndRestoreWaitingForAHeldLockSayWhoHoldsItOnStandardError() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copy(Samples.v4Store, as: "store")
        let unwaited = try Tool.migrate(["backup", store, scratch("b0")])
        #expect(unwaited.code == 0 && unwaited.stderr == "", "\(unwaited)")

        func waitSentence(_ pid: Int32, _ folder: String) -> (prefix: String, suffix: String) {
            ("Waiting for process \(pid) (reliability-helper 1.0) since ", " to release '\(folder)' (up to 10 s).\n")
        }
        let backupHolder = try ChildProcess(["hold-lock", store, "2"])
        #expect(backupHolder.readLine() == "locked")
        let backup = try Tool.migrate(["backup", store, scratch("b1")])
        #expect(backup.code == 0, "\(backup)")
        let (prefix, suffix) = waitSentence(backupHolder.pid, store)
        #expect(backup.stderr.hasPrefix(prefix) && backup.stderr.hasSuffix(suffix), "\(backup.stderr)")
        #expect(backup.stderr.filter { $0 == "\n" }.count == 1, "said once")
        #expect(backup.stdout == unwaited.stdout.replacingOccurrences(of: scratch("b0"), with: scratch("b1")))
        #expect(backupHolder.readLine() == "released")
        backupHolder.wait()

        let restoreHolder = try ChildProcess(["hold-lock", store, "2"])
        #expect(restoreHolder.readLine() == "locked")
        let restore = try Tool.migrate(["--json", "restore", "--force", scratch("b1"), store])
        #expect(restore.code == 0, "\(restore)")
        let restoreSentence = waitSentence(restoreHolder.pid, store)
        #expect(restore.stderr.hasPrefix(restoreSentence.prefix) && restore.stderr.hasSuffix(restoreSentence.suffix), "\(restore.stderr)")
        #expect(restore.stdout.hasPrefix("{") && !restore.stdout.contains("Waiting for "), "\(restore.stdout)")
        #expect(restoreHolder.readLine() == "released")
        restoreHolder.wait()
        #expect(rootedTree(store) == rootedTree(Samples.v4Store))
    }
}
