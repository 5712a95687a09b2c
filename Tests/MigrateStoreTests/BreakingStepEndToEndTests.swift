import Foundation
import StoreJSON
import Testing

@testable import JSONStore

/// Issue 15 acceptance on the built binary: the breaking step v4 → v5 (spec §9, §12) and its
/// exact inverse.
@Suite(.serialized) struct BreakingStepEndToEndTests {
    /// The sample's one work stream with a stale mirror value: `queued_at` set although queue.json
    /// does not queue it (a v1 leftover the forward step reports as `stale_mirror_key`).
    static let stale = "ad63adfa-7ad7-45dc-882c-80791120b6cc"

    static func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func withoutAllowBreakingTheUpgradeIsRefusedNamingTheReadersAndNothingChanges() throws {
        let temporary = TemporaryDirectory("breaking-refused")
        let store = try temporary.copySample("v4-store", as: "store")
        let before = snapshot(temporary.path)
        let run = try BuiltTool.run(["migrate", store, "--to", "5"])
        #expect(run.code == 64)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr.hasPrefix(
                "Error: Can't migrate '\(store)' to schema version 5 without --allow-breaking: v4 → v5 is a breaking step: "
                    + "afterwards the store sets min_reader_version 5 and refuses every reader of schema versions 1 to 4 "
                    + "(app versions built on them stop opening it). See every change first with 'migrate-store plan \(store) --to 5'. "
                    + "To proceed, run 'migrate-store migrate \(store) --to 5 --allow-breaking' (a verified backup is taken first; "
                    + "'migrate-store migrate \(store) --to 4' goes back exactly). Nothing was changed.\n"), "\(run.stderr)")
        let noBackup = try BuiltTool.run(["migrate", store, "--to", "5", "--allow-breaking", "--no-backup"])
        #expect(noBackup.code == 64)
        #expect(noBackup.stderr.hasPrefix("Error: Options '--allow-breaking' and '--no-backup' cannot be used together.\n"), "\(noBackup.stderr)")
        #expect(snapshot(temporary.path) == before, "no byte, no lock file, no backup folder")
    }

    @Test func theLibraryRefusesTheBreakingStepWithoutConfirmationOrWithoutABackup() throws {
        let temporary = TemporaryDirectory("breaking-library")
        let store = try temporary.copySample("v4-store", as: "store")
        let before = snapshot(temporary.path)
        for (allow, backup) in [(false, StoreUpgrade.BackupPolicy.defaultFolder), (true, .none)] {
            let error = #expect(throws: StoreError.self) {
                try StoreUpgrade.run(at: store, to: 5, backup: backup, allowBreaking: allow, tool: "test", version: "1")
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message.contains("refuses every reader of schema versions 1 to 4") == true, "\(String(describing: error))")
            #expect(error?.message.hasSuffix("Nothing was changed.") == true)
        }
        #expect(snapshot(temporary.path) == before)
    }

    @Test func planToFiveShowsTheBreakingStepAndEveryNormalisationPerDocument() throws {
        let temporary = TemporaryDirectory("breaking-plan")
        let store = try temporary.copySample("v4-store", as: "store")
        let before = snapshot(temporary.path)
        let plan = try BuiltTool.run(["plan", store, "--to", "5"])
        #expect(plan.code == 0)
        #expect(
            plan.stdout.hasPrefix(
                """
                Plan for '\(store)': schema version 4 → 5, 1 step. Nothing has been written.
                  step 4 → 5 (breaking): renames sessions/ to work-streams/ and backend_name to name, and drops the queue mirror keys (§12)
                App versions that can read the store after it: version 5 only.

                """), "\(plan.stdout)")
        #expect(
            plan.stdout.contains(
                """
                work-streams/\(Self.stale).json
                  schema_version 4 → 5
                  rename backend_name to name (value kept)
                  drop queued_at = 2025-10-28T08:33:10.031Z: queue.json does not imply it (a stale leftover)
                  remove the seven queue keys (the queue is in queue.json)

                """), "\(plan.stdout)")
        #expect(
            plan.stdout.contains(
                "\nBreaking: v4 → v5 is a breaking step: afterwards the store sets min_reader_version 5 and refuses every reader of schema versions 1 to 4"))
        #expect(plan.stdout.contains("store.json\n  schema_version 4 → 5, min_reader_version 5\n"))
        #expect(plan.stdout.contains("Run 'migrate-store migrate \(store) --to 5 --allow-breaking' to make exactly these changes"))
        let json = try BuiltTool.run(["--json", "plan", store, "--to", "5"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(steps.count == 1 && steps[0]["kind"] as? String == "breaking")
        #expect(snapshot(temporary.path) == before)
    }

    /// `--to 5` then `--to 4`: the v4 store comes back exactly, document by document, except the
    /// one normalisation the forward run reported, and store.json's two new migration records.
    @Test func upgradeToFiveThenBackToFourGivesBackTheV4StoreExactly() throws {
        let temporary = TemporaryDirectory("breaking-round-trip")
        let store = try temporary.copySample("v4-store", as: "store")
        let original = tree(store)
        let up = try BuiltTool.run(["migrate", store, "--to", "5", "--allow-breaking", "--backup-dir", temporary.path + "/backup"])
        #expect(up.code == 0, "\(up)")
        #expect(
            up.stdout.contains(
                "Migrated '\(store)' from schema version 4 to 5: 16 files change: 8 key_renamed, 1 manifest_upgraded, "
                    + "1 migration_recorded, 8 mirror_keys_removed, 15 schema_version, 1 stale_mirror_key."), "\(up.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: store).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names == ["queue.json", "settings.json", "store.json", "user-sessions", "work-streams"])
        let manifest = try ManifestV2(json: try DocumentVersion.parse(try Self.read(store + "/store.json")), acceptingNewerVersions: true)
        #expect(manifest.schemaVersion == 5 && manifest.minReaderVersion == 5)
        #expect(manifest.migrations.map { "\($0.from)→\($0.to)" } == ["1→2", "2→3", "3→4", "4→5"])
        for (path, bytes) in tree(store) where path.hasPrefix("work-streams/") {
            let v5 = try WorkStreamV5(bytes: bytes)
            #expect(path == "work-streams/\(v5.id.lowercased).json")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("\"backend_name\"") && !RenameStep.mirrorKeys.contains { text.contains("\"\($0)\"") }, "\(path)")
        }
        for path in tree(store).keys where path.hasPrefix("user-sessions/") || path == "settings.json" || path == "queue.json" {
            #expect(String(decoding: tree(store)[path]!, as: UTF8.self).contains("\"schema_version\": 5"), "\(path)")
        }
        let down = try BuiltTool.run(["migrate", store, "--to", "4", "--no-backup"])
        #expect(down.code == 0, "\(down)")
        #expect(
            down.stdout.contains(
                "Migrated '\(store)' from schema version 5 to 4: 16 files change: 8 key_renamed, 1 manifest_upgraded, "
                    + "1 migration_recorded, 8 mirror_keys_written, 15 schema_version."), "\(down.stdout)")
        var back = tree(store), expected = original
        let staleFile = "sessions/\(Self.stale).json"
        let restoredStale = try #require(back[staleFile]), originalStale = try #require(expected[staleFile])
        back[staleFile] = nil
        expected[staleFile] = nil
        #expect(
            String(decoding: originalStale, as: UTF8.self).replacingOccurrences(of: "\"queued_at\": \"2025-10-28T08:33:10.031Z\"", with: "\"queued_at\": null")
                == String(decoding: restoredStale, as: UTF8.self), "only the reported stale value differs")
        let backManifest = try ManifestV2(bytes: try #require(back["store.json"]))
        let originalManifest = try ManifestV2(bytes: try #require(expected["store.json"]))
        back["store.json"] = nil
        expected["store.json"] = nil
        #expect(backManifest.schemaVersion == 4 && backManifest.minReaderVersion == 1)
        #expect(Array(backManifest.migrations.prefix(3)) == originalManifest.migrations)
        #expect(backManifest.migrations.dropFirst(3).map { "\($0.from)→\($0.to)" } == ["4→5", "5→4"])
        #expect(back == expected, "every other document byte for byte")
        let names4 = try FileManager.default.contentsOfDirectory(atPath: store).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names4 == ["queue.json", "sessions", "settings.json", "store.json", "user-sessions"])
        let again = try BuiltTool.run(["migrate", store, "--to", "4"])
        #expect(again == ToolRun(stdout: "'\(store)' is already at version 4: nothing to do, no document was changed.\n", stderr: "", code: 0))
    }

    @Test func plainMigrateNeverTakesTheBreakingStepAndNeverMovesAV5StoreDown() throws {
        let temporary = TemporaryDirectory("breaking-default")
        let store = try temporary.copySample("v4-store", as: "store")
        let before = snapshot(temporary.path)
        #expect(
            try BuiltTool.run(["migrate", store])
                == ToolRun(
                    stdout: "'\(store)' is already at version 4: nothing to do, no document was changed.\n",
                    stderr: "", code: 0))
        #expect(snapshot(temporary.path) == before)
        #expect(try BuiltTool.run(["migrate", store, "--to", "5", "--allow-breaking", "--backup-dir", temporary.path + "/backup"]).code == 0)
        let at5 = snapshot(store)
        let plain = try BuiltTool.run(["migrate", store])
        #expect(plain == ToolRun(stdout: "'\(store)' is already at version 5: nothing to do, no document was changed.\n", stderr: "", code: 0), "\(plain)")
        #expect(snapshot(store) == at5)
        let tooFar = try BuiltTool.run(["migrate", store, "--to", "3"])
        #expect(tooFar.code == 64, "\(tooFar)")
        #expect(snapshot(store) == at5)
    }

    /// Spec §4's reader rule for v1 to v4 readers of a v5 store: refused, naming both versions.
    @Test(arguments: [1, 2, 3, 4]) func anOlderReaderRefusesAV5StoreNamingBothVersions(reader: Int) throws {
        let temporary = TemporaryDirectory("breaking-readers")
        let store = try temporary.copySample("v4-store", as: "store")
        #expect(try BuiltTool.run(["migrate", store, "--to", "5", "--allow-breaking", "--backup-dir", temporary.path + "/backup"]).code == 0)
        let header = try ManifestHeader(json: try DocumentVersion.parse(try Self.read(store + "/store.json")))
        let compatibility = header.compatibility(reader: reader)
        #expect(compatibility == .refused(storeVersion: 5, minReaderVersion: 5, reader: reader))
        #expect(
            compatibility.refusal == "the store has schema_version 5 and needs a reader of version 5 or newer (min_reader_version 5), "
                + "but this tool reads version \(reader); use a newer version of the tool")
    }

    @Test func verifyOnAV5StoreChecksTheRoundTripAgainstTheBackupAndThatOlderReadersAreRefused() throws {
        let temporary = TemporaryDirectory("breaking-verify")
        let store = try temporary.copySample("v4-store", as: "store")
        let backup = temporary.path + "/backup"
        #expect(try BuiltTool.run(["migrate", store, "--to", "5", "--allow-breaking", "--backup-dir", backup]).code == 0)
        let before = snapshot(temporary.path)
        let run = try BuiltTool.run(["verify", store, "--against", backup])
        #expect(run.code == 0, "\(run)")
        let refusal = { (reader: Int) in
            "the store has schema_version 5 and needs a reader of version 5 or newer (min_reader_version 5), "
                + "but this tool reads version \(reader); use a newer version of the tool"
        }
        #expect(
            run.stdout == """
                Verifying '\(store)' against the backup '\(backup)':
                  integrity: ok
                  the backup taken from v4 to v5 through the chain: ok (8 work streams, 5 customisations, settings.json and queue.json compared)
                  round trip of the breaking step v4 → v5 (inverse(step(d)) = d for each work stream d of the backup, apart from 1 reported normalisation): ok (8 checked)
                  a v1 reader is refused: ok (\(refusal(1)))
                  a v2 reader is refused: ok (\(refusal(2)))
                  a v3 reader is refused: ok (\(refusal(3)))
                  a v4 reader is refused: ok (\(refusal(4)))
                Verified: the breaking step goes back exactly, and older app versions are refused as they must be.

                """, "\(run.stdout)")
        #expect(snapshot(temporary.path) == before, "verify writes nothing")
        // A v5 document edited by hand is no longer the step applied to the backup's: exit 69.
        let edited = store + "/work-streams/\(Self.stale).json"
        let text = try String(contentsOfFile: edited, encoding: .utf8)
        try text.replacingOccurrences(of: "\"preview\": \"", with: "\"preview\": \"edited ").write(toFile: edited, atomically: true, encoding: .utf8)
        let failing = try BuiltTool.run(["verify", store, "--against", backup])
        #expect(failing.code == 69)
        #expect(
            failing.stdout.contains(
                """
                  round trip of the breaking step v4 → v5 (inverse(step(d)) = d for each work stream d of the backup, apart from 1 reported normalisation): 2 failed
                    - work-streams/\(Self.stale).json: is not the step applied to the backup's document
                    - work-streams/\(Self.stale).json: the inverse does not give back the backup's document (apart from 1 reported normalisation(s))

                """), "\(failing.stdout)")
        #expect(failing.stdout.hasSuffix("Verification failed.\n"))
    }

    @Test func verifyAfterTheInverseChecksItsRoundTripAgainstTheV5BackupThenEveryOlderReader() throws {
        let temporary = TemporaryDirectory("breaking-verify-inverse")
        let store = try temporary.copySample("v5-store", as: "store")
        let backup = temporary.path + "/backup5"
        #expect(try BuiltTool.run(["migrate", store, "--to", "4", "--backup-dir", backup]).code == 0)
        let run = try BuiltTool.run(["verify", store, "--against", backup])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.hasPrefix(
                """
                Verifying '\(store)' against the backup '\(backup)':
                  integrity: ok
                  the backup taken from v5 to v4 through the chain: ok (8 work streams, 5 customisations, settings.json and queue.json compared)
                  round trip of the inverse v5 → v4 (step(inverse(e)) = e for each work stream e of the v5 backup): ok (8 checked)
                  As a v1 reader:

                """), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("Verified: v1, v2 and v3 programs can read and write this store.\n"), "\(run.stdout)")
        let edited = store + "/sessions/\(Self.stale).json"
        let text = try String(contentsOfFile: edited, encoding: .utf8)
        try text.replacingOccurrences(of: "\"preview\": \"", with: "\"preview\": \"edited ").write(toFile: edited, atomically: true, encoding: .utf8)
        let failing = try BuiltTool.run(["verify", store, "--against", backup])
        #expect(failing.code == 69)
        #expect(
            failing.stdout.contains(
                """
                  round trip of the inverse v5 → v4 (step(inverse(e)) = e for each work stream e of the v5 backup): 2 failed
                    - sessions/\(Self.stale).json: is not the inverse applied to the backup's document
                    - sessions/\(Self.stale).json: the step does not give back the backup's document

                """), "\(failing.stdout)")
    }
}
