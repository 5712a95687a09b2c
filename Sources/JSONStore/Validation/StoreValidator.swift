import Foundation

/// Every document of a store read once, fully (messages included, to check them), with every
/// problem found on the way (spec §1, §3, §8): what `validate` reports and `stats` counts.
///
/// The checks are in `StoreValidator+Checks.swift`; each adds ``StoreProblem``s to `problems`
/// (something is wrong) or `notes` (worth knowing, not wrong). One bad document never hides
/// another (spec §8). Memory holds a summary per work stream, not its messages. Open the store
/// read-only: validating writes nothing.
///
/// ```swift
/// let validator = try StoreValidator(try Store.open(at: path, options: .readOnly))
/// for problem in validator.problems { print(problem.line) }
/// ```
public struct StoreValidator: Sendable {
    /// A user customisation and its file size.
    public struct Customisation: Sendable {
        public var document: Schema.Customisation
        public var size: Int
    }

    public let store: Store
    /// The store's top-level entries, dot names left out.
    package internal(set) var entries: [StoreFolderEntry] = []
    public internal(set) var manifest: ManifestDocument?
    /// Every regular `sessions/<id>.json` (`work-streams/<id>.json` from v4), readable or not.
    public internal(set) var sessionFiles: Set<UUID> = []
    /// The work streams that read, in id order.
    public internal(set) var sessions: [WorkStreamSummary] = []
    public internal(set) var customisations: [Customisation] = []
    /// Every regular `user-sessions/<id>.json`, readable or not.
    public internal(set) var customisationFiles: Set<UUID> = []
    public internal(set) var settings: Settings?
    public internal(set) var queue: QueueV2?
    /// Documents (with a valid name) that exist but can't be read.
    public internal(set) var unreadable = 0
    /// What is wrong, sorted by file, key path and code.
    public internal(set) var problems: [StoreProblem] = []
    /// What is worth knowing but not wrong, sorted like `problems`.
    public internal(set) var notes: [StoreProblem] = []
    /// Where each message id was first seen: file and index, to find duplicates (spec §3: unique in the store).
    var messageIDs: [UUID: (file: String, index: Int)] = [:]

    /// True for a store `migrate` has not upgraded yet: its queue lives in the session keys.
    public var isV1: Bool { store.compatibility.isV1 }

    /// The store's schema version as `store.json` says (1 for a v1 store).
    public var schemaVersion: Int { store.compatibility.storeSchemaVersion }

    /// Reads and checks everything.
    /// - Parameters:
    ///   - store: The store to read, open for reading at least.
    ///   - progress: Told `.phase(.validating, …)` on the calling thread, once the work streams
    ///     are listed (`done` 0) and after each one is read and checked, readable or not; not
    ///     called when the store has no folder of work streams to read.
    /// - Throws: only what stops the whole scan (the store folder can't be listed); a bad
    ///   document is a problem, not an error.
    public init(_ store: Store, progress: (StoreProgress) -> Void = { _ in }) throws(StoreError) {
        self.store = store
        try scanEntries()
        scanManifest()
        if folderIsUsable(store.workStreamsFolderName) { try scanSessions(progress: progress) }
        if folderIsUsable(StoreLayout.customisationsFolder) { try scanCustomisations() }
        scanSettings()
        scanQueue()
        checkMigrationState()
        problems = StoreProblem.sorted(problems)
        notes = StoreProblem.sorted(notes)
    }

    /// The size of a top-level file, when it is a regular file.
    public func size(of name: String) -> Int? {
        entries.first { $0.name == name && $0.kind == .file }?.size
    }

    private func folderIsUsable(_ name: String) -> Bool {
        entries.contains { $0.name == name && $0.kind == .folder }
    }

    /// Runs a read, adding its failure to `problems` instead of throwing.
    mutating func attempt<T>(_ body: () throws(StoreError) -> T) -> T? {
        do { return try body() } catch {
            problems.append(StoreProblem(error, in: store))
            return nil
        }
    }

