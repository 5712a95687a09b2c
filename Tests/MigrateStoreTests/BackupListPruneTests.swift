import Foundation
import TestSupport
import Testing

@testable import JSONStore
@testable import MigrateStoreCLI

/// `list-backups` and `prune-backups`, run as the built binary, and what `migrate` says of its
/// backup. Each test builds the folders beside a copy of a sample store and checks the exact
/// output, the exit status and the folders left on disk.
@Suite struct BackupListPruneTests {
    /// A copy of `v1-store` as `store`, with backups beside it: `B` and `A` taken in that order
    /// (so `A`'s name says it is older, its backup.json that it is newer), and a default-named
    /// folder whose backup.json is not JSON.
    struct Fixture {
        let scratch = TemporaryDirectory()
        let store: String
        /// Oldest first, as `list-backups` sorts them.
        let unreadable: String, first: String, second: String

        init() throws {
            store = try scratch.copySample("v1-store", as: "store")
            first = scratch("store.backup-20250103T000000Z")
            second = scratch("store.backup-20250101T000000Z")
            unreadable = scratch("store.backup-20240101T000000Z")
            _ = try Backup.create(store: store, destination: first, tool: "test", version: "1")
            _ = try Backup.create(store: store, destination: second, tool: "test", version: "1")
            try FileManager.default.createDirectory(atPath: unreadable, withIntermediateDirectories: false)
            try Data("{".utf8).write(to: URL(fileURLWithPath: unreadable + "/backup.json"))
        }
    }

    static let notJSON =
        "'backup.json': is not valid JSON: JSON syntax error at line 1, column 2 (byte 1): expected a string key or '}' "
        + "in object, found end of input"

