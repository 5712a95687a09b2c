import Foundation
import StoreJSON
import Testing

@testable import JSONStore

/// `restore --migrate` in process: the staged store is migrated by the store engine
/// (`StoreMigrator`) in the staging folder, and the dry run plans with the same engine over the
/// backup folder.
@Suite struct RestoreMigrateTests {
    /// The modes given to the v1 sample's files and folders before the backup; every other file stays 0600.
    private static let folderModes: [String: mode_t] = [".": 0o755, "sessions": 0o750, "user-sessions": 0o710]
    private static let modes: [String: mode_t] = [
        "store.json": 0o644, "settings.json": 0o640,
        "sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json": 0o644,
        "sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json": 0o640,
        "user-sessions/e3ec053b-0661-4e09-b86f-1dad7839b6fd.json": 0o644,
    ]

    /// Each file the migration rewrites keeps the mode the backup recorded, a file it creates
    /// (`queue.json`) gets the mode of a file restored without one, the folders keep theirs
    /// (the work streams are committed by exchanging `sessions/`), and nothing of the engine's
    /// bookkeeping (lock file, exchange folders, temp files, write record) is in the restored store.
    @Test func migratedFilesKeepTheirRecordedModesAndNoBookkeepingIsLeft() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.v1StoreWithModes(scratch)
        let backup = scratch.path + "/b", target = scratch.path + "/r"
        _ = try Backup.create(store: store, destination: backup, tool: "t", version: "0")
        let report = try Restore.run(backup: backup, target: target, tool: "t", version: "0", options: .init(migrate: true))
        let migration = try #require(report.migration)
        #expect(migration.filesChanged == 15)
        let restored = try Self.modes(target)
        #expect(Set(restored.keys) == Set(try Self.modes(store).keys).union(["queue.json"]))
        for (path, mode) in restored { #expect(mode == (path == "queue.json" ? 0o600 : Self.modes[path] ?? 0o600), "\(path)") }
        #expect(Self.folderModes(target) == Self.folderModes)
        let everything = tree(target, dotNames: true, everyKind: true)
        #expect(everything.keys.filter { $0.split(separator: "/").contains { $0.hasPrefix(".") } }.isEmpty, "\(everything.keys.sorted())")
        #expect(folderNames(scratch.path) == ["b", "r", "store"])
        // Every document as `migrate` makes it; store.json differs only in its migration times.
        let migrated = try scratch.copySample("v1-store", as: "migrated")
        _ = try StoreMigrator(store: try Store.open(at: migrated)).migrate(toolVersion: "0")
        let timestamp = #/"(started|finished)_at": "[^"]*"/#
        let restoredFiles = tree(target), migratedFiles = tree(migrated)
        #expect(Set(restoredFiles.keys) == Set(migratedFiles.keys))
        for (path, bytes) in migratedFiles where path != "store.json" { #expect(restoredFiles[path] == bytes, "\(path)") }
        let text = { (bytes: [UInt8]?) in String(decoding: bytes ?? [], as: UTF8.self).replacing(timestamp, with: "T") }
        #expect(text(restoredFiles["store.json"]) == text(migratedFiles["store.json"]))
    }

    /// With enough customisations the engine commits them by exchanging `user-sessions/` too:
    /// the restored store has both folders with their recorded modes, every customisation
    /// migrated with its recorded mode, and neither exchange folder.
    @Test func bothFolderExchangesLeaveNothingBehindAndKeepTheModes() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.v1StoreWithModes(scratch)
        let model = try String(contentsOfFile: store + "/user-sessions/e3ec053b-0661-4e09-b86f-1dad7839b6fd.json", encoding: .utf8)
        var added: [String] = []
        for _ in 0..<StoreMigrator.customisationsExchangeMinimum + 8 {
            let id = UUID().uuidString.lowercased()
            let path = "user-sessions/\(id).json"
            try model.replacingOccurrences(of: "e3ec053b-0661-4e09-b86f-1dad7839b6fd", with: id)
                .write(toFile: store + "/" + path, atomically: false, encoding: .utf8)
            #expect(chmod(store + "/" + path, 0o640) == 0)
            added.append(path)
        }
        let backup = scratch.path + "/b", target = scratch.path + "/r"
        _ = try Backup.create(store: store, destination: backup, tool: "t", version: "0")
        let calls = FaultInjectingCalls()
        let report = try Restore.run(
            backup: backup, target: target, tool: "t", version: "0", options: .init(migrate: true),
            system: SystemCalls(calls: calls))
        #expect(calls.count("exchange") == 2 && calls.succeeded("exchange"))
        #expect(report.migration?.filesChanged == 15 + added.count)
        let restored = try Self.modes(target)
        for path in added {
            #expect(restored[path] == 0o640, "\(path)")
            #expect(String(decoding: tree(target)[path] ?? [], as: UTF8.self).contains("\"schema_version\": 4"), "\(path)")
        }
        #expect(Self.folderModes(target) == Self.folderModes)
        let everything = tree(target, dotNames: true, everyKind: true)
        #expect(everything.keys.filter { $0.split(separator: "/").contains { $0.hasPrefix(".") } }.isEmpty, "\(everything.keys.sorted())")
        #expect(folderNames(scratch.path) == ["b", "r", "store"])
    }

