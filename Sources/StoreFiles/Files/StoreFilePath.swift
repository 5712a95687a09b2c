import Schema

/// The path of one store document relative to the store folder, in one of the five shapes
/// STORE-FORMAT §1 allows: `store.json`, `settings.json`, `queue.json`,
/// `sessions/<lowercase uuid>.json`, `user-sessions/<lowercase uuid>.json`.
///
/// The only way to get one is to validate a string, and validation is by exact spelling: no
/// normalisation, so `./store.json`, `sessions//x.json`, `sessions/../../x`, `/etc/passwd`,
/// an uppercase UUID and every dot name are rejected. A path built from a `StoreFilePath` can
/// therefore never leave the folder it is joined to. Backups, exports and imports accept
/// nothing else.
///
/// ```swift
/// StoreFilePath("sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json")?.kind  // .session
/// StoreFilePath("../x")                                                     // nil
/// ```
package struct StoreFilePath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Which document a path names.
    package enum Kind: Sendable, Equatable {
        case manifest, settings, queue, session, userSession
    }

    /// The relative path, exactly as validated.
    package let rawValue: String
    /// Which document it names.
    package let kind: Kind

    /// The three documents at the top of a store.
    static let topLevelNames: [String: Kind] = [StoreLayout.manifest: .manifest, StoreLayout.settings: .settings, StoreLayout.queue: .queue]
    /// The document folders: both work-stream folders (`sessions` up to v4, `work-streams` from
    /// v5, spec §12) and `user-sessions`. Which work-stream folder a store uses is its version's.
    static let folderNames: [String: Kind] = [
        StoreLayout.workStreamsFolder: .session, StoreLayout.renamedWorkStreamsFolder: .session,
        StoreLayout.customisationsFolder: .userSession,
    ]

    /// Accepts exactly one of the five shapes; nil for anything else.
    package init?(_ path: String) {
        if let kind = Self.topLevelNames[path] {
            self.rawValue = path
            self.kind = kind
            return
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let kind = Self.folderNames[String(parts[0])],
            DocumentID(fileName: String(parts[1])) != nil
        else { return nil }
        self.rawValue = path
        self.kind = kind
    }

    /// The folder part (`"sessions"`), or nil for a top-level document.
    package var folder: String? {
        guard let slash = rawValue.firstIndex(of: "/") else { return nil }
        return String(rawValue[..<slash])
    }

    /// The file name part (`"<id>.json"`, or the whole path for a top-level document).
    package var fileName: String {
        guard let slash = rawValue.firstIndex(of: "/") else { return rawValue }
        return String(rawValue[rawValue.index(after: slash)...])
    }

    /// For a session or user-session path: the lowercase UUID string of its name.
    package var documentID: DocumentID? { folder == nil ? nil : DocumentID(fileName: fileName) }

    /// `root/<path>`, joined one component at a time (each was validated).
    package func absolute(in root: String) -> String {
        guard let folder else { return joinPath(root, rawValue) }
        return joinPath(joinPath(root, folder), fileName)
    }

    package var description: String { rawValue }

    /// Byte order of the UTF-8 spelling: the order of `SHA256SUMS` and `backup.json`, the same
    /// in every locale (and what `LC_ALL=C sort` gives).
    package static func < (lhs: StoreFilePath, rhs: StoreFilePath) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}

/// One reason a backup or an export cannot be trusted, naming the entry it is about.
public struct ArchiveProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// How the problem counts: for `verify-backup`'s exit status and for restore and import.
    public enum Kind: Sendable, Equatable {
        /// The archive is damaged or hostile: a file is missing, extra, changed, truncated, not a
        /// regular file, not a valid store path, or a document does not decode.
        case corrupt
        /// The archive may be fine, but this tool cannot read it: an unknown archive format
        /// version, or a store schema newer than this tool reads (STORE-FORMAT §4 reader rule).
        case incompatible
    }

    /// Corrupt or incompatible.
    public var kind: Kind
    /// The entry as the archive names it (`sessions/<id>.json`, `backup.json`, `line 7`).
    public var entry: String
    /// What is wrong, as a sentence without the entry name.
    public var message: String
    /// Where in the archive, when the entry name alone does not say (`line 7` of an export).
    public var location: String?

    public init(_ kind: Kind, entry: String, _ message: String, location: String? = nil) {
        self.kind = kind
        self.entry = entry
        self.message = message
        self.location = location
    }

    /// `'sessions/<id>.json': has SHA-256 … but backup.json records …`, or with a location:
    /// `'../x' (line 2): is not a path a store may contain …`.
    public var description: String { "'\(entry)'\(location.map { " (\($0))" } ?? ""): \(message)" }
}