    private mutating func scanManifest() {
        let store = store
        manifest = attempt { () throws(StoreError) in try store.manifest() }
    }

    private mutating func scanSettings() {
        guard entries.contains(where: { $0.name == StoreLayout.settings }) else { return }
        let store = store
        // The file as it is (its own schema_version), not as a write would take it.
        settings = attempt { () throws(StoreError) in try store.settingsDocument() } ?? nil
    }

    private mutating func scanSessions(progress: (StoreProgress) -> Void) throws(StoreError) {
        let store = store
        let listing = try store.workStreamIDs()
        sessionFiles = Set(listing.items)
        let total = listing.items.count
        var done = 0
        progress(.phase(.validating, done: 0, total: total))
        scanFolder(
            listing, store.workStreamsFolderName, read: { (id) throws(StoreError) in try store.storedWorkStream(id) },
            id: \.fields.id,
            afterEach: {
                done += 1
                progress(.phase(.validating, done: done, total: total))
            }
        ) { scan, id, stored in
            scan.checkWorkStream(stored.value, file: store.workStreamFile(id))
            scan.sessions.append(WorkStreamSummary(stored.value, fileSize: stored.size))
        }
    }

    private mutating func scanCustomisations() throws(StoreError) {
        let store = store
        let listing = try store.customisationIDs()
        customisationFiles = Set(listing.items)
        scanFolder(
            listing, StoreLayout.customisationsFolder, read: { (id) throws(StoreError) in try store.storedCustomisation(id) },
            id: \.id
        ) { scan, id, stored in
            scan.customisations.append(Customisation(document: stored.value, size: stored.size))
            if !scan.sessionFiles.contains(id) {
                scan.notes.append(
                    StoreProblem(
                        file: StoreLayout.customisationPath(id), code: "orphan_customization",
                        message:
                            "it customises work stream '\(id.lowercased)', which does not exist; this is allowed (spec §3: the work stream may not exist yet)",
                        fix: "Nothing to do. Delete the file only if that work stream will never come back."))
            }
        }
    }

    /// One folder of documents, one document at a time (memory never holds two): a listing
    /// problem or a document that does not read is a problem (and counts in `unreadable`); a
    /// document whose `id` is not its file name is a problem; every other one goes to `body`.
    /// `afterEach` is called once per listed document, when it is done with.
    private mutating func scanFolder<Document: Sendable>(
        _ listing: ScanResult<UUID>, _ folder: String, read: (UUID) throws(StoreError) -> StoredDocument<Document>,
        id: (Document) -> UUID, afterEach: () -> Void = {}, body: (inout StoreValidator, UUID, StoredDocument<Document>) -> Void
    ) {
        problems += listing.problems.map { StoreProblem($0, in: store) }
        for fileID in listing.items {
            defer { afterEach() }
            guard let stored = attempt({ () throws(StoreError) in try read(fileID) }) else {
                unreadable += 1
                continue
            }
            guard checkID(id(stored.value), fileID, folder: folder) else { continue }
            body(&self, fileID, stored)
        }
    }

    private mutating func scanQueue() {
        guard !isV1 else { return }
        let store = store
        guard let read = attempt({ () throws(StoreError) in try store.queueDocument() }) else { return }
        guard let queue = read else {
            problems.append(
                StoreProblem(
                    file: StoreLayout.queue, code: "missing_queue_document",
                    message: "absent, but a v2 store keeps its queue there; v2 code falls back to the session keys",
                    recovery: .run(.migrate(store: store.path), plainly: "Migrate the store", ": it rebuilds queue.json from the session keys (spec §7).")))
            return
        }
        self.queue = queue
        checkQueueEntries(queue)
        // A v4 store has no mirror (spec §11): queue.json is the queue.
        if !store.hasRenamedLayout { checkMirror(queue) }
    }
}
