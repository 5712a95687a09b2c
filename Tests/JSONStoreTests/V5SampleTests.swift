import Foundation
import StoreGenerator
import Testing

@testable import JSONStore

/// `Samples/v5-store` is what the breaking step makes of `Samples/v4-store` on disk (with the
/// sample's fixed migration times), and what the pure `V5Fixture` makes of it; the inverse gives
/// back `Samples/v4-store` except the reported normalisation and the two new migration records.
/// Regenerate with `UPDATE_SAMPLES=1 swift test --filter V5SampleTests` and review the diff.
@Suite struct V5SampleTests {
    static let context = StoreMigration.Context(
        startedAt: V5Fixture.startedAt, finishedAt: V5Fixture.finishedAt,
        toolVersion: V5Fixture.toolVersion, target: 5)

    /// The one engine's run to `context.target` (with the sample's fixed migration times), under the store's lock.
    static func migrate(_ store: String, context: StoreMigration.Context) throws -> MigrationReport {
        let opened = try Store.open(at: store, options: Store.Options(readOnly: true, tool: "t", version: V5Fixture.toolVersion))
        let lock = try StoreLock(store: store, tool: "t", version: V5Fixture.toolVersion)
        defer { lock.releaseRemovingFile() }
        return try StoreMigrator(store: opened).run(write: true, context: context, checkingLeftovers: true)
    }

    @Test func theBreakingStepOnDiskGivesTheV5SampleAndTheFixtureAgrees() throws {
        let temporary = TemporaryDirectory("v5-sample")
        let store = try temporary.copySample("v4-store", as: "store")
        let report = try Self.migrate(store, context: Self.context)
        #expect(report.totals["stale_mirror_key"] == 1 && report.totals["key_renamed"] == 8)
        let fixture = try V5Fixture.convert(tree(Samples.v4Store))
        if ProcessInfo.processInfo.environment["UPDATE_SAMPLES"] == "1" {
            try? FileManager.default.removeItem(atPath: Samples.v5Store)
            for (relative, bytes) in fixture {
                let url = URL(fileURLWithPath: Samples.v5Store + "/" + relative)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: url)
            }
        }
        #expect(fixture == tree(Samples.v5Store), "the sample is the pure fixture's output")
        // The engine: the same bytes, but for store.json's finished_at (the time the run ended).
        var written = tree(store), expected = tree(Samples.v5Store)
        let times = { (bytes: [UInt8]?) in bytes.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").filter { !$0.contains("\"finished_at\"") } } }
        #expect(times(written["store.json"]) == times(expected["store.json"]))
        written["store.json"] = nil
        expected["store.json"] = nil
        #expect(written == expected, "the engine writes the sample's documents byte for byte")
    }

    /// `StoreMigrator.migrate` to v5 from below the rename takes the rollback-safe steps first, then
    /// the rename, under one lock: the v5 work streams end in `work-streams/`, none in `sessions/`
    /// (run as one pass with the breaking step, a v1 store got v5 documents in `sessions/` and a
    /// `store.json` naming a `work-streams/` that did not exist).
    @Test func migratingAV1StoreToFiveTakesTheRollbackSafeStepsThenTheRename() throws {
        let temporary = TemporaryDirectory("v1-to-v5")
        let store = try temporary.copySample("v1-store", as: "store")
        let options = Store.Options(readOnly: true, tool: "t", version: "1")
        let report = try StoreMigrator(store: try Store.open(at: store, options: options)).migrate(to: 5, toolVersion: "1")
        #expect(report.totals["key_renamed"] == 8, "every work stream took the rename")
        let migrated = try Store.open(at: store, options: options)
        #expect(migrated.compatibility.storeSchemaVersion == 5)
        let ids = try migrated.workStreamIDs()
        #expect(ids.problems.isEmpty && ids.items.count == 8)
        #expect(!FileManager.default.fileExists(atPath: store + "/sessions"))
        #expect(try ManifestV2(bytes: try #require(tree(store)["store.json"])).migrations.map(\.to) == [2, 3, 4, 5])
        for id in ids.items { _ = try migrated.renamedWorkStream(id) }
    }

    /// A store newer than this code (v6 admitting v5 readers) is left alone, whatever folders it
    /// holds: a `sessions/` beside its `work-streams/` is not this code's to call an interrupted
    /// rename's leftover.
    @Test func aNewerStoresFoldersAreNotTakenForLeftovers() throws {
        let temporary = TemporaryDirectory("newer-store")
        let store = try temporary.copySample("v5-store", as: "store")
        _ = try temporary.copy(Samples.path("v4-store") + "/sessions", as: "store/sessions")
        let manifest = store + "/store.json"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "\"schema_version\": 5", with: "\"schema_version\": 6").write(toFile: manifest, atomically: false, encoding: .utf8)
        let before = tree(store)
        let outcome = try StoreUpgrade.run(at: store, backup: .none, tool: "t", version: "1")
        guard case .newerStore(let version) = outcome else {
            Issue.record("not left alone: \(outcome)")
            return
        }
        #expect(version == 6)
        let after = tree(store)
        #expect(after.keys.filter { $0.hasPrefix("sessions/") }.count == 8, "sessions/ kept")
        let unchanged = after == before
        #expect(unchanged, "nothing written")
    }

    @Test func theInverseOnDiskGivesBackTheV4Sample() throws {
        let temporary = TemporaryDirectory("v5-sample-back")
        let store = try temporary.copySample("v5-store", as: "store")
        var context = Self.context
        context.target = 4
        _ = try Self.migrate(store, context: context)
        var back = tree(store), original = tree(Samples.v4Store)
        let stale = "sessions/ad63adfa-7ad7-45dc-882c-80791120b6cc.json"
        #expect(
            back[stale].map { String(decoding: $0, as: UTF8.self) }
                == original[stale].map {
                    String(decoding: $0, as: UTF8.self).replacingOccurrences(
                        of: "\"queued_at\": \"2025-10-28T08:33:10.031Z\"", with: "\"queued_at\": null")
                })
        let manifest = try ManifestV2(bytes: try #require(back["store.json"]))
        #expect(manifest.schemaVersion == 4 && manifest.minReaderVersion == 1 && manifest.migrations.map(\.to) == [2, 3, 4, 5, 4])
        for name in [stale, "store.json"] {
            back[name] = nil
            original[name] = nil
        }
        #expect(back == original)
    }
}
