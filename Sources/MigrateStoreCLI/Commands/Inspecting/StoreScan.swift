import Foundation
import JSONStore
import Schema

/// Every document of a store read once, fully (messages included, to check them), with every
/// problem found on the way: what `validate` reports and `stats` counts.
///
/// The checks are in `StoreScan+Checks.swift`; each adds ``InspectProblem``s to `problems`
/// (something is wrong) or `notes` (worth knowing, not wrong). One bad document never hides
/// another (spec §8). Memory holds a summary per work stream, not its messages.
struct StoreScan {
    /// A user customisation and its file size.
    struct Customization {
        var document: UserSessionV1
        var size: Int
    }

    let inspected: InspectedStore
    var entries: [StoreFolderEntry] = []
    var manifest: ManifestDocument?
    /// Every regular `sessions/<id>.json`, readable or not.
    var sessionFiles: Set<UUID> = []
    /// The work streams that read, in id order.
    var sessions: [WorkStreamSummary] = []
    var customizations: [Customization] = []
    /// Every regular `user-sessions/<id>.json`, readable or not.
    var customizationFiles: Set<UUID> = []
    var settings: SettingsV1?
    var queue: QueueV2?
    /// Documents (with a valid name) that exist but can't be read.
    var unreadable = 0
    var problems: [InspectProblem] = []
    var notes: [InspectProblem] = []
    /// Where each message id was first seen: file and index, to find duplicates (spec §3: unique in the store).
    var messageIDs: [UUID: (file: String, index: Int)] = [:]

    var store: Store { inspected.store }

    /// Reads and checks everything.
    init(_ inspected: InspectedStore) throws {
        self.inspected = inspected
        try scanEntries()
        scanManifest()
        if folderIsUsable("sessions") { try scanSessions() }
        if folderIsUsable("user-sessions") { try scanCustomizations() }
        scanSettings()
        scanQueue()
        checkMigrationState()
        problems = InspectProblem.sorted(problems)
        notes = InspectProblem.sorted(notes)
    }

    /// The size of a top-level file, when it is a regular file.
    func size(of name: String) -> Int? {
        entries.first { $0.name == name && $0.kind == .file }?.size
    }

    private func folderIsUsable(_ name: String) -> Bool {
        entries.contains { $0.name == name && $0.kind == .folder }
    }

    /// Runs a read, adding its failure to `problems` instead of throwing.
    mutating func attempt<T>(_ body: () throws(StoreError) -> T) -> T? {
        do { return try body() } catch {
            problems.append(InspectProblem(error, in: inspected))
            return nil
        }
    }

    private mutating func scanManifest() {
        let store = store
        manifest = attempt { () throws(StoreError) in try store.manifest() }
    }

    private mutating func scanSettings() {
        guard entries.contains(where: { $0.name == "settings.json" }) else { return }
        let store = store
        settings = attempt { () throws(StoreError) in try store.settings() }
    }

    private mutating func scanSessions() throws {
        let store = store
        let listing = try inspected.call { () throws(StoreError) in try store.workStreamIDs() }
        problems += listing.problems.map { InspectProblem($0, in: inspected) }
        sessionFiles = Set(listing.items)
        for id in listing.items {
            guard let stored = attempt({ () throws(StoreError) in try store.storedWorkStream(id) }) else {
                unreadable += 1
                continue
            }
            guard checkID(stored.value.fields.id, id, folder: "sessions") else { continue }
            checkSession(stored.value, file: "sessions/\(id.lowercased).json")
            sessions.append(WorkStreamSummary(stored.value, fileSize: stored.size))
        }
    }

    private mutating func scanCustomizations() throws {
        let store = store
        let listing = try inspected.call { () throws(StoreError) in try store.customizationIDs() }
        problems += listing.problems.map { InspectProblem($0, in: inspected) }
        customizationFiles = Set(listing.items)
        for id in listing.items {
            guard let stored = attempt({ () throws(StoreError) in try store.storedCustomization(id) }) else {
                unreadable += 1
                continue
            }
            guard checkID(stored.value.id, id, folder: "user-sessions") else { continue }
            customizations.append(Customization(document: stored.value, size: stored.size))
            if !sessionFiles.contains(id) {
                notes.append(InspectProblem(
                    file: "user-sessions/\(id.lowercased).json", code: "orphan_customization",
                    message: "it customises work stream '\(id.lowercased)', which does not exist; this is allowed (spec §3: the work stream may not exist yet)",
                    fix: "Nothing to do. Delete the file only if that work stream will never come back."))
            }
        }
    }

    private mutating func scanQueue() {
        guard !inspected.isV1 else { return }
        let store = store
        guard let read = attempt({ () throws(StoreError) in try store.queueDocument() }) else { return }
        guard let queue = read else {
            problems.append(InspectProblem(
                file: "queue.json", code: "missing_queue_document",
                message: "absent, but a v2 store keeps its queue there; v2 code falls back to the session keys",
                fix: "Run 'migrate-store migrate \(store.path)': it rebuilds queue.json from the session keys (spec §7)."))
            return
        }
        self.queue = queue
        checkQueueEntries(queue)
        checkMirror(queue)
    }
}
