import Foundation
import JSONStore
import Testing

/// `StoreUpgrade.run`, the library's whole upgrade procedure (what `migrate-store migrate` calls).
@Suite struct StoreUpgradeTests {
    /// The kind of each event, for comparing sequences: a progress value by its phase.
    private static func kind(_ event: StoreUpgrade.Event) -> String {
        switch event {
        case .warning: "warning"
        case .waitingForLock: "waitingForLock"
        case .backupSkipped: "backupSkipped"
        case .backupStarted: "backupStarted"
        case .backupFinished: "backupFinished"
        case .migrationStarted: "migrationStarted"
        case .migrationFinished: "migrationFinished"
        case .progress(.phase(let phase, _, _)): phase.rawValue
        case .progress(.waitingForLock): "progress.waitingForLock"
        }
    }

    private static func withoutManifest(_ tree: [String: [UInt8]]) -> [String: [UInt8]] {
        tree.filter { $0.key != StoreLayout.manifest }
    }

    /// The documents of the v3 sample taken to v4 by the store engine: what an upgrade to the
    /// default target writes (`Samples/v4-store` adds the user's drafts and preferences to it).
    private static func v3SampleAtV4() throws -> [String: [UInt8]] {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v3-store", as: "store")
        _ = try StoreMigrator(store: try Store.open(at: path)).migrate(toolVersion: "test")
        return withoutManifest(tree(path))
    }

