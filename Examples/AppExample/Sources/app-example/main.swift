// app-example: what the app does with a store, through the async API (docs/library.md: "Using the
// library in an app"). Its own package, built as an app would build it (`swift build --package-path
// Examples/AppExample`, by CI and by AppExampleTests, which runs it).
//
//     app-example <store folder>                     the app
//     app-example reply <store folder> <stream id>   the other process: a backend helper that
//                                                    answers a work stream and takes it off the queue
import Foundation
import JSONStore

/// The other process: appends the assistant's reply and removes the work stream from the queue.
func reply(store path: String, stream id: UUID) async throws(StoreError) {
    let store = try await AsyncStore.open(at: path, options: Store.Options(tool: "backend-helper", version: "1.0"))
    try await store.appendMessages(id, [Message(id: UUID(), sessionID: id, role: "assistant",
                                                text: "The session token is read before it is set.", timestamp: Date())])
    try await store.removeFromQueue(id)
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "reply", let id = UUID(uuidString: arguments[3]) {
    try await reply(store: arguments[2], stream: id)
    exit(0)
}
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("Usage: app-example <store folder>\n".utf8))
    exit(64)
}
let path = arguments[1]

// 1. At launch: open the store (create it on the first launch), with the app's message retention.
func openAtLaunch(_ path: String) async throws(StoreError) -> AsyncStore {
    let options = Store.Options(tool: "app-example", version: "1.0", messageRetention: .app)
    do {
        return try await AsyncStore.open(at: path, options: options)
    } catch where error.code == .notAStore {
        let store = try await AsyncStore.create(at: path, options: options)
        try await store.updateSettings { $0.queueEnabled = true }   // the user turned the queue on
        return store
    }
}
let store = try await openAtLaunch(path)
print("opened \(store.path)")

// 2. Observe: every change another process makes (this process's own writes left out).
let changes = try await store.changes(includingOwnWrites: false)

// 3. Send a message: append it, and queue the work stream when the queue is on.
func send(_ text: String, to id: UUID) async throws(StoreError) {
    try await store.appendMessages(id, [Message(id: UUID(), sessionID: id, role: "user", text: text, timestamp: Date())])
    if try await store.settings().queueEnabled { try await store.enqueue(id) }
}
let login = try await store.createWorkStream(workingDirectory: "/Users/ana/app")
try await send("Why does login crash?", to: login.id)
let api = try await store.createWorkStream(workingDirectory: "/Users/ana/api")
try await send("Add rate limiting", to: api.id)

// 4. Show the visible queue: provider sessions an agent is still working in are locked, and hidden.
let locked: Set<String> = [api.providerSessionID]
func showQueue() async throws(StoreError) {
    let queue = try await store.visibleQueue(lockedProviderSessions: locked)
    let visible = queue.fifo.filter(\.isVisible).map { "\($0.position):\(StoreLayout.idText($0.workStreamID))" }
    print("queue [\(visible.joined(separator: ", "))], \(queue.fifo.count - visible.count) hidden")
}
try await showQueue()

// 5. React to a write by another process: start the backend helper, and re-read on its change.
let helper = Process()
helper.executableURL = Bundle.main.executableURL
helper.arguments = ["reply", store.path, StoreLayout.idText(login.id)]
try helper.run()
var shownReply: UUID?
for await change in changes {
    if case .documents(let documents) = change, !documents.contains(where: { $0.document == .workStream(login.id) }) { continue }
    if let last = try await store.workStream(login.id).messages?.last, last.role == "assistant", last.id != shownReply {
        print("reply in \(StoreLayout.idText(login.id)): \(last.text)")
        shownReply = last.id
    }
    let queued = try await store.queue().fifo.contains { $0.workStreamID == login.id }
    if shownReply != nil && !queued { break }
}
try await showQueue()
changes.stop()
helper.waitUntilExit()
exit(helper.terminationStatus)
