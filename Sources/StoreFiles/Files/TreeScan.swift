import Schema

/// Lists the documents of a store folder, or of a backup folder (which has the store's layout
/// plus `backup.json` and `SHA256SUMS`), and reports every entry that does not belong there.
///
/// Nothing is opened or followed: types come from `d_type` or `lstat`. Names starting with a dot
/// are bookkeeping (lock file, temp files, journals, Finder's `.DS_Store`): they are skipped and
/// never copied (STORE-FORMAT §1). Every other entry that is not one of the spec's paths as a
/// regular file is a problem, reported by its relative path; none hides another. A backup or
/// export never silently leaves a file out.
package struct TreeScan: Sendable, Equatable {
    /// The regular files with valid store paths, sorted.
    package var files: [StoreFilePath] = []
    /// The extra top-level names asked for (`backup.json`, `SHA256SUMS`) that exist as regular files.
    package var extras: Set<String> = []
    /// Every entry that does not belong, sorted by entry.
    package var problems: [ArchiveProblem] = []
    /// Skipped dot names, as relative paths, sorted.
    package var skippedDotNames: [String] = []
    /// The work-stream folder of the other side of the v4 ↔ v5 layout change (spec §12) that an
    /// interrupted `migrate` left in a store of v4 or later: never read, never copied.
    var leftOutFolder: String?
    /// The work-stream folder of the scanned store: `sessions`, or `work-streams` when it is there
    /// and `store.json` says v5 or later (spec §12).
    package var workStreamsFolder = StoreLayout.workStreamsFolder
    /// The document folders met at the top (of either schema side), before `leftOutFolder` is chosen.
    private var seenFolders: Set<String> = []

    /// Scans `root`.
    ///
    /// - Parameters:
    ///   - root: The store or backup folder. It must exist and be a real folder.
    ///   - extraFiles: Top-level file names allowed besides the store's (the backup's own files).
    /// - Throws: `StoreError` when a folder cannot be listed for a reason other than a problem
    ///   with an entry (`.notFound` for a missing `root`, `.permissionDenied`, `.io`).
    package static func scan(_ root: String, extraFiles: Set<String> = [], system: SystemCalls = .real) throws(StoreError) -> TreeScan {
        var scan = TreeScan()
        let context = ErrorContext("list", root)
        for entry in try system.listDirectory(root, context: context) {
            let name = entry.name
            if name.hasPrefix(".") {
                scan.skippedDotNames.append(name)
                continue
            }
            let path = joinPath(root, name)
            var type = entry.type
            if type == nil { type = try system.linkStatus(path, context: context)?.type }
            guard let type else { continue }  // removed between readdir and lstat
            if StoreFilePath.topLevelNames[name] != nil || extraFiles.contains(name) {
                guard type == .regular else {
                    scan.problems.append(Self.notRegular(name, type))
                    continue
                }
                if let file = StoreFilePath(name) { scan.files.append(file) } else { scan.extras.insert(name) }
            } else if StoreFilePath.folderNames[name] != nil {
                scan.seenFolders.insert(name)
                guard type == .directory else {
                    scan.problems.append(ArchiveProblem(.corrupt, entry: name, "is \(Self.describe(type)), not a folder"))
                    continue
                }
                try scan.addFolder(name, in: root, system: system)
            } else {
                scan.problems.append(
                    ArchiveProblem(
                        .corrupt, entry: name,
                        "is not part of a store (STORE-FORMAT §1 allows only store.json, "
                            + "settings.json, queue.json, sessions/ and user-sessions/)"))
            }
        }
        try scan.leaveOutOtherWorkStreamsFolder(root, system: system)
        scan.files.sort()
        scan.problems.sort { $0.entry.utf8.lexicographicallyPrecedes($1.entry.utf8) }
        scan.skippedDotNames.sort()
        return scan
    }

    /// Drops the work-stream folder that `store.json`'s version does not use (spec §12): in a store
    /// of v4 or later it is the leftover of an interrupted layout change (`leftOutFolder`); in an
    /// older one, or when `store.json` does not read, `work-streams/` is not part of a store.
    ///
    /// `store.json` is read only when `work-streams/` is there: without it, `sessions/` is the
    /// store's folder whatever its version (v5 without `work-streams/` has no work streams to lose).
    private mutating func leaveOutOtherWorkStreamsFolder(_ root: String, system: SystemCalls) throws(StoreError) {
        guard seenFolders.contains(StoreLayout.renamedWorkStreamsFolder) else { return }
        try Self.requireKnownLayout(root, system: system)
        let version = Self.schemaVersion(of: root, system: system)
        workStreamsFolder = StoreLayout.workStreamsFolder(schemaVersion: version ?? 1)
        let other = StoreLayout.otherWorkStreamsFolder(schemaVersion: version ?? 1)
        let inside = { (entry: String) in entry == other || entry.hasPrefix(other + "/") }
        guard
            files.contains(where: { $0.folder == other }) || problems.contains(where: { inside($0.entry) })
                || skippedDotNames.contains(where: inside) || seenFolders.contains(other)
        else { return }
        files.removeAll { $0.folder == other }
        problems.removeAll { inside($0.entry) }
        skippedDotNames.removeAll(where: inside)
        if let version, version >= DocumentVersion.current {
            leftOutFolder = other
        } else {
            problems.append(
                ArchiveProblem(
                    .corrupt, entry: other,
                    "is not part of a store (STORE-FORMAT §1 allows only store.json, "
                        + "settings.json, queue.json, sessions/ and user-sessions/)"))
        }
    }

    /// The `schema_version` of `root/store.json`, or nil when it does not read. An unreadable or
    /// absent `store.json` is reported by whoever reads it next (backup, export and verification
    /// all decode it); here it only means "not the v5 layout".
    /// The version whose layout `store.json` implies (`StoreCompatibility.layoutVersion`: for a
    /// newer store that admits this code, its `min_reader_version`), or nil when it does not read.
    static func schemaVersion(of root: String, system: SystemCalls) -> Int? {
        do {
            let bytes = try FileReader.read(joinPath(root, StoreLayout.manifest), system: system)
            return try ManifestHeader(json: try DocumentVersion.parse(bytes)).compatibility().layoutVersion
        } catch {
            return nil
        }
    }

    /// Refuses a store with a `work-streams/` folder that the reader rule refuses (a newer one, or
    /// the pre-release v4 layout, spec §11): which folder holds its work streams is not this
    /// code's to say, and leaving one out would lose them.
    package static func requireKnownLayout(_ root: String, system: SystemCalls) throws(StoreError) {
        let folder = joinPath(root, StoreLayout.renamedWorkStreamsFolder)
        guard try system.linkStatus(folder, context: ErrorContext("read", folder)) != nil, let refusal = refusal(of: root, system: system) else {
            return
        }
        throw StoreError(
            .unsupportedVersion, "Can't tell which folder holds the work streams of '\(root)': \(refusal).",
            path: joinPath(root, StoreLayout.manifest))
    }

    /// What the reader rule says against `root/store.json`, or nil (also when it does not read).
    static func refusal(of root: String, system: SystemCalls) -> String? {
        do {
            let bytes = try FileReader.read(joinPath(root, StoreLayout.manifest), system: system)
            return try ManifestHeader(json: try DocumentVersion.parse(bytes)).compatibility().refusal
        } catch {
            return nil
        }
    }

    /// Adds the documents of `sessions/` or `user-sessions/` and the problems of its other entries.
    private mutating func addFolder(_ folder: String, in root: String, system: SystemCalls) throws(StoreError) {
        let listing = try DocumentListing.list(joinPath(root, folder), system: system)
        for id in listing.ids {
            guard let file = StoreFilePath(folder + "/" + id.fileName) else {
                preconditionFailure("TreeScan: DocumentListing returned an invalid name '\(id.fileName)'")
            }
            files.append(file)
        }
        for invalid in listing.invalid {
            let entry = folder + "/" + invalid.name
            switch invalid.problem {
            case .invalidName:
                problems.append(
                    ArchiveProblem(
                        .corrupt, entry: entry, "is not a valid document name: only a lowercase UUID followed by '.json' is allowed"))
            case .notARegularFile(let type):
                problems.append(Self.notRegular(entry, type))
            }
        }
        skippedDotNames += listing.skippedDotNames.map { folder + "/" + $0 }
    }

    private static func notRegular(_ entry: String, _ type: FileType) -> ArchiveProblem {
        ArchiveProblem(.corrupt, entry: entry, "is \(describe(type)), not a regular file; it is never read or followed")
    }

    /// "a symbolic link", "a folder", "a special file (FIFO, socket or device)".
    static func describe(_ type: FileType) -> String {
        switch type {
        case .symbolicLink: "a symbolic link"
        case .directory: "a folder"
        case .regular: "a regular file"
        case .other: "a special file (FIFO, socket or device)"
        }
    }
}
