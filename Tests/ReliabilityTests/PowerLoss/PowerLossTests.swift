import Foundation
import Schema
import Testing

@testable import JSONStore

/// Simulated power loss (issue part 1): every crash point, every allowed loss pattern, for small
/// workloads; then the same harness against mutants of the write path, each of which it must catch.
@Suite(.serialized) struct PowerLossTests {
    typealias W = PowerLossWorkloads

    /// Three document writes through the Store API: a message appended to a 6 KB document (now
    /// ~12 KB, three 4 KiB blocks), a new work stream, a new customisation.
    static func documentWrites() -> [(SystemCalls) throws -> Void] {
        [
            { try W.opened($0).appendMessages(W.id(1), [W.message(2, in: W.id(1), bytes: 6000)]) },
            { try W.opened($0).createWorkStream(id: W.id(9), workingDirectory: "/work/new", at: W.t0) },
            { try W.opened($0).setCustomName(W.id(2), "Renamed", at: W.t0) },
        ]
    }

    /// One batch of three files in two folders.
    static func batchCommit(_ initial: ModelState) throws -> [(SystemCalls) throws -> Void] {
        var settings = SettingsV1.defaults
        settings.queueEnabled = true
        settings.schemaVersion = 3
        let sessions = W.store + "/sessions"
        let files = initial.files()
        let a = try WorkStreamV3(bytes: files[sessions + "/" + W.id(1).lowercased + ".json"]!, acceptingNewerVersions: true)
        let b = try WorkStreamV3(bytes: files[sessions + "/" + W.id(2).lowercased + ".json"]!, acceptingNewerVersions: true)
        var a2 = a, b2 = b
        a2.fields.preview = "batch"
        b2.fields.preview = String(repeating: "b", count: 5000)
        let changes = [
            FileChange(directory: sessions, name: W.id(1).lowercased + ".json", bytes: a2.encoded),
            FileChange(directory: W.store, name: "settings.json", bytes: settings.encoded),
            FileChange(directory: sessions, name: W.id(2).lowercased + ".json", bytes: b2.encoded),
        ]
        return [{ try BatchCommit.commit(changes, system: $0) }]
    }

    /// One batch of nine files (at `BatchCommit.syncFileSystemThreshold` and above, the temp files
    /// are made durable by one `syncfs` instead of an fsync each).
    static func largeBatchCommit(_ initial: ModelState) throws -> [(SystemCalls) throws -> Void] {
        let sessions = W.store + "/sessions"
        let files = initial.files()
        var changes: [FileChange] = []
        for n in 1...9 {
            var session = try WorkStreamV3(bytes: files[sessions + "/" + W.id(n).lowercased + ".json"]!, acceptingNewerVersions: true)
            session.fields.preview = "large batch \(n)"
            changes.append(FileChange(directory: sessions, name: W.id(n).lowercased + ".json", bytes: session.encoded))
        }
        return [{ try BatchCommit.commit(changes, system: $0) }]
    }

    /// Queue moves on a five-stream store: the head of the FIFO moves to the end, a stream joins
    /// the priority queue, another leaves the FIFO queue.
    static func queueMoves() -> [(SystemCalls) throws -> Void] {
        [
            { try W.opened($0).enqueue(W.id(1), at: W.t0.addingTimeInterval(100)) },
            { try W.opened($0).addToPriorityQueue(W.id(4), priority: 1, at: W.t0) },
            { try W.opened($0).removeFromQueue(W.id(2)) },
        ]
    }

    /// One migration to the default target: from a v1 store, both steps of the chain in one run.
    static func migration() -> [(SystemCalls) throws -> Void] {
        [
            { system in
                let store = try Store.open(at: W.store, options: W.options, system: system)
                _ = try StoreMigrator(store: store).migrate(toolVersion: "1")
            }
        ]
    }

    /// One migration whose customisations are committed by a folder exchange (issue 19), the
    /// threshold lowered to the sample's two customisations.
    static func migrationExchangingCustomisations() -> [(SystemCalls) throws -> Void] {
        [
            { system in
                let store = try Store.open(at: W.store, options: W.options, system: system)
                var migrator = StoreMigrator(store: store)
                migrator.customisationsExchangeThreshold = 1
                _ = try migrator.migrate(toolVersion: "1")
            }
        ]
    }

