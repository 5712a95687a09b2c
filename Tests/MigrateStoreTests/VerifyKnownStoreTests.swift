import Foundation
import Testing

@testable import JSONStore

/// `verify` claims only what it checked (issue 32, item 5), run as the built binary: a store of a
/// version this tool does not know is refused with 65; a store whose work streams are not where
/// `store.json` says is refused with 65 (never "verified" with 0 checked); a reader that
/// `min_reader_version` refuses is reported as refused (69), never as able to read; a store that
/// truly holds no work stream passes and says so.
@Suite struct VerifyKnownStoreTests {
    /// Replaces `old` by `new` in `file`, which must contain it.
    static func edit(_ file: String, _ old: String, _ new: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try #require(text.contains(old), "fixture: '\(old)' not in \(file)", sourceLocation: sourceLocation)
        try text.replacingOccurrences(of: old, with: new).write(toFile: file, atomically: true, encoding: .utf8)
    }

    /// `Samples/v3-store` (`v2-store` for a `schemaVersion` of 2) with its `store.json` saying
    /// `schema_version` and `min_reader_version` as given.
    static func store(_ scratch: TemporaryDirectory, schemaVersion: Int, minReaderVersion: Int) throws -> String {
        let sample = schemaVersion == 2 ? 2 : 3
        let store = try scratch.copySample("v\(sample)-store", as: "store")
        try edit(
            store + "/store.json", "\"min_reader_version\": 1,\n  \"schema_version\": \(sample)",
            "\"min_reader_version\": \(minReaderVersion),\n  \"schema_version\": \(schemaVersion)")
        return store
    }

    @Test(arguments: [1, 9]) func aStoreOfAVersionThisToolDoesNotKnowIsRefusedWith65(minReaderVersion: Int) throws {
        let scratch = TemporaryDirectory()
        let store = try Self.store(scratch, schemaVersion: 9, minReaderVersion: minReaderVersion)
        let before = snapshot(scratch.path)
        let run = try BuiltTool.run(["verify", store])
        #expect(run.code == 65, "\(run)")
        #expect(run.stderr.contains("schema_version 9"), "\(run)")
        #expect(!run.stdout.contains("Verified"), "\(run)")
        #expect(snapshot(scratch.path) == before, "verify writes nothing")
    }

    /// A v5 `store.json` over the documents of `sessions/`, with `work-streams/` missing (the
    /// store's open refuses both): nothing would be checked, so the layout is refused instead.
    @Test(arguments: [false, true]) func aV5ManifestOverSessionsIsRefusedWith65NamingBothFolders(emptyFolder: Bool) throws {
        let scratch = TemporaryDirectory()
        let store = try Self.store(scratch, schemaVersion: 5, minReaderVersion: 5)
        if emptyFolder { try FileManager.default.createDirectory(atPath: store + "/work-streams", withIntermediateDirectories: false) }
        let run = try BuiltTool.run(["verify", store])
        #expect(run.code == 65, "\(run)")
        #expect(
            run.stderr.contains(
                emptyFolder
                    ? "'work-streams/' holds no work stream and 'sessions/' holds 8 work stream file(s)"
                    : "'work-streams/' is missing and 'sessions/' holds 8 work stream file(s)"), "\(run)")
        #expect(!run.stdout.contains("Verified"), "\(run)")
    }

    /// A v3 store with `min_reader_version` 4 (or a v2 one with 9) refuses the readers the chain
    /// says it must admit: each is reported as refused and the verification fails with 69.
    @Test(arguments: [(3, 4, [1, 2]), (2, 9, [1])])
    func aReaderTheManifestRefusesIsReportedAsRefused(_ fixture: (schemaVersion: Int, minReader: Int, refused: [Int])) throws {
        let scratch = TemporaryDirectory()
        let store = try Self.store(scratch, schemaVersion: fixture.schemaVersion, minReaderVersion: fixture.minReader)
        let run = try BuiltTool.run(["verify", store])
        #expect(run.code == 69, "\(run)")
        for reader in fixture.refused {
            #expect(
                run.stdout.contains(
                    "  a v\(reader) reader is refused by store.json (min_reader_version \(fixture.minReader)): "
                        + "FAILED, a v\(fixture.schemaVersion) store must admit it"), "\(run)")
        }
        #expect(!run.stdout.contains("can read and write this store"), "\(run)")
        #expect(run.stdout.hasSuffix("Verification failed.\n"), "\(run)")
        let json = try BuiltTool.run(["--json", "verify", store])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let refused = try #require(object["readers_refused_by_manifest"] as? [[String: Int]])
        #expect(refused == fixture.refused.map { ["reader": $0, "min_reader_version": fixture.minReader] })
        #expect(object["passed"] as? Bool == false && json.code == 69)
    }

    /// The library keeps the migration in an integrity problem as an operation; the tool prints
    /// its command line there, as it did when the library spelt it.
    @Test func anIntegrityProblemThatMigratingFixesNamesTheMigrateCommand() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        #expect(unlink(store + "/queue.json") == 0)
        let line = "queue.json: missing in a v2 store; run 'migrate-store migrate' to rebuild it"
        let run = try BuiltTool.run(["verify", store])
        #expect(run.code == 69, "\(run)")
        #expect(run.stdout.hasPrefix("Verifying '\(store)':\n  integrity: 1 problem(s)\n    - \(line)\n"), "\(run)")
        let json = try BuiltTool.run(["--json", "verify", store])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["integrity"] as? [String] == [line])
    }

    /// An empty store passes, and the output says that no work stream was there to check.
    @Test func aStoreWithNoWorkStreamPassesAndSaysSo() throws {
        let scratch = TemporaryDirectory()
        _ = try Store.create(at: scratch("store"))
        let run = try BuiltTool.run(["verify", scratch("store")])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.contains("  the store holds no work stream ('sessions/' is empty): checks (a) to (c) had no document to examine\n"),
            "\(run)")
    }
}
