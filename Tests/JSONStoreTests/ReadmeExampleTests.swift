import Foundation
import Testing
import JSONStore

/// The library example of the README, compiled and run as written (with a temporary folder).
@Suite struct ReadmeExampleTests {
    @Test func readmeLibraryExampleRuns() throws {
        let folder = TemporaryDirectory()
        let store = try Store.create(at: folder("demo-store"))            // or Store.open(at:)
        let stream = try store.createWorkStream(workingDirectory: "/Users/ana/app")
        try store.appendMessages(stream.id, [
            MessageV1(id: UUID(), sessionID: stream.id, role: "user", text: "Why does login crash?", timestamp: Date()),
        ])
        try store.enqueue(stream.id)                                   // queue.json first, then the mirror
        try store.setCustomName(stream.id, "Login crash")
        try store.updateWorkStream(stream.id) { $0.providerSessionID = "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b" }

        let listing = try store.listWorkStreams()                      // summaries + every unreadable file
        var names: [String] = []
        for summary in listing.items {
            let name = WorkStreamRules.displayName(backendName: summary.backendName,
                                                   customization: try store.customization(summary.id))
            names.append(name)
            #expect(summary.effectiveProviderSessionID == "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b")
        }
        let visible = try store.visibleQueue(lockedProviderSessions: [])
        #expect(names == ["Login crash"])
        #expect(visible.fifo.map(\.workStreamID) == [stream.id])
        #expect(visible.fifo.first?.hiddenBecause == [.queueDisabled], "settings.json has the queue off by default")
    }
}