    @Test func upgradingTheV1SampleGivesTheV3SampleAtV4AfterAVerifiedBackup() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v1-store", as: "store")
        let original = tree(store)
        var events: [String] = []
        let outcome = try StoreUpgrade.run(at: store, backup: .folder(folder("backup")), tool: "test", version: "1") { event in
            let kind = Self.kind(event)
            if events.last != kind { events.append(kind) }
        }
        guard case .upgraded(let report, let from, let to, let backup) = outcome else {
            Issue.record("expected .upgraded, got \(outcome)")
            return
        }
        #expect(from == 1 && to == 4)
        #expect(backup == folder("backup"))
        #expect(!report.isNoop && report.filesChanged > 0)
        #expect(
            events == [
                "validating", "backupStarted", "backingUp", "verifyingBackup", "backupFinished", "migrationStarted", "migrating",
                "migrationFinished", "removingOldFiles",
            ])
        #expect(Self.withoutManifest(tree(store)) == (try Self.v3SampleAtV4()))
        #expect(try BackupVerification.verify(backup: folder("backup")).status == .ok)
        let backedUp = tree(folder("backup")).filter { StoreFilePath($0.key) != nil }
        #expect(backedUp == original, "the backup holds the store's bytes from before the migration")
    }

    @Test func upgradingACurrentStoreChangesNothingAndTakesNoBackup() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v4-store", as: "store")
        let before = snapshot(folder.path)
        var events = 0
        let outcome = try StoreUpgrade.run(at: store, tool: "test", version: "1") { _ in events += 1 }
        guard case .alreadyCurrent(let plan, let from) = outcome else {
            Issue.record("expected .alreadyCurrent, got \(outcome)")
            return
        }
        #expect(plan.isNoop && from == 4 && events == 0)
        #expect(snapshot(folder.path) == before, "no byte, no time, no lock file, no backup folder")
    }

    @Test func anUnreadableDocumentStopsTheUpgradeBeforeTheFirstWrite() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v1-store", as: "store")
        let broken = store + "/" + StoreLayout.workStreamPath(try #require(UUID(uuidString: "555a622d-4eba-4eda-8989-fc9e679fc303")))
        try Data("{\"id\": ".utf8).write(to: URL(fileURLWithPath: broken))
        let before = snapshot(folder.path)
        var events: [String] = []
        #expect {
            _ = try StoreUpgrade.run(at: store, tool: "test", version: "1") { events.append(Self.kind($0)) }
        } throws: { error in
            (error as? StoreError)?.code == .corruptDocument && (error as? StoreError)?.message.contains("555a622d") == true
        }
        #expect(Set(events) == ["validating"], "it validated, then stopped")
        #expect(snapshot(folder.path) == before, "bad input changes nothing, not even the lock file")
    }

    @Test func withoutABackupTheUpgradeSaysSoAndMigrates() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v1-store", as: "store")
        var events: [String] = []
        let outcome = try StoreUpgrade.run(at: store, backup: .none, tool: "test", version: "1") { event in
            let kind = Self.kind(event)
            if events.last != kind { events.append(kind) }
        }
        guard case .upgraded(_, 1, 4, nil) = outcome else {
            Issue.record("expected .upgraded from 1 without a backup, got \(outcome)")
            return
        }
        // No separate validation pass without a backup: the migration validates while it stages (issue 19).
        #expect(events == ["backupSkipped", "migrationStarted", "migrating", "migrationFinished", "removingOldFiles"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["store"])
        #expect(Self.withoutManifest(tree(store)) == (try Self.v3SampleAtV4()))
    }

    /// A v2 store a v1 writer touched needs the §7 reconcile: the backup holds the bytes from
    /// before it, and the report counts what it rewrote (what `plan` listed), not "0 files".
    @Test func reconcilingAStoreAV1WriterTouchedBacksUpFirstAndReportsEveryRewrite() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        let touched = store + "/" + StoreLayout.workStreamPath(try #require(UUID(uuidString: "555a622d-4eba-4eda-8989-fc9e679fc303")))
        let v2Text = try String(contentsOfFile: touched, encoding: .utf8)
        let v1Text = v2Text.replacingOccurrences(of: "\"schema_version\": 2", with: "\"schema_version\": 1")
        #expect(v1Text != v2Text)
        try Data(v1Text.utf8).write(to: URL(fileURLWithPath: touched))
        let before = tree(store)
        let plan = try StoreMigrator(store: try Store.open(at: store, options: .readOnly)).plan(to: 2)
        let outcome = try StoreUpgrade.run(at: store, to: 2, backup: .folder(folder("backup")), tool: "test", version: "1")
        guard case .upgraded(let report, 2, 2, folder("backup")) = outcome else {
            Issue.record("expected .upgraded from 2 with the backup, got \(outcome)")
            return
        }
        #expect(report.filesChanged == plan.filesChanged && report.filesChanged == 2)
        #expect(report.totals == plan.totals)
        #expect(tree(folder("backup")).filter { StoreFilePath($0.key) != nil } == before, "the backup is of the store before any write")
        #expect(try String(contentsOfFile: touched, encoding: .utf8) == v2Text)
    }

    /// What the upgrade running on another thread saw.
    private final class Seen: @unchecked Sendable {  // every access holds `lock`
        let lock = NSLock()
        var events: [String] = []
        var outcome: Result<StoreUpgrade.Outcome, StoreError>?
        let waiting = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
    }

    @Test func anUpgradeThatWaitedWhileAnotherProcessMigratedSaysSoAndTakesNoBackup() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v1-store", as: "store")
        let held = try StoreLock(store: store, tool: "other-migrate", version: "1")
        let seen = Seen()
        DispatchQueue.global().async {
            let result = Result { () throws(StoreError) in
                try StoreUpgrade.run(at: store, backup: .folder(folder("backup")), tool: "test", version: "1") { event in
                    seen.lock.withLock { seen.events.append(Self.kind(event)) }
                    if case .waitingForLock(let holder) = event {
                        #expect(holder?.contains("other-migrate") == true)
                        seen.waiting.signal()
                    }
                }
            }
            seen.lock.withLock { seen.outcome = result }
            seen.done.signal()
        }
        #expect(seen.waiting.wait(timeout: .now() + 30) == .success, "the upgrade announces that it waits for the lock")
        let report = try StoreMigrator(store: try Store.open(at: store, options: .readOnly))
            .migrate(toolVersion: "other", holding: held, keepingDocuments: false)
        #expect(!report.isNoop)
        held.release()
        #expect(seen.done.wait(timeout: .now() + 30) == .success)
        let (outcome, events) = seen.lock.withLock { (seen.outcome, seen.events) }
        guard case .success(.doneByAnotherProcess(let plan, let from, _)) = outcome else {
            Issue.record("expected .doneByAnotherProcess, got \(String(describing: outcome))")
            return
        }
        #expect(plan.isNoop && from == 1)
        // 0 of 8, then each of the sample's eight work streams.
        #expect(events == Array(repeating: "validating", count: 9) + ["waitingForLock"])
        #expect(!FileManager.default.fileExists(atPath: folder("backup")), "no backup of the already-migrated store")
        #expect(Self.withoutManifest(tree(store)) == (try Self.v3SampleAtV4()))
    }
}