    @Test func listShowsEveryBackupOldestFirstByItsBackupJSONWithTheTotal() throws {
        let f = try Fixture()
        let (u, a, b) = (try du(f.unreadable), try du(f.first), try du(f.second))
        let (ta, tb) = (try createdAt(f.first), try createdAt(f.second))
        let total = u + a + b
        let width = max(ByteCount.text(u).count, ByteCount.text(a).count, ByteCount.text(b).count, 7)
        func size(_ bytes: Int64) -> String { ByteCount.text(bytes).padding(toLength: width, withPad: " ", startingAt: 0) }
        #expect(
            try BuiltTool.run(["list-backups", f.store])
                == ToolRun(
                    stdout: """
                        3 backups beside '\(f.store)', oldest first:
                          TAKEN                     SCHEMA  FILES  \("ON DISK".padding(toLength: width, withPad: " ", startingAt: 0))  STATE       BACKUP
                          ?                              ?      ?  \(size(u))  unreadable  store.backup-20240101T000000Z
                          \(ta)       1     14  \(size(a))  ok          store.backup-20250103T000000Z
                          \(tb)       1     14  \(size(b))  ok          store.backup-20250101T000000Z
                          store.backup-20240101T000000Z: backup.json does not read: \(Self.notJSON)
                        Total: 3 backups, \(total) bytes on disk (\(ByteCount.text(total))).
                        To remove all but the newest: \(ToolInfo.command("prune-backups", f.store, "--keep", "1")) (--dry-run shows what it would remove).

                        """, stderr: "", code: 0))
    }

    @Test func listJSONHasEachBackupsFields() throws {
        let f = try Fixture()
        let run = try BuiltTool.run(["list-backups", f.store, "--json"])
        // Information goes to standard error with --json; standard output holds only the object.
        #expect(
            run.code == 0
                && run.stderr == "To remove all but the newest: \(ToolInfo.command("prune-backups", f.store, "--keep", "1")) "
                    + "(--dry-run shows what it would remove).\n",
            "\(run)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let backups = try #require(object["backups"] as? [[String: Any]])
        #expect(
            backups.map { $0["name"] as? String } == [
                "store.backup-20240101T000000Z", "store.backup-20250103T000000Z",
                "store.backup-20250101T000000Z",
            ])
        #expect(backups.map { $0["state"] as? String } == ["unreadable", "ok", "ok"])
        #expect(backups.map { $0["prunable"] as? Bool } == [false, true, true])
        #expect(backups.map { $0["store_schema_version"] as? Int } == [nil, 1, 1])
        #expect(backups.map { $0["bytes"] as? Int } == [nil, 17737, 17737])
        #expect(backups.map { $0["created_at"] as? String } == [nil, try createdAt(f.first), try createdAt(f.second)])
        #expect(backups.map { ($0["bytes_on_disk"] as? Int).map(Int64.init) } == [try du(f.unreadable), try du(f.first), try du(f.second)])
        #expect(backups[0]["manifest_problem"] as? String == Self.notJSON)
        let total = Int(try du(f.unreadable) + du(f.first) + du(f.second))
        #expect(object["total_bytes_on_disk"] as? Int == total)
    }

    @Test func listOfAFolderWithoutBackupsSaysSo() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        #expect(try BuiltTool.run(["list-backups", store]) == ToolRun(stdout: "No backups beside '\(store)'.\n", stderr: "", code: 0))
    }

    @Test func pruneKeepsTheNewestAndRemovesOnlyCompleteBackupsOfThisStore() throws {
        let f = try Fixture()
        let third = f.scratch("store.backup-20250102T000000Z")
        _ = try Backup.create(store: f.store, destination: third, tool: "test", version: "1")
        let (a, b) = (try du(f.first), try du(f.second))
        let keptTree = tree(third, dotNames: true, everyKind: true)
        let storeTree = tree(f.store, dotNames: true, everyKind: true)
        #expect(
            try BuiltTool.run(["prune-backups", f.store, "--keep", "1"])
                == ToolRun(
                    stdout: """
                        Removed 'store.backup-20250103T000000Z' (\(a) bytes on disk).
                        Removed 'store.backup-20250101T000000Z' (\(b) bytes on disk).
                        Freed \(a + b) bytes (\(ByteCount.text(a + b))). Kept the newest 1: 'store.backup-20250102T000000Z'.
                        Not pruned: 'store.backup-20240101T000000Z': its backup.json does not read (\(Self.notJSON)).

                        """, stderr: "", code: 0))
        #expect(folderNames(f.scratch.path) == ["store", "store.backup-20240101T000000Z", "store.backup-20250102T000000Z"])
        #expect(tree(third, dotNames: true, everyKind: true) == keptTree)
        #expect(tree(f.store, dotNames: true, everyKind: true) == storeTree)
        #expect(try BuiltTool.run(["verify-backup", third]).code == 0)
    }

    @Test func pruneDryRunRemovesNothing() throws {
        let f = try Fixture()
        let a = try du(f.first)
        let before = folderNames(f.scratch.path)
        #expect(
            try BuiltTool.run(["prune-backups", f.store, "--keep", "1", "--dry-run", "--quiet"])
                == ToolRun(
                    stdout: """
                        Would remove 'store.backup-20250103T000000Z' (\(a) bytes on disk).
                        Would free \(a) bytes (\(ByteCount.text(a))) and keep the newest 1: 'store.backup-20250101T000000Z'. Nothing was removed (--dry-run).

                        """, stderr: "", code: 0))
        #expect(folderNames(f.scratch.path) == before)
        #expect(before == ["store", "store.backup-20240101T000000Z", "store.backup-20250101T000000Z", "store.backup-20250103T000000Z"])
    }

    @Test func pruneNeverRemovesAnIncompleteBackupOrAnotherStoresOrAnotherName() throws {
        let f = try Fixture()
        // Incomplete: a file backup.json lists is gone.
        let victim = try #require(try FileManager.default.contentsOfDirectory(atPath: f.first + "/sessions").sorted().first)
        try FileManager.default.removeItem(atPath: f.first + "/sessions/" + victim)
        // Another store's backup under this store's default name: its store.json has another created_at.
        let other = try f.scratch.copySample("v1-store", as: "other")
        try Data(#"{"created_at":"2024-01-01T00:00:00.000Z","format":"work-stream-store","schema_version":1}"#.utf8)
            .write(to: URL(fileURLWithPath: other + "/store.json"))
        _ = try Backup.create(store: other, destination: f.scratch("store.backup-20230101T000000Z"), tool: "test", version: "1")
        // A backup of this store under another name.
        _ = try Backup.create(store: f.store, destination: f.scratch("kept-by-hand"), tool: "test", version: "1")
        let before = folderNames(f.scratch.path)

        let run = try BuiltTool.run(["prune-backups", f.store, "--keep", "1"])
        #expect(
            run
                == ToolRun(
                    stdout: """
                        Nothing to remove: 1 backup of '\(f.store)' can be pruned, and --keep 1 keeps it.
                        Not pruned: 'store.backup-20240101T000000Z': its backup.json does not read (\(Self.notJSON)).
                        Not pruned: 'store.backup-20250103T000000Z': it is incomplete: 1 of its files is missing or has another size.
                        Not pruned: 'store.backup-20230101T000000Z': its backup.json names another store (created 2024-01-01T00:00:00.000Z).
                        Not pruned: 'kept-by-hand': its name is not one migrate gives (only '<store>.backup-<time>' folders are pruned).

                        """, stderr: "", code: 0))
        #expect(folderNames(f.scratch.path) == before)
        let list = try BuiltTool.run(["list-backups", f.store, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
        let backups = try #require(object["backups"] as? [[String: Any]])
        #expect(backups.map { $0["state"] as? String } == ["unreadable", "incomplete", "ok", "other store", "ok"])
        #expect(
            backups.map { $0["name"] as? String } == [
                "store.backup-20240101T000000Z", "store.backup-20250103T000000Z",
                "store.backup-20250101T000000Z", "store.backup-20230101T000000Z", "kept-by-hand",
            ])
    }

    @Test func pruneRefusesWithoutRemovingAnything() throws {
        let f = try Fixture()
        let before = folderNames(f.scratch.path)
        let zero = try BuiltTool.run(["prune-backups", f.store, "--keep", "0"])
        #expect(zero.code == 64 && zero.stdout == "" && zero.stderr.hasPrefix("Error: --keep expects an integer of at least 1, got '0'.\n"))
        let missing = try BuiltTool.run(["prune-backups", f.scratch("gone"), "--keep", "1"])
        #expect(
            missing
                == ToolRun(
                    stdout: "", stderr: "Error: '\(f.scratch("gone"))' does not exist, so it is not a store. Check the path.\n",
                    code: 64))
        try Data("{".utf8).write(to: URL(fileURLWithPath: f.store + "/store.json"))
        #expect(
            try BuiltTool.run(["prune-backups", f.store, "--keep", "1"])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Can't prune the backups of '\(f.store)': its store.json does not read, so no backup can be shown to be of this \
                        store. Nothing was removed. Check the store with 'validate'.

                        """, code: 65))
        #expect(folderNames(f.scratch.path) == before)
    }

    @Test func anInterruptedRemovalIsListedAndFinishedByTheNextPrune() throws {
        let f = try Fixture()
        let leftover = f.scratch(".store.backup-20220101T000000Z.removing-0123456789abcdef")
        try FileManager.default.createDirectory(atPath: leftover + "/sessions", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: leftover + "/sessions/a.json"))
        let list = try BuiltTool.run(["list-backups", f.store])
        #expect(list.code == 0 && list.stdout.hasPrefix("3 backups beside"))
        #expect(
            list.stdout.contains(
                "Note: '\(leftover)' is a backup an interrupted prune-backups was removing; the next "
                    + "prune-backups removes it.\n"))
        let prune = try BuiltTool.run(["prune-backups", f.store, "--keep", "2"])
        #expect(prune.code == 0)
        #expect(prune.stdout.hasPrefix("Finished removing '\(leftover)', left by an interrupted prune-backups.\nNothing to remove: "))
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(folderNames(f.scratch.path).count == 4)
    }

    @Test func migrateSaysHowLargeItsBackupIsAndHowToListAndPrune() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v1-store", as: "store")
        let run = try BuiltTool.run(["migrate", store, "--to", "2"])
        #expect(run.code == 0, "\(run)")
        let backup = scratch(try #require(folderNames(scratch.path).first { $0.hasPrefix("store.backup-") }))
        let size = ByteCount.text(try du(backup))
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.dropFirst(2).prefix(3) == [
                "Check it against the backup with: " + ToolInfo.command("verify", store, "--against", backup),
                "Backup: '\(backup)' (14 files, 17737 bytes; \(size) on disk).",
                "1 backup beside '\(store)' takes \(size) on disk: '\(ToolInfo.command("list-backups", store))' lists it, "
                    + "'\(ToolInfo.command("prune-backups", store, "--keep", "1"))' removes all but the newest.",
            ])
        // A second default backup in the same second would take the same name: this one goes to --backup-dir,
        // whose name beside the store still marks it as one of its backups.
        let json = try BuiltTool.run(["migrate", store, "--to", "3", "--json", "--backup-dir", scratch("store.backup-by-hand")])
        #expect(json.code == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let second = try #require(object["backup"] as? String)
        #expect(object["backup_bytes_on_disk"] as? Int == Int(try du(second)))
        let beside = try #require(object["backups_beside_store"] as? [String: Any])
        let both = Int(try du(backup) + du(second))
        #expect(beside["count"] as? Int == 2)
        #expect(beside["bytes_on_disk"] as? Int == both)
    }

    @Test func byteCountsForPeople() {
        #expect(
            [0, 1, 1023, 1024, 86016, 1_048_576, 325_058_560, 1_610_612_736, 5 * 1_099_511_627_776].map { ByteCount.text($0) }
                == ["0 bytes", "1 byte", "1023 bytes", "1.0 KiB", "84.0 KiB", "1.0 MiB", "310.0 MiB", "1.5 GiB", "5.0 TiB"])
    }

    @Test func defaultNamesAreRecognisedExactly() throws {
        let store = try SiblingPath("/data/store")
        #expect(Backup.isDefaultName("store.backup-20251120T090000Z", of: store))
        #expect(!Backup.isDefaultName("store.backup-20251120T090000Z-2", of: store))
        #expect(!Backup.isDefaultName("store.backup-2025112XT090000Z", of: store))
        #expect(!Backup.isDefaultName("other.backup-20251120T090000Z", of: store))
        #expect(!Backup.isDefaultName("store.backup-x20251120T090000Z", of: store))
        #expect(Backup.date(inDefaultName: "store.backup-20251120T090000Z") == RFC3339Date.make("2025-11-20T09:00:00.000Z"))
        #expect(
            try Backup.defaultDestination(store: "/data/store", date: #require(RFC3339Date.make("2025-11-20T09:00:00.000Z")))
                == "/data/store.backup-20251120T090000Z")
    }
}

/// Dates for the tests, read with Foundation's ISO 8601 reader (independent of the library's).
enum RFC3339Date {
    static func make(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

/// The disk space of a folder as `du -s -B1` prints it.
private func du(_ path: String) throws -> Int64 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/du")
    process.arguments = ["-s", "-B1", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    return try #require(Int64(text.prefix { $0.isNumber }))
}

/// `created_at` of a backup's backup.json.
private func createdAt(_ backup: String) throws -> String {
    let data = try Data(contentsOf: URL(fileURLWithPath: backup + "/backup.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(object["created_at"] as? String)
}
