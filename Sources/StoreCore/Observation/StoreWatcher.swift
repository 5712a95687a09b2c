import Dispatch
import Foundation

/// The engine behind `StoreChanges`: a `FolderWatch` on the store folder and its two document
/// folders, a listing of their documents' files (`FileIdentity`), and the changes not yet taken.
///
/// Every event marks folders or names dirty and schedules one scan `coalescing` later; the scan
/// compares what it finds with the listing, so a burst of writes becomes one scan and each
/// document one entry, however many times it was written. The changes wait in `pending` (at most
/// `maximumPending` documents, then one `.reread`) until the consumer takes them, which it does
/// whenever the doorbell (an `AsyncStream<Void>` holding at most one ring) rings.
final class StoreWatcher: Sendable {
    /// A watched folder: its path, and its name in the store (`""` for the store folder).
    struct Folder: Sendable {
        var path: String
        var name: String
    }

    struct State: Sendable {
        /// Folder path → document file name → its file as last seen.
        var listing: [String: [String: FileIdentity]] = [:]
        var pending: [StoreDocument: DocumentChange.Kind] = [:]
        var reread = false
        var dirtyEverything = false
        var dirtyFolders: Set<String> = []
        /// Names an event reported changed: a document among them that exists is modified even if
        /// its file looks the same (a rename over it can reuse the inode number within one clock tick).
        var dirtyNames: [String: Set<String>] = [:]
        var scanScheduled = false
        var stopped = false
        var watch: FolderWatch?
        /// When the last scan found something for the consumer (wall clock, ns since 1970): for the
        /// latency the tests report, apart from the time the consumer's task took to run.
        var lastRing: Int64 = 0
    }

    let store: Store
    let options: StoreChanges.Options
    let folders: [Folder]
    private let ownWrites: OwnWrites.Log?
    private let queue = DispatchQueue(label: "JSONStore.StoreWatcher", qos: .utility)
    private let state = LockedState(State())
    private let doorbell: AsyncStream<Void>.Continuation

