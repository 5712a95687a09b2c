import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// The user's local state of spec §11 through the library: a work stream's draft and the app's
/// preferences, on `Store` and `AsyncStore`, with change observation.
@Suite struct DraftsAndSettingsTests {
    static let typedAt = Date(timeIntervalSince1970: 1_764_320_400)  // 2025-11-28T09:00:00.000Z
    /// "Write release notes for 2.4" in the v4 sample: no customisation.
    static let releaseNotes = UUID(uuidString: "c25e47cd-f10a-49a3-9ec4-a9355366da75")!
    /// "Network layer: async/await": has a draft in the v4 sample.
    static let network = UUID(uuidString: "555a622d-4eba-4eda-8989-fc9e679fc303")!

    static func text(_ store: Store, _ relative: String) throws -> String? {
        let path = store.path + "/" + relative
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func aDraftForAWorkStreamWithoutCustomisationCreatesOneAtTheTimeOfTheWrite() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        #expect(try store.draft(of: Self.releaseNotes) == nil)
        let written = try store.setDraft("Mention the iPad fix", for: Self.releaseNotes, at: Self.typedAt)
        #expect(written?.draft == "Mention the iPad fix" && written?.createdAt == Self.typedAt)
        #expect(try store.draft(of: Self.releaseNotes) == "Mention the iPad fix")
        #expect(
            try Self.text(store, "user-sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json") == """
                {
                  "created_at": "2025-11-28T09:00:00.000Z",
                  "custom_name": null,
                  "draft": "Mention the iPad fix",
                  "id": "c25e47cd-f10a-49a3-9ec4-a9355366da75",
                  "is_user_deleted": false,
                  "schema_version": 4
                }

                """)
    }

    @Test func emptyTextClearsTheDraftAsTheAppDoesAndClearingNothingWritesNothing() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        #expect(try store.draft(of: Self.network) == "Also rename the async helpers")
        let cleared = try store.setDraft("", for: Self.network, at: Self.typedAt)
        #expect(cleared?.draft == nil && cleared?.customName == "Network layer: async/await")
        #expect(try store.draft(of: Self.network) == nil)
        #expect(try Self.text(store, "user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json")?.contains("\"draft\": null,") == true)
        #expect(try store.setDraft("", for: Self.releaseNotes, at: Self.typedAt) == nil)
        #expect(try Self.text(store, "user-sessions/c25e47cd-f10a-49a3-9ec4-a9355366da75.json") == nil, "no customisation made to clear nothing")
    }

    /// An older app (v3) that rewrote a customisation in a v4 store kept `draft` as an unknown
    /// key and wrote `schema_version` 3: the draft still counts, and a write keeps it.
    @Test func aDraftAnOlderWriterKeptIsReadAndKeptByTheNextWrite() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        let relative = "user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json"
        let olderWrite = try #require(try Self.text(store, relative)).replacingOccurrences(of: "\"schema_version\": 4", with: "\"schema_version\": 3")
        try Data(olderWrite.utf8).write(to: URL(fileURLWithPath: store.path + "/" + relative))
        #expect(try store.customisation(Self.network)?.draft == nil, "below v4, draft is an unknown key to the type")
        #expect(try store.draft(of: Self.network) == "Also rename the async helpers")
        try store.setCustomName(Self.network, "Networking", at: Self.typedAt)
        let after = try #require(try store.customisation(Self.network))
        #expect(after.schemaVersion == 4 && after.draft == "Also rename the async helpers" && after.customName == "Networking")
    }

    @Test func settingsAreReadAndWrittenWithTheAppsDefaultsForWhatIsNotSet() throws {
        let folder = TemporaryDirectory()
        let store = try Store.create(at: folder("store"))
        #expect(try store.settingsDocument() == .defaults, "a new store has settings.json with the defaults")
        #expect(try store.settings() == .defaults && Settings.defaults.defaultProvider == "claude" && Settings.defaults.maxMessageSizeKB == 200)
        let used = Date(timeIntervalSince1970: 1_764_320_400)
        try store.updateSettings {
            $0.serverURL = "192.168.1.20"
            $0.serverPort = "8080"
            $0.commandMRU = ["git.status": used]
        }
        let settings = try store.settings()
        #expect(settings.serverURL == "192.168.1.20" && settings.serverPort == "8080" && settings.commandMRU == ["git.status": used])
        #expect(settings.schemaVersion == 4 && settings.respectSilentMode && settings.resourceStorageLocation == "~/Downloads")
        let text = try #require(try Self.text(store, "settings.json"))
        #expect(text.contains("\"command_mru\": {\n    \"git.status\": \"2025-11-28T09:00:00.000Z\"\n  },\n"))
        #expect(text.contains("\"server_port\": \"8080\",\n") && text.contains("\"schema_version\": 4,\n"))
    }

    /// An older app (v3) that rewrote settings.json in a v4 store wrote `schema_version` 3 and
    /// kept the preferences as unknown keys: `settings()` reads them as a write would take them,
    /// `settingsDocument()` gives the file as it is.
    @Test func settingsAnOlderWriterLeftAreReadThroughTheChain() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v4-store", as: "store"))
        let olderWrite = try #require(try Self.text(store, "settings.json")).replacingOccurrences(of: "\"schema_version\": 4", with: "\"schema_version\": 3")
        try Data(olderWrite.utf8).write(to: URL(fileURLWithPath: store.path + "/settings.json"))
        let file = try #require(try store.settingsDocument())
        #expect(file.schemaVersion == 3 && file.serverURL == "" && file.unknown["server_url"] == .string("192.168.1.20"))
        let settings = try store.settings()
        #expect(settings.schemaVersion == 4 && settings.serverURL == "192.168.1.20" && settings.unknown.isEmpty)
        try store.updateSettings { $0.serverPort = "9090" }
        let written = try store.settings()
        #expect(written.serverURL == "192.168.1.20" && written.serverPort == "9090" && written.systemPrompt == "Answer briefly; show diffs, not whole files.")
    }

    @Test func aV5StoreKeepsDraftsAndSettingsToo() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v5-store", as: "store"))
        #expect(try store.draft(of: Self.network) == "Also rename the async helpers")
        try store.setDraft("Rename them in v5 too", for: Self.network, at: Self.typedAt)
        #expect(try Self.text(store, "user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json")?.contains("\"schema_version\": 5\n") == true)
        #expect(try store.settings().serverURL == "192.168.1.20")
    }

    @Test func aV3StoreIsReadOnlyForDraftsUntilItIsMigrated() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v3-store", as: "store"))
        #expect(try store.draft(of: Self.network) == nil)
        #expect(throws: StoreError.self) { try store.setDraft("x", for: Self.network, at: Self.typedAt) }
        #expect(try Self.text(store, "user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json")?.contains("draft") == false)
    }

    @Test(.timeLimit(.minutes(1)))
    func theAsyncStoreReadsAndWritesDraftsAndItsChangesNameTheCustomisationAndSettings() async throws {
        let folder = TemporaryDirectory()
        let store = AsyncStore(try Store.open(at: try folder.copySample("v4-store", as: "store")))
        var changes = try await store.changes(includingOwnWrites: true).makeAsyncIterator()
        try await store.setDraft("From the async store", for: Self.releaseNotes, at: Self.typedAt)
        try await store.updateSettings { $0.voiceOutputMuted = true }
        #expect(try await store.draft(of: Self.releaseNotes) == "From the async store")
        #expect(try await store.settings().voiceOutputMuted)
        var seen: Set<DocumentChange> = []
        while seen.count < 2, let change = await StoreChangesTests.next(&changes) {
            if case .documents(let documents) = change { seen.formUnion(documents) }
        }
        #expect(seen == [DocumentChange(.customisation(Self.releaseNotes), .created), DocumentChange(.settings, .modified)])
    }
}