    /// The staged store is migrated by the store engine, which commits the work streams of an
    /// upgrade by exchanging `sessions/` with the folder it staged them in; the in-memory
    /// `StoreMigration` over a snapshot of every file never exchanges a folder. A restore without
    /// `--migrate` exchanges nothing.
    @Test func theStagedMigrationRunsTheStreamingEngine() throws {
        let scratch = TemporaryDirectory()
        let backup = scratch.path + "/b"
        _ = try Backup.create(store: try scratch.copySample("v1-store", as: "store"), destination: backup, tool: "t", version: "0")
        let plain = FaultInjectingCalls()
        _ = try Restore.run(
            backup: backup, target: scratch.path + "/plain", tool: "t", version: "0", options: .init(),
            system: SystemCalls(calls: plain))
        #expect(plain.count("exchange") == 0)
        let calls = FaultInjectingCalls()
        let report = try Restore.run(
            backup: backup, target: scratch.path + "/r", tool: "t", version: "0", options: .init(migrate: true),
            system: SystemCalls(calls: calls))
        #expect(report.migration != nil)
        #expect(calls.count("exchange") == 1 && calls.succeeded("exchange"))
    }

    /// A failure inside the staged migration (here the folder exchange) leaves the target as it
    /// was and no staging folder behind.
    @Test func aFailureInTheStagedMigrationLeavesTheTargetAndNoStagingFolder() throws {
        let scratch = TemporaryDirectory()
        let backup = scratch.path + "/b"
        _ = try Backup.create(store: try scratch.copySample("v1-store", as: "store"), destination: backup, tool: "t", version: "0")
        let target = try scratch.copySample("v2-store", as: "target")
        let before = snapshot(target)
        let calls = FaultInjectingCalls(.init(callNumber: 1, kinds: ["exchange"], fault: .error(EIO)))
        #expect {
            try Restore.run(
                backup: backup, target: target, tool: "t", version: "0", options: .init(force: true, migrate: true),
                system: SystemCalls(calls: calls))
        } throws: { ($0 as? StoreError)?.code == .io }
        #expect(snapshot(target) == before)
        #expect(folderNames(scratch.path) == ["b", "store", "target"])
    }

    /// The dry run plans the migration the run then makes: the same documents, the same changes.
    @Test func theDryRunPlansWhatTheRunDoes() throws {
        let scratch = TemporaryDirectory()
        let backup = scratch.path + "/b"
        _ = try Backup.create(store: try scratch.copySample("v1-store", as: "store"), destination: backup, tool: "t", version: "0")
        let backupBefore = snapshot(backup)
        let dry = try Restore.run(
            backup: backup, target: scratch.path + "/r", tool: "t", version: "0",
            options: .init(migrate: true, dryRun: true))
        #expect(snapshot(backup) == backupBefore)
        #expect(folderNames(scratch.path) == ["b", "store"])
        let run = try Restore.run(backup: backup, target: scratch.path + "/r", tool: "t", version: "0", options: .init(migrate: true))
        let planned = try #require(dry.migration), made = try #require(run.migration)
        #expect(planned.filesChanged == 15)
        #expect(planned.documents.map(\.file) == made.documents.map(\.file))
        #expect(planned.documents.map(\.changes) == made.documents.map(\.changes))
    }

    /// A backup of a v5 store (spec §12: `work-streams/`) is at the newest version: `--migrate`
    /// has nothing to do and restores it as it is, as it does a v4 backup.
    @Test func migrateRestoresABackupAtTheNewestLayoutAsItIs() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v5-store", as: "store")
        let backup = scratch.path + "/b"
        _ = try Backup.create(store: store, destination: backup, tool: "t", version: "0")
        let dry = try Restore.run(
            backup: backup, target: scratch.path + "/r", tool: "t", version: "0",
            options: .init(migrate: true, dryRun: true))
        #expect(dry.migration == nil)
        let report = try Restore.run(backup: backup, target: scratch.path + "/r", tool: "t", version: "0", options: .init(migrate: true))
        #expect(report.migration == nil)
        #expect(tree(scratch.path + "/r") == tree(store))
    }

    // MARK: - Helpers

    private static func v1StoreWithModes(_ scratch: TemporaryDirectory) throws -> String {
        let store = try scratch.copySample("v1-store", as: "store")
        for path in try modes(store).keys { #expect(chmod(store + "/" + path, modes[path] ?? 0o600) == 0) }
        for (folder, mode) in folderModes { #expect(chmod(store + "/" + folder, mode) == 0) }
        return store
    }

    /// The permission bits of `root` (`"."`) and of its document folders.
    private static func folderModes(_ root: String) -> [String: mode_t] {
        var result: [String: mode_t] = [:]
        for folder in [".", "sessions", "user-sessions"] {
            var status = stat()
            if lstat(root + "/" + folder, &status) == 0 { result[folder] = status.st_mode & 0o7777 }
        }
        return result
    }

    /// Every store file under `root` (dot names and a backup's own files aside) with its permission bits.
    private static func modes(_ root: String) throws -> [String: mode_t] {
        var result: [String: mode_t] = [:]
        for path in try TreeScan.scan(root).files {
            var status = stat()
            guard lstat(path.absolute(in: root), &status) == 0 else { continue }
            result[path.rawValue] = status.st_mode & 0o7777
        }
        return result
    }
}
