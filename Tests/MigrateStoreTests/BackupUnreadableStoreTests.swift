import Foundation
import Testing

/// `backup` reports "verified" only of a store it read as a store (issue 32, item 7), run as the
/// built binary: a store of a version this tool does not know, or a v4 `store.json` over the
/// documents of `sessions/`, is refused with 65, nothing is created and no backup is claimed.
@Suite struct BackupUnreadableStoreTests {
    @Test(arguments: [(9, 1), (4, 4)]) func aStoreThisToolCantReadIsNotBackedUp(_ manifest: (schemaVersion: Int, minReader: Int)) throws {
        let scratch = TemporaryDirectory()
        let store = try VerifyKnownStoreTests.store(scratch, schemaVersion: manifest.schemaVersion, minReaderVersion: manifest.minReader)
        let before = snapshot(store)
        let run = try BuiltTool.run(["backup", store, scratch("backup")])
        #expect(run.code == 65, "\(run)")
        let why = manifest.schemaVersion == 9
            ? ", and this tool knows versions 1 to 4 only"
            : ", whose work streams are in 'work-streams/', but 'work-streams/' holds none and 'sessions/' holds 8 documents"
        #expect(run.stderr.contains("Can't back up '\(store)': its store.json says schema_version \(manifest.schemaVersion)\(why)"), "\(run)")
        #expect(!run.stdout.contains("Backed up") && !run.stdout.contains("Verified"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: scratch("backup")), "no backup is created")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["store"], "no staging folder is left")
        #expect(snapshot(store) == before, "the store is untouched, not even a lock file")
    }

    /// A store this tool reads is still backed up and verified.
    @Test func aReadableStoreIsBackedUpAndVerified() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v3-store", as: "store")
        let run = try BuiltTool.run(["backup", store, scratch("backup")])
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout.contains("Verified: every file matches its size and SHA-256."), "\(run)")
        #expect(try BuiltTool.run(["verify-backup", scratch("backup")]).code == 0)
    }
}
