import Foundation

/// The names of everything in a store folder (STORE-FORMAT §1): the one place they are spelled.
/// Every target builds its paths from these; a test scans `Sources/` for the literals.
///
/// ```
/// <store>/
///   store.json                 StoreLayout.manifest
///   sessions/<id>.json         StoreLayout.workStreamsFolder, workStreamPath(id)        (v1–v3)
///   work-streams/<id>.json     StoreLayout.renamedWorkStreamsFolder, workStreamPath(id, v: 4) (v4, spec §11)
///   user-sessions/<id>.json    StoreLayout.customisationsFolder, customisationPath(id)
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
    /// The folder of work streams from schema v4 on (spec §11): `work-streams` replaces `sessions`.
    public static let renamedWorkStreamsFolder = "work-streams"
    /// The first schema version whose work streams live in ``renamedWorkStreamsFolder``: the `to` of
    /// the chain's step that renames the folder (`MigrationChain.folderRenamingStep`).
    public static var renamedFolderVersion: Int { MigrationChain.folderRenamingStep.to }
    /// The folder of user customisations: `user-sessions`.
    public static let customisationsFolder = "user-sessions"
    /// How every document's file name ends.
    public static let documentExtension = ".json"

    /// The kinds of document a store holds.
    public enum DocumentKind: String, Sendable, CaseIterable {
        case manifest, settings, queue, workStream, customisation
    }

    /// The top-level documents, by file name.
    public static let topLevelDocuments: [String: DocumentKind] = [manifest: .manifest, settings: .settings, queue: .queue]
    /// The folders of documents, by folder name.
    public static let documentFolders: [String: DocumentKind] = [workStreamsFolder: .workStream, customisationsFolder: .customisation]
    /// The folders of documents, in the order scans visit them.
    public static let documentFolderNames = [workStreamsFolder, customisationsFolder]

    /// The folders of documents of a store whose `store.json` says `schemaVersion`, in the order
    /// scans visit them: its work-stream folder, then `user-sessions`.
    public static func documentFolderNames(schemaVersion: Int) -> [String] {
        [workStreamsFolder(schemaVersion: schemaVersion), customisationsFolder]
    }
    /// Every document folder of any version (`sessions`, `work-streams`, `user-sessions`): what a
    /// temp-file sweep and the symbolic-link check of open visit, whatever the store's version.
    public static let everyDocumentFolderName = [workStreamsFolder, renamedWorkStreamsFolder, customisationsFolder]

    /// The store's spelling of an id (spec §1): lowercase `8-4-4-4-12` hex digits, as in the file
    /// names, every id-valued key and `migrate-store`'s output. For an app that shows an id, passes
    /// it to another program or compares it with the store's text (`uuidString` is upper case).
    ///
    /// ```swift
    /// StoreLayout.idText(stream.id)   // "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b"
    /// ```
    public static func idText(_ id: UUID) -> String { id.lowercased }

    /// `<lowercase uuid>.json`.
    public static func documentFileName(_ id: UUID) -> String { id.lowercased + documentExtension }
    /// `sessions/<lowercase uuid>.json`.
    public static func workStreamPath(_ id: UUID) -> String { workStreamsFolder + "/" + documentFileName(id) }
    /// The folder of work streams of a store whose `store.json` says `schemaVersion`, from the
    /// chain's layout effects: the rename step's `from` folder below its `to` version, its `to`
    /// folder from that version on (`sessions` up to v3, `work-streams` from v4 on).
    public static func workStreamsFolder(schemaVersion: Int) -> String {
        let rename = MigrationChain.folderRenamingStep
        guard let folders = rename.renamedWorkStreamsFolder else { preconditionFailure("StoreLayout: the folder-renaming step renames no folder") }
        return schemaVersion >= rename.to ? folders.to : folders.from
    }
    /// The work-stream folder of the other side of the chain's folder-renaming step: in a store
    /// at `schemaVersion`, that folder is the leftover of an interrupted layout change (never read).
    public static func otherWorkStreamsFolder(schemaVersion: Int) -> String {
        workStreamsFolder(schemaVersion: otherSideOfFolderRename(schemaVersion: schemaVersion))
    }
    /// The newest schema version on the other side of the folder-renaming step from `schemaVersion`:
    /// the step's `from` for a store at or past its `to`, the step's `to` otherwise.
    public static func otherSideOfFolderRename(schemaVersion: Int) -> Int {
        let rename = MigrationChain.folderRenamingStep
        return schemaVersion >= rename.to ? rename.from : rename.to
    }
    /// `<folder for schemaVersion>/<lowercase uuid>.json`.
    public static func workStreamPath(_ id: UUID, schemaVersion: Int) -> String {
        workStreamsFolder(schemaVersion: schemaVersion) + "/" + documentFileName(id)
    }
    /// `user-sessions/<lowercase uuid>.json`.
    public static func customisationPath(_ id: UUID) -> String { customisationsFolder + "/" + documentFileName(id) }

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
        /// The folder a migration fills and exchanges with `user-sessions/` (the customisations).
        public static let migrationCustomisationsExchangeFolder = ".migration-user-sessions"
        /// What this library last left in the folders the §7 reconcile reads: lets an open for
        /// writing tell in constant time that nobody else wrote since (JSONStore's `WriteRecord`).
        public static let writeRecord = ".writes"
        /// The folder a layout change fills before renaming it `folder`.
        public static func staging(for folder: String) -> String { ".staging-" + folder }
        /// The folder the layout change to `work-streams` fills before renaming it.
        public static let stagingWorkStreams = staging(for: StoreLayout.renamedWorkStreamsFolder)
        /// The folder the layout change back to `sessions` fills before renaming it.
        public static let stagingSessions = staging(for: StoreLayout.workStreamsFolder)
        /// Where the folder of the other side of the layout change goes before it is removed.
        public static let retiredWorkStreams = ".retired-work-streams"
    }
}
