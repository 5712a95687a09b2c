import Foundation
import Testing

@testable import JSONStore

/// `backup`, `verify-backup` and `restore`, run as the built binary on copies of the samples.
@Suite struct BackupRestoreTests {
    @Test(arguments: ["v1-store", "v2-store"])
    func backupIsAcceptedBySha256sumAndRestoresByteIdentical(sample: String) throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample(sample, as: "store")
        let backup = try BuiltTool.run(["backup", store, scratch("backup")])
        #expect(backup.code == 0, "\(backup)")
        #expect(backup.stdout.hasPrefix("Backed up \(sample == "v1-store" ? 14 : 15) files ("))

        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        check.arguments = ["-c", "--strict", "SHA256SUMS"]
        check.currentDirectoryURL = URL(fileURLWithPath: scratch("backup"))
        check.standardOutput = FileHandle.nullDevice
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum") {
            try check.run()
            check.waitUntilExit()
            #expect(check.terminationStatus == 0)
        }
        // The backup holds the store's files as they are, plus its two own files, never a dot name.
        var expected = tree(store, everyKind: true)
        expected["backup.json"] = tree(scratch("backup"), everyKind: true)["backup.json"]
        expected["SHA256SUMS"] = tree(scratch("backup"), everyKind: true)["SHA256SUMS"]
        #expect(tree(scratch("backup"), dotNames: true, everyKind: true) == expected)

        let restore = try BuiltTool.run(["restore", scratch("backup"), scratch("restored")])
        #expect(restore.code == 0, "\(restore)")
        #expect(tree(scratch("restored"), dotNames: true, everyKind: true) == tree(Samples.path(sample), everyKind: true))
    }

    @Test func verifyBackupPrintsOKAndExitsZeroForAnIntactBackup() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        _ = try BuiltTool.run(["backup", store, scratch("b")])
        #expect(
            try BuiltTool.run(["verify-backup", scratch("b")])
                == ToolRun(
                    stdout: "OK: '\(scratch("b"))' is complete: 15 files (20278 bytes, schema version 2); every size and SHA-256 "
                        + "matches and every document reads.\n", stderr: "", code: 0))
    }

    @Test func oneFlippedByteIsCaughtByVerifyBackupAndBlocksRestore() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let backup = scratch("b")
        _ = try BuiltTool.run(["backup", store, backup])
        let victim = "sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json"
        var bytes = tree(backup, everyKind: true)[victim]!
        bytes[100] ^= 0x01
        try replaceFile(backup + "/" + victim, with: bytes)
        let recorded = String(decoding: tree(backup, everyKind: true)["SHA256SUMS"]!, as: UTF8.self)
            .split(separator: "\n").first { $0.hasSuffix(victim) }!.prefix(64)

        let verify = try BuiltTool.run(["verify-backup", backup])
        #expect(verify.code == 69)
        #expect(verify.stderr.contains("'\(victim)': has SHA-256 "))
        #expect(verify.stderr.contains(" but backup.json records \(recorded): the file was changed or damaged"))

        let target = try scratch.copySample("v1-store", as: "target")
        let before = tree(target, dotNames: true, everyKind: true)
        let namesBefore = folderNames(scratch.path)
        let restore = try BuiltTool.run(["restore", backup, target, "--force"])
        #expect(restore.code == 69)
        #expect(restore.stderr.hasPrefix("Error: Can't restore from '\(backup)': the backup is corrupt: '\(victim)': has SHA-256 "))
        #expect(restore.stderr.hasSuffix(". Nothing was written.\n"))
        #expect(tree(target, dotNames: true, everyKind: true) == before)
        #expect(folderNames(scratch.path) == namesBefore)
    }

    @Test func backupRefusesAnExistingDestinationWithExit73() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        try FileManager.default.createDirectory(atPath: scratch("b"), withIntermediateDirectories: false)
        #expect(
            try BuiltTool.run(["backup", store, scratch("b")])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Can't create the backup '\(scratch("b"))': it already exists. Choose a new folder name; an existing backup is never overwritten.

                        """, code: 73))
    }

    @Test func backupReportsEveryEntryThatDoesNotBelongAndWritesNothing() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        try Data("x".utf8).write(to: URL(fileURLWithPath: store + "/notes.txt"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: store + "/sessions/NOT-A-UUID.json"))
        let run = try BuiltTool.run(["backup", store, scratch("b")])
        #expect(run.code == 65)
        #expect(
            run.stderr == "Error: Can't back up '\(store)': 2 entries do not belong in a store: 'notes.txt': is not part of a "
                + "store (STORE-FORMAT §1 allows only store.json, settings.json, queue.json, sessions/ and user-sessions/); "
                + "'sessions/NOT-A-UUID.json': is not a valid document name: only a lowercase UUID followed by '.json' is allowed. "
                + "Move them out of the store and try again.\n")
        #expect(folderNames(scratch.path) == ["store"])
    }

    @Test func backupWithLinkLeavesOutDotFilesAndHardLinksOnTheSameFileSystem() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        try Data("tmp".utf8).write(to: URL(fileURLWithPath: store + "/sessions/.tmp-0123456789abcdef-x.json"))
        let run = try BuiltTool.run(["--json", "backup", store, scratch("b"), "--link"])
        #expect(run.code == 0)
        #expect(run.stdout.contains("\"linked_files\": 15"))
        #expect(tree(scratch("b"), dotNames: true, everyKind: true).keys.allSatisfy { !$0.contains("/.") && !$0.hasPrefix(".") })
        var store1 = stat(), backup1 = stat()
        lstat(store + "/store.json", &store1)
        lstat(scratch("b") + "/store.json", &backup1)
        #expect(store1.st_ino == backup1.st_ino)
    }

    @Test func restoreRefusesANonEmptyStoreWithoutForceAndKeepsTheReplacedStoreWithForce() throws {
        let scratch = TemporaryDirectory()
        let source = try scratch.copySample("v2-store", as: "source")
        _ = try BuiltTool.run(["backup", source, scratch("b")])
        let target = try scratch.copySample("v1-store", as: "target")
        let old = tree(target, dotNames: true, everyKind: true)

        let refused = try BuiltTool.run(["restore", scratch("b"), target])
        #expect(refused.code == 73)
        #expect(
            refused.stderr == "Error: Can't restore into '\(target)': it is not empty (4 entries). Use --force to replace it; "
                + "the current content is then kept next to it as 'target.replaced-<time>'.\n")
        #expect(tree(target, dotNames: true, everyKind: true) == old)

        let forced = try BuiltTool.run(["restore", scratch("b"), target, "--force"])
        #expect(forced.code == 0, "\(forced)")
        let aside = try #require(folderNames(scratch.path).first { $0.hasPrefix("target.replaced-") })
        #expect(aside.count == "target.replaced-20251120T090000Z".count)
        #expect(forced.stdout.contains("Moved the existing content of '\(target)' aside to '\(scratch(aside))'."))
        #expect(tree(scratch(aside), everyKind: true) == tree(Samples.v1Store, everyKind: true))
        #expect(tree(target, dotNames: true, everyKind: true) == tree(Samples.v2Store, everyKind: true))
        // Nothing else is left next to the store: no staging folder, journal or lock file.
        #expect(folderNames(scratch.path) == ["b", "source", "target", aside])
    }

    @Test func restoreDryRunSaysWhatWouldHappenAndWritesNothing() throws {
        let scratch = TemporaryDirectory()
        let source = try scratch.copySample("v1-store", as: "source")
        _ = try BuiltTool.run(["backup", source, scratch("b")])
        let target = try scratch.copySample("v2-store", as: "target")
        let namesBefore = folderNames(scratch.path)
        let run = try BuiltTool.run(["restore", scratch("b"), target, "--dry-run", "--force", "--migrate"])
        #expect(run.code == 0, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0] == "Dry run: nothing was written.")
        #expect(lines[1] == "Verified the backup '\(scratch("b"))': 14 files (17737 bytes), schema version 1.")
        #expect(lines[2].hasPrefix("Would move the existing content of '\(target)' aside to '\(scratch("target.replaced-"))"))
        #expect(lines[3] == "Would restore 14 files into '\(target)'.")
        #expect(lines[4] == "Would migrate the restored store from schema version 1 to 4: 15 files would change.")
        #expect(folderNames(scratch.path) == namesBefore)
        #expect(tree(target, dotNames: true, everyKind: true) == tree(Samples.v2Store, everyKind: true))
    }

    @Test func restoreWithMigrateUpgradesAnOlderBackupLikeTheMigration() throws {
        let scratch = TemporaryDirectory()
        let source = try scratch.copySample("v1-store", as: "source")
        _ = try BuiltTool.run(["backup", source, scratch("b")])
        let run = try BuiltTool.run(["restore", scratch("b"), scratch("new"), "--migrate"])
        #expect(run.code == 0, "\(run)")
        let restored = tree(scratch("new"), everyKind: true)
        let golden = tree(try StoreTrees.migratedV3Sample(at: scratch("reference")), everyKind: true)
        #expect(Set(restored.keys) == Set(golden.keys))
        // Every file equals the golden migration output; store.json differs only in its migration timestamps.
        for (path, bytes) in golden where path != "store.json" { #expect(restored[path] == bytes, "\(path)") }
        let timestamp = #/"(started|finished)_at": "[^"]*"/#
        let manifest = String(decoding: restored["store.json"]!, as: UTF8.self).replacing(timestamp, with: "T")
        #expect(manifest == String(decoding: golden["store.json"]!, as: UTF8.self).replacing(timestamp, with: "T"))
    }

    @Test func restoreWithoutMigrateKeepsAnOlderStoreAsItIs() throws {
        let scratch = TemporaryDirectory()
        let source = try scratch.copySample("v1-store", as: "source")
        _ = try BuiltTool.run(["backup", source, scratch("b")])
        let run = try BuiltTool.run(["restore", scratch("b"), scratch("new")])
        #expect(run.code == 0)
        #expect(
            run.stdout.hasSuffix(
                "Note: the restored store has schema version 1. To upgrade it, run "
                    + "'migrate-store migrate \(scratch("new"))' or restore with --migrate.\n"))
        #expect(tree(scratch("new"), everyKind: true) == tree(Samples.v1Store, everyKind: true))
    }

    @Test func verifyBackupExits65ForANewerBackupFormat() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        _ = try BuiltTool.run(["backup", store, scratch("b")])
        let path = scratch("b") + "/backup.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try replaceFile(path, with: Array(text.replacingOccurrences(of: "\"format_version\": 1", with: "\"format_version\": 2").utf8))
        let run = try BuiltTool.run(["verify-backup", scratch("b")])
        #expect(
            run
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: '\(scratch("b"))' can't be read by this version of the tool: 1 problem:
                          'backup.json': has format_version 2, but this tool reads version 1; use a newer version of the tool

                        """, code: 65))
    }

    @Test func verifyBackupExits65ForAStoreSchemaThisToolMayNotRead() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let manifest = try String(contentsOfFile: store + "/store.json", encoding: .utf8)
            .replacingOccurrences(of: "\"min_reader_version\": 1", with: "\"min_reader_version\": 6")
            .replacingOccurrences(of: "\"schema_version\": 2", with: "\"schema_version\": 6")
        try replaceFile(store + "/store.json", with: Array(manifest.utf8))
        // `backup` refuses a store it can't read (issue 32); a backup of one made without that
        // check (the library's seam, as an older build made it) is what verify-backup meets.
        let backup = try BuiltTool.run(["backup", store, scratch("b")])
        #expect(backup.code == 65, "\(backup)")
        #expect(backup.stderr.contains("the store has schema_version 6 and needs a reader of version 6 or newer"), "\(backup)")
        #expect(!FileManager.default.fileExists(atPath: scratch("b")))
        _ = try Backup.create(store: store, destination: scratch("b"), tool: "t", version: "0", options: .init(), system: .real)
        let run = try BuiltTool.run(["--json", "verify-backup", scratch("b")])
        #expect(run.code == 65)
        #expect(run.stdout.contains("\"status\": \"incompatible\""))
    }

    @Test func backupExportAndRestoreRefuseToWriteInsideWhatTheyRead() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let before = tree(store, dotNames: true, everyKind: true)
        #expect(try BuiltTool.run(["backup", store, store + "/sessions/../bk"]).code == 65)
        #expect(try BuiltTool.run(["export", store, store + "/e.jsonl"]).code == 65)
        #expect(tree(store, dotNames: true, everyKind: true) == before)
        _ = try BuiltTool.run(["backup", store, scratch("b")])
        let run = try BuiltTool.run(["restore", scratch("b"), scratch("b") + "/x"])
        #expect(
            run
                == ToolRun(
                    stdout: "",
                    stderr: "Error: Can't restore into '\(scratch("b"))/x': it is inside the backup "
                        + "'\(scratch("b"))', which holds only the backed-up files. Choose a folder outside the backup.\n", code: 65))
        #expect(try BuiltTool.run(["verify-backup", scratch("b")]).code == 0)
    }
}
