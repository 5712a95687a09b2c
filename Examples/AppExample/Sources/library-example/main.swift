// library-example: the library example of README.md and docs/library.md ("The library"), as
// written there; both show this file from its `import Foundation` line on
// (Scripts/check-readme-examples.sh).
// It builds with the app example's package, as an outside user's code would.
import Foundation
import JSONStore

let store = try Store.create(at: "/tmp/demo-store")            // or Store.open(at:)
let stream = try store.createWorkStream(workingDirectory: "/Users/ana/app")
try store.appendMessages(stream.id, [
    Message(id: UUID(), sessionID: stream.id, role: "user", text: "Why does login crash?", timestamp: Date()),
])
try store.enqueue(stream.id)                                   // queue.json first, then the mirror
try store.setCustomName(stream.id, "Login crash")
try store.updateWorkStream(stream.id) { $0.providerSessionID = "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b" }

let listing = try store.listWorkStreams()                      // summaries + every unreadable file
for summary in listing.items {
    let name = WorkStreamRules.displayName(backendName: summary.backendName,
                                           customisation: try store.customisation(summary.id))
    print(summary.id, name, summary.effectiveProviderSessionID)
}
let visible = try store.visibleQueue(lockedProviderSessions: [])
