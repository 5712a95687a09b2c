import Foundation
import StoreJSON
import Testing

@testable import JSONStore

/// The library API the CLI and `migrate` call: `Backup.create`, `BackupVerification.verify`,
/// `Restore.run`, `StoreExport`/`StoreImport`, in process.
@Suite struct BackupLibraryTests {
    @Test func backupInsideTheCallersLockedSectionUsesThatLock() throws {
        let scratch = TemporaryDirectory()
        let store = scratch.path + "/store"
        try Samples.copy("v2-store", to: store)
        let clock = ContinuousClock()
        let start = clock.now
        let report = try StoreLock.withExclusiveLock(store: store, tool: "migrate-store", version: "0.1.0") { lock in
            try Backup.create(
                store: store, destination: scratch.path + "/b", tool: "migrate-store", version: "0.1.0",
                options: .init(lockTimeout: .seconds(1)), holding: lock)
        }
        #expect(clock.now - start < .seconds(1))
        #expect(report.manifest.files.count == 15)
        #expect(try BackupVerification.verify(backup: scratch.path + "/b").status == .ok)
    }

    @Test func backupWithoutHardLinksCopiesEveryFile() throws {
        let scratch = TemporaryDirectory()
        let store = scratch.path + "/store"
        try Samples.copy("v2-store", to: store)
        let report = try Backup.create(
            store: store, destination: scratch.path + "/b", tool: "t", version: "0",
            options: .init(allowHardLinks: false))
        #expect(report.linkedFiles == 0 && report.copiedFiles == 15)
        var status = stat()
        #expect(lstat(scratch.path + "/b/store.json", &status) == 0 && status.st_nlink == 1)
    }

    @Test func backupWaitsForTheLockAndGivesUpWithLocked() throws {
        let scratch = TemporaryDirectory()
        let store = scratch.path + "/store"
        try Samples.copy("v2-store", to: store)
        _ = try StoreLock.withExclusiveLock(store: store, tool: "writer", version: "1") { _ in
            #expect {
                try Backup.create(
                    store: store, destination: scratch.path + "/b", tool: "t", version: "0",
                    options: .init(lockTimeout: .milliseconds(100)))
            } throws: { ($0 as? StoreError)?.code == .locked }
        }
        // Nothing was left behind: no destination, no staging folder.
        #expect(folderNames(scratch.path) == ["store"])
    }

    @Test func defaultBackupDestinationIsNextToTheStoreWithTheUTCTime() throws {
        let date = try #require(RFC3339.parse("2025-11-20T09:00:00.250Z"))
        #expect(try Backup.defaultDestination(store: "/data/store/", date: date) == "/data/store.backup-20251120T090000Z")
        #expect(try Backup.defaultDestination(store: "store", date: date) == "store.backup-20251120T090000Z")
    }

    @Test func restoreThenExportThenImportRoundTripsInProcess() throws {
        let scratch = TemporaryDirectory()
        let store = scratch.path + "/store"
        try Samples.copy("v2-store", to: store)
        _ = try Backup.create(store: store, destination: scratch.path + "/b", tool: "t", version: "0")
        let restored = try Restore.run(backup: scratch.path + "/b", target: scratch.path + "/r", tool: "t", version: "0")
        #expect(restored.targetBefore == .absent && restored.aside == nil)
        let export = try StoreExport.write(store: scratch.path + "/r", to: .file(scratch.path + "/e.jsonl"), tool: "t", version: "0")
        #expect(export.files == 15 && export.bytes == 20278)
        let imported = try StoreImport.read(from: .file(scratch.path + "/e.jsonl"), into: scratch.path + "/i", tool: "t", version: "0")
        #expect(imported.files == 15)
        #expect(scratch.files(under: "i") == scratch.files(under: "store"))
        #expect(try Restore.recoverInterrupted(target: scratch.path + "/i", tool: "t", version: "0") == nil)
    }
}