    /// The chain in two invocations: `--to 2`, then without a target (v2 → v3).
    static func migrationInTwoRuns() -> [(SystemCalls) throws -> Void] {
        [
            { system in
                let store = try Store.open(at: W.store, options: W.options, system: system)
                _ = try StoreMigrator(store: store).migrate(to: 2, toolVersion: "1")
            }
        ] + migration()
    }

    /// A backup of the store (hard links where possible, else copies) to `/store.backup-1`.
    static func backup(hardLinks: Bool) -> [(SystemCalls) throws -> Void] {
        [
            {
                _ = try Backup.create(
                    store: W.store, destination: W.backup, tool: "reliability-tests", version: "1",
                    options: Backup.Options(allowHardLinks: hardLinks, lockTimeout: .zero), system: $0)
            }
        ]
    }

    /// A store with a backup at `/store.backup-1` taken before one more message was appended.
    static func storeWithOlderBackup() throws -> ModelState {
        let model = ModelFileSystem(try W.v2Store(streams: 3))
        let system = SystemCalls(calls: model)
        _ = try Backup.create(
            store: W.store, destination: W.backup, tool: "reliability-tests", version: "1",
            options: Backup.Options(allowHardLinks: false, lockTimeout: .zero), system: system)
        try W.opened(system).appendMessages(W.id(2), [W.message(3, in: W.id(2), bytes: 300)])
        model.syncEverything()
        return model.current
    }

    /// Restoring that backup over the store (`--force`: the old store is kept aside).
    static func restore() -> [(SystemCalls) throws -> Void] {
        [
            {
                _ = try Restore.run(
                    backup: W.backup, target: W.store, tool: "reliability-tests", version: "1",
                    options: Restore.Options(force: true), system: $0)
            }
        ]
    }

    static let exportFile = "/export.jsonl", imported = "/imported"

    static func export() -> [(SystemCalls) throws -> Void] {
        [
            {
                _ = try StoreExport.write(
                    store: W.store, to: .file(exportFile), tool: "reliability-tests", version: "1",
                    lockTimeout: .zero, system: $0)
            }
        ]
    }

    /// A store and its export at `/export.jsonl`.
    static func storeWithExport() throws -> ModelState {
        let model = ModelFileSystem(try W.v2Store(streams: 3))
        for operation in export() { try operation(SystemCalls(calls: model)) }
        model.syncEverything()
        return model.current
    }

    static func importExport() -> [(SystemCalls) throws -> Void] {
        [
            {
                _ = try StoreImport.read(
                    from: .file(exportFile), into: imported, tool: "reliability-tests", version: "1",
                    force: false, system: $0)
            }
        ]
    }

    static func report(_ name: String, _ outcome: PowerLossHarness.Outcome, seed: UInt64) {
        print(
            "power loss [\(name)]: \(outcome.crashPoints) crash points, \(outcome.statesChecked) crash states checked "
                + "(\(outcome.sampledCrashPoints) crash points sampled), \(outcome.failures.count) failures, RELIABILITY_SEED=\(seed)")
    }

