import Foundation
import Testing

/// `backup` reports "verified" only of a store it read as a store (issue 32, item 7), run as the
/// built binary: a store of a version this tool does not know, or a v5 `store.json` over the
/// documents of `sessions/`, is refused with 65, nothing is created and no backup is claimed.
@Suite struct BackupUnreadableStoreTests {
    /// The stores refused, and what the refusal says: a version this tool does not know; a v5
    /// `store.json` over `sessions/` with `work-streams/` missing or empty (the store's open
    /// refuses both).
    static let unreadable: [(schemaVersion: Int, minReader: Int, emptyFolder: Bool, why: String)] = [
        (9, 1, false, ": its store.json says schema_version 9, and this tool knows versions 1 to 5 only"),
        (5, 5, false, "'work-streams/' is missing and 'sessions/' holds 8 work stream file(s)"),
        (5, 5, true, "'work-streams/' holds no work stream and 'sessions/' holds 8 work stream file(s)"),
    ]

    @Test(arguments: unreadable) func aStoreThisToolCantReadIsNotBackedUp(_ fixture: (schemaVersion: Int, minReader: Int, emptyFolder: Bool, why: String))
        throws
    {
        let scratch = TemporaryDirectory()
        let store = try VerifyKnownStoreTests.store(scratch, schemaVersion: fixture.schemaVersion, minReaderVersion: fixture.minReader)
        if fixture.emptyFolder { try FileManager.default.createDirectory(atPath: store + "/work-streams", withIntermediateDirectories: false) }
        let before = snapshot(store)
        let run = try BuiltTool.run(["backup", store, scratch("backup")])
        #expect(run.code == 65, "\(run)")
        #expect(run.stderr.contains("'\(store)") && run.stderr.contains(fixture.why), "\(run)")
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
