import Foundation
import Testing

@testable import JSONStore

/// The restore swap, stopped after every step as a crash would stop it, then recovered:
/// the target is always the old store or the new one, never a mix, and nothing is lost.
@Suite struct BackupSwapTests {
    static let old: [String: String] = ["store.json": "old manifest\n", "sessions/00000000-0000-4000-8000-000000000001.json": "old 1\n"]
    static let new: [String: String] = [
        "store.json": "new manifest\n", "sessions/00000000-0000-4000-8000-000000000002.json": "new 2\n",
        "queue.json": "new queue\n",
    ]

    @Test(arguments: [true, false], 0...6)
    func swapStoppedAfterAnyStepRecoversToTheOldOrTheNewStore(withOldStore: Bool, stepsDone: Int) throws {
        let scratch = TemporaryDirectory()
        let target = try SiblingPath(scratch.path + "/store")
        if withOldStore { try scratch.write(Self.old, under: "store") }
        let staging = try StagingDirectory(besides: target, purpose: "restoring")
        try scratch.write(Self.new, under: staging.name)
        let aside = withOldStore ? "store.replaced-20251120T090000Z" : nil
        let swap = StoreSwap(
            target: target,
            journal: RestoreJournal(
                target: "store", staging: staging.name, aside: aside,
                startedAt: "2025-11-20T09:00:00.000Z"),
            tool: "test", version: "0", system: .real)
        let steps = swap.steps
        #expect(steps.count == (withOldStore ? 6 : 4))
        guard stepsDone <= steps.count else { return }
        for step in steps.prefix(stepsDone) { try swap.perform(step) }
        staging.release()  // the "crashed" process is gone: its lock with it

        let recovery = try StoreSwap.recover(target, tool: "test", version: "0", system: .real)
        let result = scratch.files(under: "store")
        if stepsDone == 0 {
            #expect(recovery == nil)
            #expect(result == (withOldStore ? Self.old : [:]))
            // The stale staging folder is removed by the next restore's preparation.
            #expect(StagingDirectory.removeStale(besides: target, purpose: "restoring").count == 1)
        } else {
            // Finished when stopped before the staging rename, complete after it; no journal once all ran.
            let expected: RestoreRecovery.Outcome? =
                stepsDone == steps.count
                ? nil
                : stepsDone > steps.firstIndex(of: .moveStagingIntoPlace)! ? .alreadyComplete : .finished
            #expect(recovery?.outcome == expected)
            #expect(result == Self.new)
            if let aside { #expect(scratch.files(under: aside) == Self.old) }
        }
        // Only the target, the aside and the lock file are left: no journal, no staging, no temp file.
        let leftovers = Set(folderNames(scratch.path)).subtracting(["store", aside ?? "", ".store.restore-lock"])
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func recoveryRollsBackWhenTheStagingFolderWasDeleted() throws {
        let scratch = TemporaryDirectory()
        let target = try SiblingPath(scratch.path + "/store")
        try scratch.write(Self.old, under: "store")
        let staging = try StagingDirectory(besides: target, purpose: "restoring")
        let swap = StoreSwap(
            target: target,
            journal: RestoreJournal(
                target: "store", staging: staging.name, aside: "store.replaced-x",
                startedAt: "2025-11-20T09:00:00.000Z"),
            tool: "test", version: "0", system: .real)
        try swap.perform(.writeJournal)
        try swap.perform(.moveTargetAside)
        staging.discard()
        let recovery = try StoreSwap.recover(target, tool: "test", version: "0", system: .real)
        #expect(recovery?.outcome == .rolledBack)
        #expect(scratch.files(under: "store") == Self.old)
    }

    @Test func recoveryTouchesNothingWhenTheFoldersContradictTheJournal() throws {
        let scratch = TemporaryDirectory()
        let target = try SiblingPath(scratch.path + "/store")
        try scratch.write(Self.old, under: "store")
        try scratch.write(Self.old, under: "store.replaced-x")
        let staging = try StagingDirectory(besides: target, purpose: "restoring")
        try scratch.write(Self.new, under: staging.name)
        let journal = RestoreJournal(target: "store", staging: staging.name, aside: "store.replaced-x", startedAt: "2025-11-20T09:00:00.000Z")
        try AtomicFile.durableReplace(directory: scratch.path, name: ".store.restore-journal", bytes: journal.encoded)
        staging.release()
        #expect { try StoreSwap.recover(target, tool: "test", version: "0", system: .real) } throws: { error in
            (error as? StoreError)?.code == .conflict
        }
        #expect(scratch.files(under: "store") == Self.old)
        #expect(scratch.files(under: staging.name) == Self.new)
    }

    @Test(arguments: ["../etc", ".store.staging-0000000000000000", "other/.store.restoring-1"])
    func journalNamingForeignFoldersIsRefused(staging: String) throws {
        let scratch = TemporaryDirectory()
        let target = try SiblingPath(scratch.path + "/store")
        let journal = RestoreJournal(target: "store", staging: staging, aside: nil, startedAt: "2025-11-20T09:00:00.000Z")
        try AtomicFile.durableReplace(directory: scratch.path, name: ".store.restore-journal", bytes: journal.encoded)
        #expect { try StoreSwap.recover(target, tool: "test", version: "0", system: .real) } throws: { error in
            (error as? StoreError)?.code == .conflict
        }
    }

    @Test func decisionTableCoversEveryCrashState() {
        typealias A = StoreSwap.RecoveryAction
        let folder = TargetState.folder(files: 2, total: 3)
        #expect(StoreSwap.decide(hasAside: true, staging: true, target: folder, aside: false) == A.moveAsideThenStagingIn)
        #expect(StoreSwap.decide(hasAside: true, staging: true, target: .absent, aside: true) == A.stagingIn)
        #expect(StoreSwap.decide(hasAside: true, staging: true, target: folder, aside: true) == A.conflict)
        #expect(StoreSwap.decide(hasAside: true, staging: false, target: folder, aside: true) == A.nothing)
        #expect(StoreSwap.decide(hasAside: true, staging: false, target: .absent, aside: true) == A.rollBack)
        #expect(StoreSwap.decide(hasAside: false, staging: true, target: .absent, aside: false) == A.stagingIn)
        #expect(StoreSwap.decide(hasAside: false, staging: true, target: .emptyFolder, aside: false) == A.stagingIn)
        #expect(StoreSwap.decide(hasAside: false, staging: true, target: folder, aside: false) == A.conflict)
        #expect(StoreSwap.decide(hasAside: false, staging: false, target: folder, aside: false) == A.nothing)
        #expect(StoreSwap.decide(hasAside: false, staging: false, target: .absent, aside: false) == A.nothingLeft)
    }
}

/// Small trees of text files, written and read back for swap tests.
extension TemporaryDirectory {
    func write(_ files: [String: String], under folder: String) throws {
        for (relative, text) in files {
            let url = URL(fileURLWithPath: path + "/" + folder + "/" + relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// Regular files under `folder` by relative path (dot names left out), as text.
    func files(under folder: String) -> [String: String] {
        tree(self(folder)).mapValues { String(decoding: $0, as: UTF8.self) }
    }
}
