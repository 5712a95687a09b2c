import Foundation
import StoreGenerator
import Testing

/// Every command but `migrate` on a v5 store (spec §12, `V5Fixture` made from `Samples/v4-store`),
/// run as the built binary: backup, verify-backup, restore, export and import keep it byte for
/// byte; the folder of an interrupted layout change is a warning and never copied.
@Suite struct V5StoreCommandTests {
    static func fixture(_ scratch: TemporaryDirectory, as name: String = "store") throws -> String {
        let store = scratch(name)
        try V5Fixture.make(from: Samples.v4Store, to: store)
        return store
    }

    @Test func backupVerifyAndRestoreGiveTheSameV5Store() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.fixture(scratch)
        let backup = try BuiltTool.run(["backup", store, scratch("backup")])
        #expect(backup.code == 0, "\(backup)")
        #expect(backup.stdout.hasPrefix("Backed up 16 files (22374 bytes, schema version 5) from '\(store)' to '\(scratch("backup"))'.\n"))
        var expected = tree(store, everyKind: true)
        expected["backup.json"] = tree(scratch("backup"), everyKind: true)["backup.json"]
        expected["SHA256SUMS"] = tree(scratch("backup"), everyKind: true)["SHA256SUMS"]
        #expect(tree(scratch("backup"), dotNames: true, everyKind: true) == expected)
        #expect(
            try BuiltTool.run(["verify-backup", scratch("backup")])
                == ToolRun(
                    stdout:
                        "OK: '\(scratch("backup"))' is complete: 16 files (22374 bytes, schema version 5); every size and SHA-256 matches and every document reads.\n",
                    stderr: "", code: 0))
        let restore = try BuiltTool.run(["restore", scratch("backup"), scratch("restored")])
        #expect(restore.code == 0, "\(restore)")
        #expect(tree(scratch("restored"), dotNames: true, everyKind: true) == tree(store, everyKind: true))
    }

    @Test(arguments: ["--json", nil])
    func exportThenImportIntoAnEmptyPlaceGivesTheSameV5Store(_ flag: String?) throws {
        let scratch = TemporaryDirectory()
        let store = try Self.fixture(scratch)
        let export = try BuiltTool.run(["export", store, scratch("store.export")] + (flag.map { [$0] } ?? []))
        #expect(export.code == 0, "\(export)")
        let imported = try BuiltTool.run(["import", scratch("store.export"), scratch("imported")] + (flag.map { [$0] } ?? []))
        #expect(imported.code == 0, "\(imported)")
        if flag == nil {
            #expect(
                imported.stdout.hasPrefix("Imported 16 files (22374 bytes, schema version 5) from '\(scratch("store.export"))' into '\(scratch("imported"))'"))
        }
        #expect(tree(scratch("imported"), dotNames: true, everyKind: true) == tree(store, everyKind: true))
        #expect(try BuiltTool.run(["validate", scratch("imported")]).code == 0)
    }

    @Test func leftoverSessionsFolderIsAWarningAndIsLeftOutOfBackupsAndExports() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.fixture(scratch)
        let clean = tree(store, everyKind: true)
        try FileManager.default.copyItem(atPath: Samples.v4Store + "/sessions", toPath: store + "/sessions")
        let status = try BuiltTool.run(["status", store])
        #expect(status.code == 0)
        #expect(
            status.stdout.contains(
                "\nWarning:         interrupted_layout_change: sessions/ was left by an interrupted change of layout between schema v4 and v5 (spec §12); this v5 store keeps its work streams in work-streams/ and never reads it; run 'migrate-store migrate \(store)' to finish\n"
            ))
        #expect(status.stdout.contains("\nWork streams:    8 (v5: 8)\n"))
        let validate = try BuiltTool.run(["validate", store])
        #expect(validate.code == 0)
        #expect(
            validate.stdout.hasPrefix(
                "Note: sessions: left by an interrupted change of layout between schema v4 and v5 (spec §12); this v5 store keeps its work streams in work-streams/ and never reads it. Fix: Run 'migrate-store migrate \(store)' to finish it.\n"
            ))
        let json = try BuiltTool.run(["status", store, "--json"])
        #expect(json.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let warnings = try #require(object["warnings"] as? [[String: String]])
        #expect(warnings.map { $0["code"] } == ["interrupted_layout_change"])
        #expect(warnings.map { $0["folder"] } == ["sessions"])

        #expect(try BuiltTool.run(["backup", store, scratch("backup")]).code == 0)
        var expected = clean
        expected["backup.json"] = tree(scratch("backup"), everyKind: true)["backup.json"]
        expected["SHA256SUMS"] = tree(scratch("backup"), everyKind: true)["SHA256SUMS"]
        #expect(tree(scratch("backup"), dotNames: true, everyKind: true) == expected)
        #expect(try BuiltTool.run(["export", store, scratch("store.export")]).code == 0)
        #expect(try BuiltTool.run(["import", scratch("store.export"), scratch("imported")]).code == 0)
        #expect(tree(scratch("imported"), dotNames: true, everyKind: true) == clean)
    }

    @Test func leftoverWorkStreamsFolderOfAV4StoreIsAWarningAndIsLeftOut() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v4-store", as: "store")
        try V5Fixture.make(from: Samples.v4Store, to: scratch("v5"))
        try FileManager.default.copyItem(atPath: scratch("v5") + "/work-streams", toPath: store + "/work-streams")
        let validate = try BuiltTool.run(["validate", store, "--json"])
        #expect(validate.code == 0)
        #expect(validate.stdout.contains("\"interrupted_layout_change\""))
        let status = try BuiltTool.run(["status", store])
        #expect(
            status.stdout.contains(
                "\nWarning:         interrupted_layout_change: work-streams/ was left by an interrupted change of layout between schema v4 and v5 (spec §12); this v4 store keeps its work streams in sessions/ and never reads it; run 'migrate-store migrate \(store)' to finish\n"
            ))
        #expect(try BuiltTool.run(["backup", store, scratch("backup")]).code == 0)
        #expect(!FileManager.default.fileExists(atPath: scratch("backup") + "/work-streams"))
        #expect(tree(scratch("backup")).keys.filter { $0.hasPrefix("sessions/") }.count == 8)
    }

    @Test func aV5BackupWithAWorkStreamInSessionsIsRefused() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.fixture(scratch)
        #expect(try BuiltTool.run(["backup", store, scratch("backup")]).code == 0)
        // A v5 backup whose work stream is put back under sessions/ (and listed there): not a v5 store.
        let name = "c25e47cd-f10a-49a3-9ec4-a9355366da75.json"
        try FileManager.default.createDirectory(atPath: scratch("backup") + "/sessions", withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: scratch("backup") + "/work-streams/" + name, toPath: scratch("backup") + "/sessions/" + name)
        for file in ["SHA256SUMS", "backup.json"] {
            let text = try String(contentsOfFile: scratch("backup") + "/" + file, encoding: .utf8)
            try text.replacingOccurrences(of: "work-streams/" + name, with: "sessions/" + name)
                .write(toFile: scratch("backup") + "/" + file, atomically: false, encoding: .utf8)
        }
        // sessions/ of a v5 backup is the other layout's folder: never read, so the listed file is missing.
        #expect(
            try BuiltTool.run(["verify-backup", scratch("backup")])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: '\(scratch("backup"))' is corrupt: 1 problem:
                          'sessions/\(name)': is listed in backup.json but missing from the backup folder

                        """, code: 69))
    }

    /// On a v5 store at its version, `migrate` and `plan` change nothing and write nothing (not
    /// even a lock file or a backup), and `verify` passes (the round trip and the readers refused).
    @Test func migrateAndPlanOnAV5StoreChangeNothingAndVerifyPasses() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.fixture(scratch)
        let before = snapshot(scratch.path, includingRoot: true)
        #expect(
            try BuiltTool.run(["migrate", store])
                == ToolRun(
                    stdout: "'\(store)' is already at version 5: nothing to do, no document was changed.\n",
                    stderr: "", code: 0))
        #expect(
            try BuiltTool.run(["plan", store])
                == ToolRun(
                    stdout: "'\(store)' is already at version 5: a migration would change nothing.\n",
                    stderr: "", code: 0))
        let verify = try BuiltTool.run(["verify", store])
        #expect(
            verify.code == 0 && verify.stdout.hasSuffix("Verified: the breaking step goes back exactly, and older app versions are refused as they must be.\n"),
            "\(verify)")
        #expect(snapshot(scratch.path, includingRoot: true) == before)
    }
}
