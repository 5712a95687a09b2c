import Foundation
import Testing

/// `rollback` and `restore --force` replace a store only with a backup of that store (issue 17
/// item 3), run as the built binary on copies of the samples.
@Suite struct RestoreIdentityTests {
    static let sampleCreated = "2025-10-14T07:52:18.000Z"
    static let otherCreated = "2026-01-02T03:04:05.000Z"

    /// A copy of `v2-store` that is another store: its `store.json` has another `created_at`.
    static func otherStore(_ scratch: TemporaryDirectory, as name: String) throws -> String {
        let store = try scratch.copySample("v2-store", as: name)
        let manifest = store + "/store.json"
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: manifest)), as: UTF8.self)
        try replaceFile(manifest, with: Array(text.replacingOccurrences(of: sampleCreated, with: otherCreated).utf8))
        return store
    }

    @Test func backupRecordsTheStoresCreationTimeAndFormat() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        #expect(try BuiltTool.run(["backup", store, scratch("b")]).code == 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch("b/backup.json")))) as! [String: Any]
        #expect(json["store_created_at"] as? String == Self.sampleCreated)
        #expect(json["store_format"] as? String == "work-stream-store")
    }

    @Test func rollbackFromAnotherStoresBackupIsRefusedWith65AndWritesNothing() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v1-store", as: "store")
        #expect(try BuiltTool.run(["migrate", store, "--backup-dir", scratch("backup"), "--quiet"]).code == 0)
        let other = try Self.otherStore(scratch, as: "other")
        let before = snapshot(scratch.path)
        let run = try BuiltTool.run(["rollback", other, "--from-backup", scratch("backup")])
        #expect(run.code == 65, "\(run)")
        #expect(run.stdout == "")
        #expect(
            run.stderr.contains(
                "the backup is of another store: '\(other)' was created \(Self.otherCreated), "
                    + "the store the backup was taken from was created \(Self.sampleCreated). Nothing was written."))
        #expect(run.stderr.contains("--other-store"))
        #expect(snapshot(scratch.path) == before)

        let forced = try BuiltTool.run(["rollback", other, "--from-backup", scratch("backup"), "--other-store"])
        #expect(forced.code == 0, "\(forced)")
        #expect(
            forced.stdout.contains(
                "Note: replacing '\(other)' (created \(Self.otherCreated)) with a backup of another store "
                    + "(created \(Self.sampleCreated)), as --other-store asks."))
        #expect(tree(other) == tree(Samples.path("v1-store")))
    }

    @Test func rollbackFromItsOwnPreMigrationBackupSaysNothingAboutIdentity() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v1-store", as: "store")
        #expect(try BuiltTool.run(["migrate", store, "--backup-dir", scratch("backup"), "--quiet"]).code == 0)
        let run = try BuiltTool.run(["rollback", store, "--from-backup", scratch("backup"), "--json"])
        #expect(run.code == 0, "\(run)")
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        #expect(json["store_identity"] as? String == "same_store")
        #expect(!run.stderr.contains("another store"))
    }

    @Test func restoreForceOfAnotherStoresBackupIsRefusedWith65AndWritesNothingEvenInADryRun() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        #expect(try BuiltTool.run(["backup", store, scratch("b")]).code == 0)
        let other = try Self.otherStore(scratch, as: "other")
        let before = snapshot(scratch.path)
        for extra in [[], ["--dry-run"]] {
            let run = try BuiltTool.run(["restore", "--force", scratch("b"), other] + extra)
            #expect(run.code == 65, "\(extra): \(run)")
            #expect(
                run.stderr.contains(
                    "Can't restore '\(scratch("b"))' into '\(other)': the backup is of another store: "
                        + "'\(other)' was created \(Self.otherCreated)"))
            #expect(snapshot(scratch.path) == before)
        }
        let forced = try BuiltTool.run(["restore", "--force", "--other-store", scratch("b"), other])
        #expect(forced.code == 0, "\(forced)")
        #expect(tree(other) == tree(Samples.path("v2-store")))
    }

    @Test func aBackupWithoutTheIdentityRestoresAsBeforeAndSaysItCannotCheck() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        #expect(try BuiltTool.run(["backup", store, scratch("b")]).code == 0)
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch("b/backup.json")))) as! [String: Any]
        json["store_created_at"] = nil
        json["store_format"] = nil
        try replaceFile(scratch("b/backup.json"), with: Array(try JSONSerialization.data(withJSONObject: json)))
        let other = try Self.otherStore(scratch, as: "other")
        let run = try BuiltTool.run(["restore", "--force", scratch("b"), other])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.contains(
                "Note: the backup '\(scratch("b"))' was made before backups recorded which store they are of, "
                    + "so it can't be checked that it is a backup of '\(other)'."))
        #expect(tree(other) == tree(Samples.path("v2-store")))
    }
}
