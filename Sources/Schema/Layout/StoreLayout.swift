import Foundation

/// The names of everything in a store folder (STORE-FORMAT §1): the one place they are spelled.
/// Every target builds its paths from these; a test scans `Sources/` for the literals.
///
/// ```
/// <store>/
///   store.json                 StoreLayout.manifest
///   sessions/<id>.json         StoreLayout.workStreamsFolder, workStreamPath(id)
///   user-sessions/<id>.json    StoreLayout.customizationsFolder, customizationPath(id)
///   settings.json              StoreLayout.settings
///   queue.json                 StoreLayout.queue (v2 only)
///   .<anything>                the implementation's bookkeeping (StoreLayout.Bookkeeping)
/// ```
public enum StoreLayout {
    /// The manifest: `store.json`.
    public static let manifest = "store.json"
    /// The user settings: `settings.json`.
    public static let settings = "settings.json"
    /// The queue document of a v2 store: `queue.json`.
    public static let queue = "queue.json"
    /// The folder of work streams: `sessions` (v1 calls them backend sessions).
    public static let workStreamsFolder = "sessions"
    /// The folder of user customisations: `user-sessions`.
    public static let customizationsFolder = "user-sessions"
    /// How every document's file name ends.
    public static let documentExtension = ".json"

    /// The kinds of document a store holds.
    public enum DocumentKind: String, Sendable, CaseIterable {
        case manifest, settings, queue, workStream, customization
    }

    /// The top-level documents, by file name.
    public static let topLevelDocuments: [String: DocumentKind] = [manifest: .manifest, settings: .settings, queue: .queue]
    /// The folders of documents, by folder name.
    public static let documentFolders: [String: DocumentKind] = [workStreamsFolder: .workStream, customizationsFolder: .customization]
    /// The folders of documents, in the order scans visit them.
    public static let documentFolderNames = [workStreamsFolder, customizationsFolder]

    /// `<lowercase uuid>.json`.
    public static func documentFileName(_ id: UUID) -> String { id.lowercased + documentExtension }
    /// `sessions/<lowercase uuid>.json`.
    public static func workStreamPath(_ id: UUID) -> String { workStreamsFolder + "/" + documentFileName(id) }
    /// `user-sessions/<lowercase uuid>.json`.
    public static func customizationPath(_ id: UUID) -> String { customizationsFolder + "/" + documentFileName(id) }

    /// True for the only file names a document folder may hold: a lowercase RFC 4122 UUID and `.json`.
    public static func isDocumentFileName(_ name: String) -> Bool {
        guard name.hasSuffix(documentExtension) else { return false }
        let id = String(name.dropLast(documentExtension.count))
        return id.count == 36 && id == id.lowercased() && UUID(uuidString: id) != nil
    }

    /// True for a name readers ignore: the implementation's own bookkeeping starts with a dot.
    public static func isBookkeeping(_ name: String) -> Bool { name.hasPrefix(".") }

    /// The implementation's own entries (all dot names: readers, backups and exports skip them).
    public enum Bookkeeping {
        /// The inter-process lock file.
        public static let lock = ".lock"
        /// The prefix of a temporary file written beside its target before the rename.
        public static let temporaryPrefix = ".tmp-"
        /// The folder a migration fills and exchanges with `sessions/`.
        public static let migrationExchangeFolder = ".migration-sessions"
        /// What this library last left in the folders the §7 reconcile reads: lets an open for
        /// writing tell in constant time that nobody else wrote since (JSONStore's `WriteRecord`).
        public static let writeRecord = ".writes"
    }
}
