import Foundation
import JSONStore
import Testing

/// The library example of the README, compiled and run as written (with a temporary folder).
@Suite struct ReadmeExampleTests {
    @Test func readmeLibraryExampleRuns() throws {
        let folder = TemporaryDirectory()
        let store = try Store.create(at: folder("demo-store"))  // or Store.open(at:)
        let stream = try store.createWorkStream(workingDirectory: "/Users/ana/app")
        try store.appendMessages(
            stream.id,
            [
                Message(id: UUID(), sessionID: stream.id, role: "user", text: "Why does login crash?", timestamp: Date())
            ])
        try store.enqueue(stream.id)  // queue.json first, then the mirror
        try store.setCustomName(stream.id, "Login crash")
        try store.updateWorkStream(stream.id) { $0.providerSessionID = "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b" }

        let listing = try store.listWorkStreams()  // summaries + every unreadable file
        var names: [String] = []
        for summary in listing.items {
            let name = WorkStreamRules.displayName(
                backendName: summary.backendName,
                customisation: try store.customisation(summary.id))
            names.append(name)
            #expect(summary.effectiveProviderSessionID == "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b")
        }
        let visible = try store.visibleQueue(lockedProviderSessions: [])
        #expect(names == ["Login crash"])
        #expect(visible.fifo.map(\.workStreamID) == [stream.id])
        #expect(visible.fifo.first?.hiddenBecause == [.queueDisabled], "settings.json has the queue off by default")
    }

    /// The `StoreUpgrade` example of docs/library.md, as written, on a copy of the v1 sample.
    @Test func readmeUpgradeExampleRuns() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v1-store", as: "store")
        var printed: [String] = []
        func print(_ text: String) { printed.append(text) }
        let outcome = try StoreUpgrade.run(at: path, backup: .defaultFolder, tool: "MyApp", version: "3.1") { event in
            if case .progress(.phase(.migrating, let done, let total?)) = event { print("\(done)/\(total)") }
        }
        switch outcome {
        case .upgraded(let report, let from, let to, let backup): print("v\(from) → v\(to), \(report.filesChanged) files; backup at \(backup ?? "-")")
        case .alreadyCurrent, .doneByAnotherProcess, .newerStore: break
        }
        let backups = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("store.backup-") }
        #expect(backups.count == 1)
        #expect(printed.last?.hasPrefix("v1 → v4, ") == true && printed.last?.hasSuffix("backup at \(folder.path)/\(backups[0])") == true)
        #expect(
            printed.prefix(9) == ["0/8", "1/8", "2/8", "3/8", "4/8", "5/8", "6/8", "7/8", "8/8"],
            "one event before each of the sample's eight work streams, and one when the last is done")
    }

    /// The drafts and settings example of docs/library.md, as written, on a copy of the v4 sample.
    @Test func libraryDraftsAndSettingsExampleRuns() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v4-store", as: "store")
        let releaseNotes = UUID(uuidString: "c25e47cd-f10a-49a3-9ec4-a9355366da75")!
        let stream = try #require(try Store.open(at: path).listWorkStreams().items.first { $0.id == releaseNotes })
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let store = try Store.open(at: path)
        try store.setDraft("Check the iPad layout in split view", for: stream.id)  // creates the customisation if needed
        let draft = try store.draft(of: stream.id)  // nil when there is none
        try store.setDraft("", for: stream.id)  // empty text clears it: draft null
        try store.updateSettings {
            $0.serverURL = "192.168.1.20"
            $0.serverPort = "8080"  // a string, as the app keeps it
            $0.commandMRU["git.status"] = Date()
        }
        let settings = try store.settings()  // the defaults where nothing is set
        print(draft ?? "-", settings.serverURL, settings.recentSessionsLimit)

        #expect(printed == ["Check the iPad layout in split view 192.168.1.20 10"])
        #expect(try store.draft(of: stream.id) == nil)
        let customisation = try #require(try store.customisation(stream.id), "the draft created the customisation")
        #expect(customisation.draft == nil && !customisation.hasDraft && customisation.schemaVersion == 4)
        #expect(settings.serverPort == "8080" && settings.commandMRU.keys.sorted() == ["build", "git.status"])

        let v3 = try Store.open(at: try folder.copySample("v3-store"))
        let draftError = #expect(throws: StoreError.self) { try v3.setDraft("x", for: stream.id) }
        let settingsError = #expect(throws: StoreError.self) { try v3.updateSettings { $0.serverURL = "x" } }
        #expect(draftError?.code == .unsupportedVersion && settingsError?.code == .unsupportedVersion, "a v3 store is written only once upgraded")
    }
}