    /// Lists the store and starts watching it.
    ///
    /// - Throws: `StoreError` when the store's folders can't be listed.
    init(store: Store, includingOwnWrites: Bool, options: StoreChanges.Options, doorbell: AsyncStream<Void>.Continuation) throws(StoreError) {
        self.store = store
        self.options = options
        self.doorbell = doorbell
        folders = [
            Folder(path: store.path, name: ""),
            Folder(path: store.workStreamsDirectory, name: store.workStreamsFolderName),
            Folder(path: store.customisationsDirectory, name: StoreLayout.customisationsFolder),
        ]
        ownWrites = includingOwnWrites ? nil : store.ownWrites.register()
        // Watch first, then list: a change made in between is in the listing and also reported by an event.
        let watch = FolderWatch.start(folders.map(\.path), notification: options.notification, queue: queue, system: store.system) {
            [weak self] event in self?.receive(event)
        }
        state.withLock { $0.watch = watch }
        do {
            for folder in folders {
                let files = try list(folder)
                state.withLock { $0.listing[folder.path] = files }
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// What the watch runs on: `"inotify"`, `"dispatchSource"` or `"polling"`.
    var backend: String { state.withLock { $0.watch?.backend.rawValue ?? "stopped" } }

    /// When the last scan found changes for the consumer (wall clock, ns since 1970; 0 before any).
    var lastRing: Int64 { state.withLock(\.lastRing) }

    /// Stops watching and ends the sequence. Calling it again does nothing.
    func stop() {
        let watch = state.withLock { state -> FolderWatch? in
            guard !state.stopped else { return nil }
            state.stopped = true
            defer { state.watch = nil }
            return state.watch
        }
        guard let watch else { return }
        watch.cancel()
        if let ownWrites { store.ownWrites.unregister(ownWrites) }
        doorbell.finish()
    }

    /// The changes waiting, as one event, or nil when there are none.
    func takePending() -> StoreChange? {
        state.withLock { state in
            if state.reread {
                state.reread = false
                state.pending = [:]
                return .reread
            }
            guard !state.pending.isEmpty else { return nil }
            defer { state.pending = [:] }
            return .documents(state.pending.sorted { $0.key < $1.key }.map { DocumentChange($0.key, $0.value) })
        }
    }

    // MARK: On the watcher's queue

    private func receive(_ event: FolderEvent) {
        let schedule = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            switch event {
            case .everything: state.dirtyEverything = true
            case .folder(let path): state.dirtyFolders.insert(path)
            case .entries(let path, let names): state.dirtyNames[path, default: []].formUnion(names)
            }
            defer { state.scanScheduled = true }
            return !state.scanScheduled
        }
        guard schedule else { return }
        let delay = options.coalescing.components
        let nanoseconds = Int(delay.seconds) * 1_000_000_000 + Int(delay.attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in self?.scan() }
    }

    /// Lists what the events marked dirty, compares it with the listing, and adds the differences to `pending`.
    private func scan() {
        let dirty = state.withLock { state in
            defer {
                state.dirtyEverything = false; state.dirtyFolders = []; state.dirtyNames = [:]; state.scanScheduled = false
            }
            return (state.dirtyEverything, state.dirtyFolders, state.dirtyNames, state.stopped)
        }
        guard !dirty.3 else { return }
        var failed = false
        for folder in folders {
            let names = dirty.2[folder.path] ?? []
            do {
                if dirty.0 || dirty.1.contains(folder.path) {
                    apply(folder, try list(folder), named: names, complete: true)
                } else if !names.isEmpty {
                    apply(folder, try look(folder, names), named: names, complete: false)
                }
            } catch {
                failed = true  // reported as `.reread`; the consumer's reads meet the error itself
            }
        }
        let ring = state.withLock { state -> Bool in
            if failed || state.pending.count > options.maximumPending {
                state.reread = true
                state.pending = [:]
            }
            let ring = state.reread || !state.pending.isEmpty
            if ring { state.lastRing = Int64(Date().timeIntervalSince1970 * 1e9) }
            return ring
        }
        if ring { doorbell.yield(()) }
    }

    /// Compares `found` (every document of the folder when `complete`, else the ones looked up)
    /// with the listing, updates it, and adds each change not made by this process (when left out) to `pending`.
    private func apply(_ folder: Folder, _ found: [String: FileIdentity], named: Set<String>, complete: Bool) {
        var changes: [(name: String, kind: DocumentChange.Kind, file: FileIdentity?)] = []
        state.withLock { state in
            let before = state.listing[folder.path] ?? [:]
            let names = complete ? Set(before.keys).union(found.keys) : Set(found.keys).union(named.filter { before[$0] != nil })
            for name in names {
                let old = before[name], new = found[name]
                let kind: DocumentChange.Kind?
                switch (old, new) {
                case (nil, nil): kind = nil
                case (nil, .some): kind = .created
                case (.some, nil): kind = .deleted
                case (.some(let a), .some(let b)): kind = a != b || named.contains(name) ? .modified : nil
                }
                if let kind { changes.append((name, kind, new)) }
                state.listing[folder.path, default: [:]][name] = new
            }
        }
        var additions: [(StoreDocument, DocumentChange.Kind)] = []
        for change in changes {
            guard let document = StoreDocument.named(change.name, inFolder: folder.name) else { continue }
            if let ownWrites, ownWrites.takeIsOwn(joinPath(folder.path, change.name), current: change.file) { continue }
            additions.append((document, change.kind))
        }
        guard !additions.isEmpty else { return }
        state.withLock { state in
            for (document, kind) in additions {
                if let earlier = state.pending[document] { state.pending[document] = earlier.then(kind) } else { state.pending[document] = kind }
            }
        }
    }

    // MARK: Listing

    /// The documents of a folder (only the three top-level documents in the store folder); an
    /// absent folder has none.
    private func list(_ folder: Folder) throws(StoreError) -> [String: FileIdentity] {
        let context = ErrorContext("observe", folder.path)
        let entries: [DirectoryEntry]
        do {
            entries = try store.system.listDirectory(
                folder.path, including: { StoreDocument.named($0, inFolder: folder.name) != nil },
                context: context)
        } catch  where error.code == .notFound {
            return [:]
        }
        return try look(folder, Set(entries.map(\.name)))
    }

    /// The files of `names` in the folder that exist and are documents.
    private func look(_ folder: Folder, _ names: Set<String>) throws(StoreError) -> [String: FileIdentity] {
        var found: [String: FileIdentity] = [:]
        for name in names where StoreDocument.named(name, inFolder: folder.name) != nil {
            let path = joinPath(folder.path, name)
            if let status = try store.system.linkStatus(path, context: ErrorContext("observe", path)) { found[name] = FileIdentity(status) }
        }
        return found
    }
}
