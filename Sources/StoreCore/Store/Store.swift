import Foundation

/// A work-stream store on disk: the typed API for app developers.
///
/// Reads need no lock (every file is always whole). Each write takes the store's lock for its
/// duration, re-reads what it changes under the lock, and is durable when the call returns
/// (see "Durability" in the README).
///
/// ```swift
/// let store = try Store.create(at: "/tmp/demo-store")
/// let stream = try store.createWorkStream(workingDirectory: "/Users/ana/app")
/// try store.appendMessages(stream.id, [message])
/// try store.enqueue(stream.id)
/// let listing = try store.listWorkStreams()
/// ```
public final class Store: Sendable {
    /// How a store is opened.
    public struct Options: Sendable {
        /// Never write, not even a lock file or a temp-file sweep. The default is `false`.
        public var readOnly: Bool
        /// Recorded in the lock file so another process's error can name this one.
        public var tool: String
        public var version: String
        /// How long a write waits for another process's lock. The default is 10 seconds.
        public var lockTimeout: Duration
        /// Keeps each work stream this store writes to its newest messages (see `MessageRetention`;
        /// `.app` is the shipped app's rule). The default is nil: messages are never pruned.
        public var messageRetention: MessageRetention?

        public init(
            readOnly: Bool = false, tool: String = "JSONStore", version: String = Store.libraryVersion,
            lockTimeout: Duration = StoreLock.defaultTimeout, messageRetention: MessageRetention? = nil
        ) {
            self.readOnly = readOnly; self.tool = tool; self.version = version; self.lockTimeout = lockTimeout
            self.messageRetention = messageRetention
        }

        public static let readOnly = Options(readOnly: true)
    }

    public static let libraryVersion = "0.1.0"

    /// The store folder, as given.
    public let path: String
    public let options: Options
    /// What the reader rule of spec §4 says about this store for this code (v2).
    public let compatibility: StoreCompatibility
    /// Sentences the caller should show (for example: locking is unreliable on a network file system).
    public let warnings: [String]
    package let system: SystemCalls
    /// What open and a queue change run from outside `Store/` (see `StoreMaintenance`).
    package let maintenance: StoreMaintenance
    /// The messages of the work streams updated last, with their bytes (see `RecentMessages`).
    let recentMessages = RecentMessages()
    /// Where this store's writes are recorded for the observers that leave them out.
    package let ownWrites: OwnWrites

    /// - Parameter ownWrites: The record of this process's writes; nil for the one every store
    ///   value of `path` shares (`OwnWrites.of(_:)`).
    package init(
        path: String, options: Options, compatibility: StoreCompatibility, warnings: [String], system: SystemCalls,
        maintenance: StoreMaintenance, ownWrites: OwnWrites? = nil
    ) {
        self.path = path; self.options = options; self.compatibility = compatibility
        self.warnings = warnings; self.system = system; self.maintenance = maintenance
        self.ownWrites = ownWrites ?? OwnWrites.of(path)
    }

    /// Newer stores admitted by `min_reader_version` are read with their new keys kept.
    package var acceptsNewerDocuments: Bool {
        if case .superseded = compatibility { return true }
        return false
    }

    /// True when this code may write: the store is at a version it writes (v4, or v5 after the
    /// breaking step), or newer and admits this code as a writer.
    public var isWritable: Bool {
        guard !options.readOnly else { return false }
        switch compatibility {
        case .current, .breakingCurrent, .superseded: return true
        case .needsMigration, .refused: return false
        }
    }

    // MARK: Paths (only ever built from validated ids)

    /// `relative` is one of the spec's names (`store.json`, `sessions/<id>.json`, …), built by this type from a validated id.
    package func file(_ relative: String) -> String {
        // One concatenation: `relative` is single components joined by `/` (`StoreLayout`), so
        // joining them one by one (`joinPath` per component, a `String` each) gives the same path
        // at a measurable cost on every update.
        assert(
            relative.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).allSatisfy {
                !$0.isEmpty && !$0.elementsEqual(".".utf8) && !$0.elementsEqual("..".utf8)
            }, "Store.file: '\(relative)' is not a relative path of single components")
        return path.utf8.last == UInt8(ascii: "/") ? path + relative : path + "/" + relative
    }
    /// The folder of this store's work streams, by its schema version (`StoreLayout.workStreamsFolder(schemaVersion:)`):
    /// `sessions` up to v4, `work-streams` from v5 on. The other one is never read as data.
    package var workStreamsFolderName: String { StoreLayout.workStreamsFolder(schemaVersion: compatibility.layoutVersion) }
    /// True for a store at v5 or later (spec §12): work streams are `WorkStreamV5` documents in
    /// `work-streams/`, with no queue mirror keys (the queue is `queue.json` only).
    public var hasRenamedLayout: Bool { compatibility.layoutVersion >= StoreLayout.renamedFolderVersion }
    /// The `schema_version` this code writes into the store's documents: the store's own version
    /// when it is one this code writes (3 or 4), else ``DocumentVersion/current``.
    var writtenVersion: Int {
        if case .breakingCurrent(let version) = compatibility { return version }
        return DocumentVersion.current
    }
    package var workStreamsDirectory: String { joinPath(path, workStreamsFolderName) }
    package var customisationsDirectory: String { joinPath(path, StoreLayout.customisationsFolder) }
    package static func documentName(_ id: UUID) -> String { StoreLayout.documentFileName(id) }
    /// `sessions/<id>.json`: the v1–v4 path (the migrator's, which works on stores below v5).
    /// This store's path of a work stream: `sessions/<id>.json` up to v4, `work-streams/<id>.json` from v5.
    package func workStreamFile(_ id: UUID) -> String { StoreLayout.workStreamPath(id, schemaVersion: compatibility.layoutVersion) }
}