    @Test func acknowledgedDocumentWritesSurvivePowerLossWhole() throws {
        let harness = PowerLossHarness()
        let outcome = harness.run(initial: try W.v2Store(streams: 3), operations: Self.documentWrites(), extraCheck: W.storeOpensAndReads)
        Self.report("document writes", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        #expect(outcome.crashPoints > 15)
    }

    @Test func batchCommitLeavesEveryFileOldOrNewAfterPowerLoss() throws {
        let harness = PowerLossHarness()
        let initial = try W.v2Store(streams: 3)
        let outcome = harness.run(initial: initial, operations: try Self.batchCommit(initial), extraCheck: W.storeOpensAndReads)
        Self.report("batch commit", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
    }

    @Test(arguments: [true, false])
    func largeBatchCommitLeavesEveryFileOldOrNewAfterPowerLoss(syncFS: Bool) throws {
        var harness = PowerLossHarness()
        harness.seam = { model in
            model.supportsSyncFS = syncFS; return model
        }
        // Nine pending renames and nine pending files give many states per crash point: sampled
        // above the limit (RELIABILITY_CRASH_LIMIT), and checked with the cheaper read-only open.
        harness.limitPerCrashPoint = environmentInteger("RELIABILITY_CRASH_LIMIT", default: 48, full: 1024)
        let initial = try W.v2Store(streams: 9)
        let outcome = harness.run(initial: initial, operations: try Self.largeBatchCommit(initial), extraCheck: W.storeReads)
        Self.report("batch of 9 files, \(syncFS ? "syncfs" : "no syncfs: fsync each")", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
    }

    @Test(arguments: [true, false])
    func backupCutByPowerLossIsWholeOrAbsentAndStoreIntact(hardLinks: Bool) throws {
        let harness = PowerLossHarness()
        let outcome = harness.run(initial: try W.v2Store(streams: 3), operations: Self.backup(hardLinks: hardLinks)) { crash in
            W.storeReads(crash) + W.backupIsWholeOrAbsent(crash)
        }
        Self.report("backup, \(hardLinks ? "hard links" : "copies")", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        #expect(outcome.versions.last!.keys.contains { $0.hasPrefix(W.backup + "/") })
    }

    @Test func restoreCutByPowerLossLeavesOldOrRestoredStoreAfterRecovery() throws {
        var harness = PowerLossHarness()
        // Mid-swap the store's folder may be absent until the next writable open finishes the restore.
        harness.checkFilesBeforeRecovery = false
        let outcome = harness.run(initial: try Self.storeWithOlderBackup(), operations: Self.restore(), extraCheck: W.restoreRecovers)
        Self.report("restore", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        let restored = outcome.versions.last!.filter { $0.key.hasPrefix(W.store + "/") }
        let backedUp = outcome.versions[0].filter { $0.key.hasPrefix(W.backup + "/") }
        #expect(restored.count + 2 == backedUp.count)  // the backup also holds SHA256SUMS and backup.json
    }

    @Test func exportCutByPowerLossIsWholeOrAbsent() throws {
        let harness = PowerLossHarness()
        let outcome = harness.run(initial: try W.v2Store(streams: 3), operations: Self.export(), extraCheck: W.storeReads)
        Self.report("export", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        #expect(outcome.versions.last![Self.exportFile] != nil)
    }

    @Test func importCutByPowerLossLeavesNoStoreOrTheWholeOne() throws {
        var harness = PowerLossHarness()
        harness.checkFilesBeforeRecovery = false
        let outcome = harness.run(initial: try Self.storeWithExport(), operations: Self.importExport()) { crash in
            W.importIsWholeOrAbsent(crash, target: Self.imported)
        }
        Self.report("import", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        #expect(outcome.versions.last!.keys.contains(Self.imported + "/store.json"))
    }

    @Test func queueMovesKeepQueueConsistentAfterPowerLoss() throws {
        let harness = PowerLossHarness()
        let outcome = harness.run(initial: try W.v2Store(streams: 5), operations: Self.queueMoves()) { crash in
            W.v1QueueIsOldOrNew(crash) + W.storeOpensAndReads(crash) + W.queueIsConsistentAfterOpen(crash)
        }
        Self.report("queue moves", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
    }

    /// The folder exchange (`StoreMigrator+Exchange`), with and without `syncfs`, and the file by
    /// file renames of a file system that cannot exchange.
    @Test(arguments: [(exchange: true, syncFS: true), (exchange: true, syncFS: false), (exchange: false, syncFS: true)])
    func migrationCutByPowerLossIsReadableByV1AndResumesIdentically(exchange: Bool, syncFS: Bool) throws {
        var harness = PowerLossHarness()
        // The path Linux takes gets the default exploration; the fallbacks a smaller one (CI time).
        if !(exchange && syncFS) { harness.limitPerCrashPoint = environmentInteger("RELIABILITY_CRASH_LIMIT", default: 64, full: 4096) }
        harness.seam = { model in
            model.supportsExchange = exchange
            model.supportsSyncFS = syncFS
            return model
        }
        let outcome = harness.run(initial: try W.v1Store(), operations: Self.migration(), extraCheck: W.migrationResumes)
        Self.report("migration, \(exchange ? "folder exchange" : "renames"), \(syncFS ? "syncfs" : "fsync each")", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        #expect(outcome.versions.count == 2 && outcome.versions[0] != outcome.versions[1])
        #expect(outcome.callCounts["exchange", default: 0] == (exchange ? 1 : 0))
    }

    /// Issue 19: `user-sessions/` exchanged with a folder of links, with and without `syncfs`. At
    /// every instant each customisation is whole, old or new, a v1 reader reads the store, and the
    /// next migration (which commits two customisations file by file) ends byte-identically.
    @Test(arguments: [true, false])
    func customisationsExchangeCutByPowerLossLeavesEachOldOrNewAndResumesIdentically(syncFS: Bool) throws {
        var harness = PowerLossHarness()
        if !syncFS { harness.limitPerCrashPoint = environmentInteger("RELIABILITY_CRASH_LIMIT", default: 64, full: 4096) }
        harness.seam = { model in
            model.supportsSyncFS = syncFS
            return model
        }
        let outcome = harness.run(initial: try W.v1Store(), operations: Self.migrationExchangingCustomisations()) { crash in
            W.migrationResumes(crash) + W.customisationsAreOldOrNew(crash)
        }
        Self.report("migration, customisations exchanged, \(syncFS ? "syncfs" : "fsync each")", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        #expect(outcome.versions.count == 2 && outcome.versions[0] != outcome.versions[1])
        #expect(outcome.callCounts["exchange", default: 0] == 2, "sessions/ and user-sessions/ are exchanged")
    }

    /// The mutant that commits the customisations by three renames instead of an atomic exchange
    /// is caught by the workload above, and by no workload that commits them file by file.
    @Test func harnessCatchesANonAtomicExchangeOfTheCustomisations() throws {
        var harness = PowerLossHarness()
        harness.seam = { ExchangeOfCustomisationsByRenames($0) }
        harness.stopAtFirstFailure = true
        harness.limitPerCrashPoint = environmentInteger("RELIABILITY_CRASH_LIMIT", default: 48, full: 1024)
        let caught = harness.run(initial: try W.v1Store(), operations: Self.migrationExchangingCustomisations()) { crash in
            W.migrationResumes(crash) + W.customisationsAreOldOrNew(crash)
        }
        #expect(!caught.failures.isEmpty, "the non-atomic exchange of user-sessions/ escaped")
        let byRenames = harness.run(initial: try W.v1Store(), operations: Self.migration()) { crash in
            W.migrationResumes(crash) + W.customisationsAreOldOrNew(crash)
        }
        #expect(byRenames.failures.isEmpty, "\(byRenames.failures.first ?? "")")
    }

    /// Spec §9: the steps from v2 on (from the v1 sample migrated with `--to 2`), the v3 → v4 step
    /// on its own (from it migrated with `--to 3`), and the chain in two runs (`--to 2`, then
    /// v2 → v4) from the v1 sample: at every instant every older reader reads the store correctly
    /// (its work streams, customisations and settings.json), and the next migration finishes it
    /// byte-identically.
    @Test(arguments: ["v2 → v4", "v3 → v4", "v1 → v2, then v2 → v4"])
    func chainStepsCutByPowerLossAreReadableByOlderReadersAndResumeIdentically(_ run: String) throws {
        let harness = PowerLossHarness()
        let twoRuns = run.hasPrefix("v1")
        let initial = twoRuns ? try W.v1Store() : run.hasPrefix("v3") ? try W.v3StoreMigratedFromV1() : try W.v2StoreMigratedFromV1()
        let operations = twoRuns ? Self.migrationInTwoRuns() : Self.migration()
        let outcome = harness.run(initial: initial, operations: operations, extraCheck: W.migrationResumes)
        Self.report("migration \(run)", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        #expect(outcome.versions.count == operations.count + 1 && outcome.versions[0] != outcome.versions.last!)
        #expect(outcome.crashPoints > 10)
    }

    /// On a FUSE mount `syncfs` makes nothing durable (the model, like Linux, returns 0 and does
    /// nothing): every multi-file operation that would use it must make each file durable itself.
    @Test(arguments: ["migration", "batch of 9 files", "backup", "restore", "export", "import"])
    func multiFileOperationsOnFUSESurvivePowerLoss(_ operation: String) throws {
        var harness = PowerLossHarness()
        harness.seam = { model in
            model.fileSystemTypeName = "fuse.lazyfs"; return model
        }
        harness.limitPerCrashPoint = environmentInteger("RELIABILITY_CRASH_LIMIT", default: 48, full: 1024)
        let v2Large = try W.v2Store(streams: 9)
        let outcome: PowerLossHarness.Outcome
        switch operation {
        case "migration":
            outcome = harness.run(initial: try W.v1Store(), operations: Self.migration(), extraCheck: W.migrationResumes)
        case "batch of 9 files":
            outcome = harness.run(initial: v2Large, operations: try Self.largeBatchCommit(v2Large), extraCheck: W.storeReads)
        case "backup":
            outcome = harness.run(initial: try W.v2Store(streams: 3), operations: Self.backup(hardLinks: false)) { crash in
                W.storeReads(crash) + W.backupIsWholeOrAbsent(crash)
            }
        case "restore":
            harness.checkFilesBeforeRecovery = false
            outcome = harness.run(initial: try Self.storeWithOlderBackup(), operations: Self.restore(), extraCheck: W.restoreRecovers)
        case "export":
            outcome = harness.run(initial: try W.v2Store(streams: 3), operations: Self.export(), extraCheck: W.storeReads)
        default:
            harness.checkFilesBeforeRecovery = false
            outcome = harness.run(initial: try Self.storeWithExport(), operations: Self.importExport()) { crash in
                W.importIsWholeOrAbsent(crash, target: Self.imported)
            }
        }
        Self.report("\(operation) on FUSE", outcome, seed: harness.seed)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        #expect(outcome.callCounts["syncfs", default: 0] == 0, "syncfs is never called on FUSE")
    }

    // MARK: The harness has teeth

    @Test(arguments: mutants.map(\.name))
    func harnessCatchesMutantOfTheWritePath(_ name: String) throws {
        let mutant = mutants.first { $0.name == name }!
        var harness = PowerLossHarness()
        harness.seam = mutant.seam
        harness.stopAtFirstFailure = true
        harness.limitPerCrashPoint = environmentInteger("RELIABILITY_CRASH_LIMIT", default: 48, full: 1024)
        var caught: [String] = []
        let v2 = try W.v2Store(streams: 3), v2Large = try W.v2Store(streams: 9)
        let runs: [(String, ModelState, [(SystemCalls) throws -> Void], (PowerLossHarness.Crash) -> [String])] = [
            ("document writes", v2, Self.documentWrites(), W.storeOpensAndReads),
            ("batch commit", v2, try Self.batchCommit(v2), W.storeOpensAndReads),
            ("migration", try W.v1Store(), Self.migration(), W.migrationResumes),
            (
                "migration exchanging customisations", try W.v1Store(), Self.migrationExchangingCustomisations(),
                { W.migrationResumes($0) + W.customisationsAreOldOrNew($0) }
            ),
            ("batch of 9 files", v2Large, try Self.largeBatchCommit(v2Large), W.storeReads),
            ("backup", v2, Self.backup(hardLinks: false), { W.storeReads($0) + W.backupIsWholeOrAbsent($0) }),
        ]
        // Which primitive makes a write durable differs by path (an fsync per file, one syncfs for a
        // batch, the folder's fsync for every rename), and changes as the code is tuned: so every
        // mutant runs on every workload, must be caught by at least one, and a missing folder fsync
        // (which every path needs) by all of them.
        for (workload, initial, operations, check) in runs {
            let outcome = harness.run(initial: initial, operations: operations, extraCheck: check)
            print(
                "mutant [\(name)] on [\(workload)]: \(outcome.statesChecked) crash states, \(outcome.failures.count) failures; "
                    + "first: \(outcome.failures.first ?? "none")")
            if !outcome.failures.isEmpty { caught.append(workload) }
        }
        print("mutant [\(name)]: caught by \(caught.count) of \(runs.count) workloads: \(caught)")
        let mustCatch = name == "without folder fsync" ? runs.map(\.0) : caught
        #expect(!caught.isEmpty, "mutant '\(name)' escaped every workload")
        #expect(caught == mustCatch, "mutant '\(name)': caught by \(caught), expected \(mustCatch)")
    }
}
