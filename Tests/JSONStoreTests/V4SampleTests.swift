import Foundation
import StoreGenerator
import TestSupport
import Testing

@testable import JSONStore

/// `Samples/v4-store` is what the engine makes of `Samples/v3-store` (the v3 → v4 step, with
/// the sample's fixed migration times), plus the user's state that v4 holds, written through the
/// library: two drafts (one creates its work stream's customisation) and the app's preferences.
/// Regenerate with `UPDATE_SAMPLES=1 swift test --filter V4SampleTests` and review the diff.
@Suite struct V4SampleTests {
    static let context = StoreMigration.Context(
        startedAt: V5Fixture.startedAt, finishedAt: V5Fixture.finishedAt, toolVersion: V5Fixture.toolVersion, target: 4)
    /// When the sample's user typed the drafts: 2025-11-20 09:05:00.000 UTC.
    static let typedAt = Date(timeIntervalSince1970: 1_763_629_500)
    /// "Fix login crash on iPad": no customisation in v3, so the draft creates one.
    static let fixLogin = UUID(uuidString: "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b")!
    /// "Network layer: async/await": a customisation with a custom name.
    static let network = UUID(uuidString: "555a622d-4eba-4eda-8989-fc9e679fc303")!

    /// The v4 sample, made again: the engine's migration of a copy of the v3 sample, then the
    /// library's writes.
    static func make(in temporary: TemporaryDirectory) throws -> String {
        let path = try temporary.copySample("v3-store", as: "store")
        let reader = Store(
            path: path, options: Store.Options(version: V5Fixture.toolVersion), compatibility: try Store.classify(path),
            warnings: [], system: .real)
        let report = try StoreMigrator(store: reader).run(write: true, context: context)
        #expect(report.totals["added_key"] == 4 + 15, "draft on each of the 4 customisations, 15 preferences in settings.json")
        // The engine records the time the run ended; the sample keeps the fixed one.
        let manifestPath = path + "/" + StoreLayout.manifest
        var manifest = try ManifestV2(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: manifestPath))))
        #expect(manifest.migrations.last?.finishedAt != context.finishedAt)
        manifest.migrations[manifest.migrations.count - 1].finishedAt = context.finishedAt
        try Data(manifest.encoded).write(to: URL(fileURLWithPath: manifestPath))
        let store = try Store.open(at: path)
        try store.setDraft("Check the iPad layout in split view next", for: fixLogin, at: typedAt)
        try store.setDraft("Also rename the async helpers", for: network, at: typedAt)
        try store.updateSettings {
            $0.serverURL = "192.168.1.20"
            $0.serverPort = "8080"
            $0.systemPrompt = "Answer briefly; show diffs, not whole files."
            $0.selectedVoiceIdentifier = "com.apple.voice.compact.en-US.Samantha"
            $0.recentSessionsLimit = 10
            $0.notifyOnResponse = false
            $0.commandMRU = ["git.status": typedAt, "build": typedAt.addingTimeInterval(-3600)]
            $0.recentDirectories = ["/Users/maya/code/acme-ios", "/Users/maya/code/acme-backend"]
            $0.lastUsedDirectory = "/Users/maya/code/acme-ios"
        }
        return path
    }

    @Test func theEngineAndTheLibraryGiveTheV4SampleByteForByte() throws {
        let temporary = TemporaryDirectory("v4-sample")
        let made = tree(try Self.make(in: temporary))
        if ProcessInfo.processInfo.environment["UPDATE_SAMPLES"] == "1" {
            try? FileManager.default.removeItem(atPath: Samples.v4Store)
            for (relative, bytes) in made {
                let url = URL(fileURLWithPath: Samples.v4Store + "/" + relative)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: url)
            }
        }
        #expect(made == tree(Samples.v4Store))
    }

    /// §11: v4 only adds. Every document but the ones the user's writes changed is the v3 one
    /// with `schema_version` 4 and the new keys at their defaults; `min_reader_version` stays 1.
    @Test func theV4SampleIsTheV3SampleWithTheNewKeysAndTheUsersState() throws {
        let v3 = tree(Samples.v3Store), v4 = tree(Samples.v4Store)
        #expect(Set(v4.keys) == Set(v3.keys).union(["user-sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json"]))
        for (name, bytes) in v3 where name.hasPrefix("sessions/") {
            let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"schema_version\": 3", with: "\"schema_version\": 4")
            #expect(v4[name].map { String(decoding: $0, as: UTF8.self) } == text, "\(name): only schema_version changes")
        }
        let manifest = try ManifestV2(bytes: try #require(v4["store.json"]))
        #expect(manifest.schemaVersion == 4 && manifest.minReaderVersion == 1 && manifest.migrations.map(\.to) == [2, 3, 4])
        let created = try CustomisationV4(bytes: try #require(v4["user-sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json"]))
        #expect(created.draft == "Check the iPad layout in split view next" && created.createdAt == Self.typedAt && created.customName == nil)
        let orphan = try CustomisationV4(bytes: try #require(v4["user-sessions/e3ec053b-0661-4e09-b86f-1dad7839b6fd.json"]))
        #expect(orphan.schemaVersion == 4 && orphan.draft == nil)
        let settings = try SettingsV4(bytes: try #require(v4["settings.json"]))
        #expect(settings.queueEnabled && settings.serverURL == "192.168.1.20" && settings.defaultProvider == "claude")
    }
}
