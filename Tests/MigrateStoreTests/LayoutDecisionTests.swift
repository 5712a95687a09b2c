import Foundation
import Testing

@testable import JSONStore

/// Which folder holds a store's work streams is decided from `store.json` and from what is on
/// disk, on the built binary. A manifest that contradicts the folders is refused (65) with both
/// folders named and nothing changed; only a folder that an interrupted layout change left (the
/// same work streams, each at the other side's version) is removed, and the report says so.
/// The refusals failed before: `migrate` deleted every work stream, or a stray folder, with exit 0.
@Suite struct LayoutDecisionTests {
    /// A copy of the v3 sample whose `store.json` is edited to say `schema` and `minReader`.
    static func editedManifest(_ scratch: TemporaryDirectory, schema: Int, minReader: Int) throws -> String {
        let store = try scratch.copySample("v3-store", as: "store")
        let path = store + "/store.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\n  \"schema_version\": 3\n", with: "\n  \"schema_version\": \(schema)\n")
            .replacingOccurrences(of: "\n  \"min_reader_version\": 1,\n", with: "\n  \"min_reader_version\": \(minReader),\n")
        try #require(edited.contains("\"min_reader_version\": \(minReader),\n  \"schema_version\": \(schema)\n"), "\(text)")
        try edited.write(toFile: path, atomically: false, encoding: .utf8)
        return store
    }

    @Test(arguments: [(5, 5), (5, 1)])
    func aManifestThatNamesAMissingFolderIsRefusedAndNothingChanges(schema: Int, minReader: Int) throws {
        let scratch = TemporaryDirectory("layout-contradiction")
        let store = try Self.editedManifest(scratch, schema: schema, minReader: minReader)
        let before = snapshot(scratch.path)
        for arguments in [
            ["validate", store], ["migrate", store], ["migrate", store, "--no-backup"], ["migrate", store, "--to", "4"],
            ["ls", store], ["backup", store, scratch("backup")], ["verify", store],
        ] {
            let run = try BuiltTool.run(arguments)
            #expect(run.code == 65, "\(arguments): \(run)")
            #expect(
                run.stderr.contains(
                    "Can't tell which folder holds the work streams of '\(store)': store.json says schema version 5, "
                        + "whose work streams are in 'work-streams/', but 'work-streams/' is missing and 'sessions/' holds 8 "
                        + "work stream file(s). Nothing was changed."), "\(arguments): \(run.stderr)")
        }
        #expect(snapshot(scratch.path) == before, "no byte, no lock file, no backup folder")
    }

    /// Spec §11: a store that a pre-release build took through the breaking rename, which it
    /// numbered v4 (`work-streams/`, schema_version 4, min_reader_version 4), is refused by every
    /// command with the way out, and nothing changes.
    @Test func aStoreAtThePreReleaseV4LayoutIsRefusedWithTheWayOut() throws {
        let scratch = TemporaryDirectory("layout-pre-release")
        let store = try scratch.copySample("v5-store", as: "store")
        let path = store + "/store.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\n  \"schema_version\": 5\n", with: "\n  \"schema_version\": 4\n")
            .replacingOccurrences(of: "\n  \"min_reader_version\": 5,\n", with: "\n  \"min_reader_version\": 4,\n")
        try #require(edited.contains("\"min_reader_version\": 4,\n  \"schema_version\": 4\n"), "\(text)")
        try edited.write(toFile: path, atomically: false, encoding: .utf8)
        let before = snapshot(scratch.path)
        for arguments in [
            ["validate", store], ["migrate", store], ["migrate", store, "--no-backup"], ["ls", store],
            ["backup", store, scratch("backup")], ["verify", store],
        ] {
            let run = try BuiltTool.run(arguments)
            #expect(run.code == 65, "\(arguments): \(run)")
            #expect(
                run.stderr.contains(
                    "the store has schema_version 4 with min_reader_version 4, which this tool never writes (its v4 admits readers from version 1): "
                        + "a pre-release build took it to that build's v4, the breaking rename to work-streams/, which this version numbers v5. "
                        + "Take it back with that build ('migrate --to 3'), then migrate it with this one"), "\(arguments): \(run.stderr)")
        }
        #expect(snapshot(scratch.path) == before, "no byte, no lock file, no backup folder")
    }

    @Test func aStrayCopyOfTheOtherLayoutsFolderIsRefusedNotRemoved() throws {
        let scratch = TemporaryDirectory("layout-stray")
        let store = try scratch.copySample("v4-store", as: "store")
        try FileManager.default.copyItem(atPath: store + "/sessions", toPath: store + "/work-streams")
        let before = snapshot(scratch.path)
        for arguments in [["migrate", store], ["migrate", store, "--to", "5", "--allow-breaking"]] {
            let run = try BuiltTool.run(arguments)
            #expect(run.code == 65, "\(arguments): \(run)")
            #expect(
                run.stderr.contains(
                    "is at schema version 4, so 'work-streams/' is not what an interrupted layout change leaves. "
                        + "Nothing was changed."), "\(arguments): \(run.stderr)")
        }
        #expect(snapshot(scratch.path) == before)
    }

    @Test func theFolderAnInterruptedLayoutChangeLeftIsRemovedAndReported() throws {
        let scratch = TemporaryDirectory("layout-leftover")
        let store = try scratch.copySample("v4-store", as: "store")
        let forward = try BuiltTool.run(["migrate", store, "--to", "5", "--allow-breaking", "--backup-dir", scratch("backup")])
        try #require(forward.code == 0, "\(forward)")
        // What a crash after store.json, before the old folder was retired, leaves.
        try FileManager.default.copyItem(atPath: Samples.path("v4-store") + "/sessions", toPath: store + "/sessions")
        let plan = try BuiltTool.run(["plan", store])
        #expect(plan.code == 0, "\(plan)")
        #expect(plan.stdout.contains("sessions/\n  remove the folder and its 8 work stream files, left by an interrupted layout change"), "\(plan.stdout)")
        let run = try BuiltTool.run(["migrate", store])
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout.contains("1 leftover_folder_removed"), "\(run.stdout)")
        #expect(run.stderr.contains("Removed 'sessions/' (8 work stream file(s))"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store + "/sessions"))
    }

    /// Spec §4: a store newer than this tool whose `min_reader_version` admits it is read with
    /// the layout that reader version implies. Failed before: "0 work streams", and `plan` exit 70.
    @Test func aNewerStoreThatAdmitsThisToolIsReadWhereItsOldestReaderLooks() throws {
        let scratch = TemporaryDirectory("layout-newer")
        let store = try Self.editedManifest(scratch, schema: 9, minReader: 1)
        let status = try BuiltTool.run(["status", store])
        #expect(status.code == 0 && status.stdout.contains("Work streams:    8 (v3: 8)\n"), "\(status)")
        #expect(status.stdout.contains("Readers:         app versions 1 and newer (its min_reader_version)\n"), "\(status.stdout)")
        let list = try BuiltTool.run(["ls", store])
        #expect(list.code == 0 && list.stderr.isEmpty, "\(list)")
        #expect(list.stdout.split(separator: "\n").count == 9, "a header and 8 work streams: \(list.stdout)")
        let plan = try BuiltTool.run(["plan", store])
        #expect(plan.code == 0, "\(plan)")
        #expect(plan.stdout == "'\(store)' is at schema version 9, newer than 5: this tool has nothing to plan for it.\n")
    }

    /// What an interrupted migration left (its old folder, dot-named) is removed by the next
    /// `migrate` of the store, which says so. Failed before: removed under "nothing to do, no
    /// file was changed".
    @Test func theNextMigrateSaysItRemovedWhatAnInterruptedRunLeft() throws {
        let scratch = TemporaryDirectory("migrate-leftovers")
        let store = try scratch.copySample("v4-store", as: "store")
        try FileManager.default.createDirectory(atPath: store + "/.migration-sessions", withIntermediateDirectories: false)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: store + "/.migration-sessions/old.json"))
        let run = try BuiltTool.run(["migrate", store])
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout == "'\(store)' is already at version 4: nothing to do, no document was changed.\n")
        #expect(run.stderr.contains("Removed 2 file(s) and folder(s) that an interrupted run left in '\(store)'"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store + "/.migration-sessions"))
    }

    /// A default backup that was interrupted leaves `.<store>.backup-<time>.staging-*`; the next
    /// backup of the store removes it and says so. Failed before: the next backup has another
    /// name, and nothing removed the old staging folder.
    @Test func theNextBackupRemovesAnInterruptedBackupsStagingFolderAndSaysSo() throws {
        let scratch = TemporaryDirectory("backup-staging")
        let store = try scratch.copySample("v1-store", as: "store")
        let staging = scratch(".store.backup-20260101T000000Z.staging-0123456789abcdef")
        try FileManager.default.createDirectory(atPath: staging + "/sessions", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: staging + "/sessions/partial.json"))
        let run = try BuiltTool.run(["migrate", store])
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout.contains("Removed '\(staging)', the partial copy of an interrupted backup."), "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: staging))
    }
}
