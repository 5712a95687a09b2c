import Foundation
import JSONStore
import Testing

/// The `progress` closures of `Backup.create`, `BackupVerification.verify`, `StoreExport.write`,
/// `StoreImport.read`, `Restore.run` and `StoreUpgrade.run`: exact sequences on the 15 files of
/// the v2 sample (the 8 work streams of the v1 sample for an upgrade).
@Suite struct StoreProgressTests {
    /// The v2 sample's store files (store.json, settings.json, queue.json and the documents).
    private static let files = 15

    /// `.phase(phase, 0…total)`.
    private static func counting(_ phase: StoreProgress.Phase, to total: Int) -> [StoreProgress] {
        (0...total).map { .phase(phase, done: $0, total: total) }
    }

    @Test func backupReportsEveryFileBackedUpThenEveryFileReadBack() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        var seen: [StoreProgress] = []
        let report = try Backup.create(store: store, destination: folder("backup"), tool: "t", version: "1") { seen.append($0) }
        #expect(report.manifest.files.count == Self.files)
        #expect(seen == Self.counting(.backingUp, to: Self.files) + Self.counting(.verifyingBackup, to: Self.files))
    }

    @Test func backupVerificationReportsEveryListedFile() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        _ = try Backup.create(store: store, destination: folder("backup"), tool: "t", version: "1")
        var seen: [StoreProgress] = []
        let report = try BackupVerification.verify(backup: folder("backup")) { seen.append($0) }
        #expect(report.status == .ok)
        #expect(seen == Self.counting(.verifyingBackup, to: Self.files))
    }

    @Test func exportReportsEveryFileWritten() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        var seen: [StoreProgress] = []
        let report = try StoreExport.write(store: store, to: .file(folder("e.jsonl")), tool: "t", version: "1") { seen.append($0) }
        #expect(report.files == Self.files)
        #expect(seen == Self.counting(.exporting, to: Self.files))
    }

    @Test func importCountsFilesAgainstTheHeadersTotalThenReadsEachBack() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        _ = try StoreExport.write(store: store, to: .file(folder("e.jsonl")), tool: "t", version: "1")
        var seen: [StoreProgress] = []
        let report = try StoreImport.read(from: .file(folder("e.jsonl")), into: folder("imported"), tool: "t", version: "1") {
            seen.append($0)
        }
        #expect(report.files == Self.files)
        #expect(seen == Self.counting(.importing, to: Self.files) + Self.counting(.verifyingCopy, to: Self.files))
    }

    @Test func restoreReportsTheVerificationTheCopyAndTheReadBack() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        _ = try Backup.create(store: store, destination: folder("backup"), tool: "t", version: "1")
        var seen: [StoreProgress] = []
        _ = try Restore.run(backup: folder("backup"), target: folder("restored"), tool: "t", version: "1") { seen.append($0) }
        #expect(
            seen == Self.counting(.verifyingBackup, to: Self.files) + Self.counting(.restoring, to: Self.files)
                + Self.counting(.verifyingCopy, to: Self.files))

        var dryRun: [StoreProgress] = []
        _ = try Restore.run(
            backup: folder("backup"), target: folder("other"), tool: "t", version: "1",
            options: .init(dryRun: true)
        ) { dryRun.append($0) }
        #expect(dryRun == Self.counting(.verifyingBackup, to: Self.files), "a dry run only verifies")
    }

    @Test func validationReportsEveryWorkStreamReadableOrNotInOrder() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        var seen: [StoreProgress] = []
        let validator = try StoreValidator(try Store.open(at: store, options: .readOnly)) { seen.append($0) }
        #expect(validator.problems.isEmpty)
        #expect(seen == Self.counting(.validating, to: 8))

        // A document that does not read is counted as done like the others.
        try Data("{".utf8).write(to: URL(fileURLWithPath: store + "/sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json"))
        var damaged: [StoreProgress] = []
        let scan = try StoreValidator(try Store.open(at: store, options: .readOnly)) { damaged.append($0) }
        #expect(scan.unreadable == 1)
        #expect(damaged == Self.counting(.validating, to: 8))
    }

    @Test func validationOfAStoreWithoutItsWorkStreamFolderReportsNothing() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        try FileManager.default.removeItem(atPath: store + "/sessions")
        var seen: [StoreProgress] = []
        _ = try StoreValidator(try Store.open(at: store, options: .readOnly)) { seen.append($0) }
        #expect(seen == [])
    }

    @Test func upgradeReportsEachPhaseFromZeroToItsTotal() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v1-store", as: "store")
        var seen: [StoreProgress] = []
        _ = try StoreUpgrade.run(at: store, backup: .folder(folder("backup")), tool: "t", version: "1") { event in
            if case .progress(let progress) = event { seen.append(progress) }
        }
        let files = try BackupVerification.verify(backup: folder("backup")).fileCount
        #expect(files > 0)
        // The old folders the exchanges replaced, counted once and removed a slice at a time.
        let removed = seen.filter { if case .phase(.removingOldFiles, _, _) = $0 { true } else { false } }
        guard case .phase(_, 0, let total?)? = removed.first else {
            Issue.record("no removal of the old files counted from 0: \(removed)")
            return
        }
        #expect(total >= 8, "the old sessions/ holds the sample's eight work streams")
        #expect(removed.last == .phase(.removingOldFiles, done: total, total: total))
        #expect(
            Array(seen.prefix(seen.count - removed.count)) == Self.counting(.validating, to: 8) + Self.counting(.backingUp, to: files)
                + Self.counting(.verifyingBackup, to: files) + Self.counting(.migrating, to: 8))
    }

    @Test func breakingUpgradeReportsTheLayoutChangesValidationAndMigration() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v4-store", as: "store")
        var seen: [StoreProgress] = []
        _ = try StoreUpgrade.run(at: store, to: 5, backup: .folder(folder("backup")), allowBreaking: true, tool: "t", version: "1") { event in
            if case .progress(let progress) = event { seen.append(progress) }
        }
        let files = try BackupVerification.verify(backup: folder("backup")).fileCount
        // The old sessions/, retired by the rename, is removed after the commit, as an exchange's old folder is.
        #expect(
            seen == Self.counting(.validating, to: 8) + Self.counting(.backingUp, to: files)
                + Self.counting(.verifyingBackup, to: files) + Self.counting(.migrating, to: 8)
                + [.phase(.removingOldFiles, done: 0, total: 8), .phase(.removingOldFiles, done: 8, total: 8)])
    }

    @Test func backupSaysItWaitsForTheLockHolderThenBacksUp() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        // flock locks of two descriptors conflict even in one process: this lock makes the backup wait.
        let held = HeldLock(try StoreLock(store: store, tool: "other-writer", version: "7"))
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = release.wait(timeout: .now() + 30)
            held.lock.release()
        }
        var seen: [StoreProgress] = []
        _ = try Backup.create(store: store, destination: folder("backup"), tool: "t", version: "1") { progress in
            seen.append(progress)
            if case .waitingForLock = progress { release.signal() }
        }
        guard case .waitingForLock(let path, let holder)? = seen.first else {
            Issue.record("the first event is not the lock wait: \(seen.prefix(3))")
            return
        }
        #expect(path == store)
        #expect(holder?.hasPrefix("process \(getpid()) (other-writer 7) since ") == true, "\(holder ?? "nil")")
        #expect(Array(seen.dropFirst()) == Self.counting(.backingUp, to: Self.files) + Self.counting(.verifyingBackup, to: Self.files))
    }

    @Test func freeLockIsNotReportedAsAWait() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        var waits = 0
        let lock = try StoreLock(store: store, tool: "t", version: "1") { _ in waits += 1 }
        lock.release()
        #expect(waits == 0)
    }
}

/// A lock released by another thread than the one that took it; only that thread touches it after.
private final class HeldLock: @unchecked Sendable {
    let lock: StoreLock
    init(_ lock: StoreLock) { self.lock = lock }
}
