import Foundation
import JSONStore
import Testing

/// Issue 18, upgrading from the app: `StoreUpgrade.run`'s `shouldContinue` and
/// `AsyncStore.upgrade`'s task cancellation stop an upgrade at a safe point with `.cancelled`,
/// with the store unchanged (and, after the backup, the verified backup kept).
@Suite struct StoreUpgradeCancellationTests {
    /// Says no at the `n`th question (1-based), and counts the questions.
    final class Answers: @unchecked Sendable {
        // @unchecked: used from the one thread that runs the upgrade.
        var asked = 0
        let stopAt: Int
        init(stopAt: Int) { self.stopAt = stopAt }
        func shouldContinue() -> Bool {
            asked += 1
            return asked != stopAt
        }
    }

    /// The checkpoints before the backup (before validation, before the lock, before the backup):
    /// the store's bytes, times and files, and its folder, are exactly as they were; no backup folder.
    @Test(arguments: [1, 2, 3])
    func cancellingBeforeTheBackupChangesNothing(stopAt: Int) throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v1-store", as: "store")
        let before = snapshot(store)
        let answers = Answers(stopAt: stopAt)
        var events: [String] = []
        let error = #expect(throws: StoreError.self) {
            try StoreUpgrade.run(
                at: store, backup: .folder(folder("backup")), tool: "test", version: "1",
                progress: { events.append("\($0)") }, shouldContinue: answers.shouldContinue)
        }
        #expect(error?.code == .cancelled)
        #expect(
            error?.message
                == "The upgrade of '\(store)' was cancelled before it changed the store. Nothing was changed: no backup was taken and the store is as it was.")
        #expect(answers.asked == stopAt)
        #expect(!FileManager.default.fileExists(atPath: folder("backup")))
        let after = snapshot(store)
        if stopAt < 3 {
            #expect(after == before, "cancelled before the lock: not even the lock file changed")
        } else {
            #expect(after.filter { !$0.key.hasPrefix(".") } == before.filter { !$0.key.hasPrefix(".") })
        }
        #expect(!events.contains { $0.hasPrefix("migration") || $0.hasPrefix("backup") })
    }

    @Test func cancellingAfterTheBackupKeepsTheVerifiedBackupAndLeavesTheStoreAsItWas() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v1-store", as: "store")
        let documents = tree(store)
        let answers = Answers(stopAt: 4)
        let error = #expect(throws: StoreError.self) {
            try StoreUpgrade.run(at: store, backup: .folder(folder("backup")), tool: "test", version: "1", shouldContinue: answers.shouldContinue)
        }
        #expect(error?.code == .cancelled)
        #expect(error?.message.contains("The backup in '\(folder("backup"))' is complete and verified, and is kept; the store was not changed.") == true)
        #expect(tree(store) == documents)
        #expect(try BackupVerification.verify(backup: folder("backup")).status == .ok)
        // Running it again upgrades (into another backup folder).
        let outcome = try StoreUpgrade.run(at: store, backup: .folder(folder("backup2")), tool: "test", version: "1")
        guard case .upgraded(_, 1, 4, _) = outcome else { Issue.record("expected .upgraded 1 → 4, got \(outcome)"); return }
    }

    @Test func anUpgradeThatIsNeverCancelledAsksFourTimesAndUpgrades() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        let answers = Answers(stopAt: 0)
        let outcome = try StoreUpgrade.run(at: store, backup: .none, tool: "test", version: "1", shouldContinue: answers.shouldContinue)
        guard case .upgraded(_, 2, 4, nil) = outcome else { Issue.record("expected .upgraded 2 → 4, got \(outcome)"); return }
        #expect(answers.asked == 4)
    }

    @Test func anAsyncUpgradeInACancelledTaskChangesNothing() async throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v1-store", as: "store")
        let before = snapshot(store)
        let task = Task { () async throws(StoreError) -> StoreUpgrade.Outcome in
            try await AsyncStore.upgrade(at: store, backup: .folder(folder("backup")), tool: "test", version: "1")
        }
        task.cancel()
        let result = await task.result
        guard case .failure(let failure) = result, let error = failure as? StoreError else {
            Issue.record("expected .cancelled, got \(result)"); return
        }
        #expect(error.code == .cancelled)
        #expect(snapshot(store) == before)
        #expect(!FileManager.default.fileExists(atPath: folder("backup")))
    }

    @Test func anAsyncUpgradeCancelledDuringTheBackupStopsBeforeTheMigration() async throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v1-store", as: "store")
        let documents = tree(store)
        let started = AsyncStream<Void>.makeStream()
        let cancelled = DispatchSemaphore(value: 0)
        let task = Task { () async throws(StoreError) -> StoreUpgrade.Outcome in
            try await AsyncStore.upgrade(at: store, backup: .folder(folder("backup")), tool: "test", version: "1") { event in
                if case .backupStarted = event {
                    started.continuation.yield()
                    cancelled.wait()  // the backup goes on only once the task is cancelled
                }
            }
        }
        for await _ in started.stream { break }
        task.cancel()
        cancelled.signal()
        let result = await task.result
        guard case .failure(let failure) = result, let error = failure as? StoreError else {
            Issue.record("expected .cancelled, got \(result)"); return
        }
        #expect(error.code == .cancelled)
        #expect(error.message.contains("is complete and verified, and is kept; the store was not changed."))
        #expect(tree(store) == documents)
        #expect(try BackupVerification.verify(backup: folder("backup")).status == .ok)
    }
}
