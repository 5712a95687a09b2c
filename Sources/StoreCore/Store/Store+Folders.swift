extension Store {
    /// Refuses a store whose `sessions/` or `user-sessions/` is a symbolic link or not a folder:
    /// following the link would read documents from, and write temp files and documents to, a
    /// folder outside the store (`O_NOFOLLOW` only guards the last component of a path).
    /// A missing folder is left to the readers, which report it.
    ///
    /// - Returns: The names of the document folders that exist.
    @discardableResult
    static func checkDocumentFolders(_ path: String, system: SystemCalls) throws(StoreError) -> Set<String> {
        var present: Set<String> = []
        for name in TempSweep.subdirectories {
            let folder = joinPath(path, name)
            guard let status = try system.linkStatus(folder, context: ErrorContext("open", folder)) else { continue }
            switch status.type {
            case .directory:
                present.insert(name)
            case .symbolicLink:
                throw StoreError(
                    .symlinkRefused,
                    "Can't open '\(path)': '\(folder)' is a symbolic link, which the store never follows. "
                        + "Replace the link with the folder it points to.", path: folder)
            case .regular, .other:
                throw StoreError(.notARegularFile, "Can't open '\(path)': '\(folder)' is not a folder. Move it away and try again.", path: folder)
            }
        }
        return present
    }

    /// Refuses a store whose `store.json` names a folder of work streams that is missing or holds
    /// no work stream while the other layout's folder holds some (a hand-edited or mismatched
    /// manifest; a layout change fills the new folder before `store.json` names it): reading it
    /// would show no work streams, and finishing a "layout change" would delete them all.
    /// When both folders exist, the other one is what an interrupted layout change left; it is
    /// never read, and removed only once `StoreMigrator.leftoverWorkStreams` explains it.
    ///
    /// - Parameter present: The document folders that exist (`checkDocumentFolders`' answer).
    static func checkWorkStreamFolders(_ path: String, layoutVersion: Int, present: Set<String>, system: SystemCalls) throws(StoreError) {
        let expected = StoreLayout.workStreamsFolder(schemaVersion: layoutVersion)
        let other = StoreLayout.otherWorkStreamsFolder(schemaVersion: layoutVersion)
        guard present.contains(other) else { return }
        let missing = !present.contains(expected)
        if !missing, try holdsWorkStream(joinPath(path, expected), system: system) { return }
        let found = try DocumentListing.listDocumentFolder(joinPath(path, other), system: system).ids.count
        guard found > 0 else { return }
        throw layoutContradiction(
            path, layoutVersion: layoutVersion, expected: expected, other: other,
            detail: "'\(expected)/' \(missing ? "is missing" : "holds no work stream") and '\(other)/' holds \(found) work stream file(s)")
    }

    /// True when `folder` holds at least one document file name (lists until the first).
    private static func holdsWorkStream(_ folder: String, system: SystemCalls) throws(StoreError) -> Bool {
        !(try system.listDirectory(folder, limit: 1, including: StoreLayout.isDocumentFileName, context: ErrorContext("open", folder))).isEmpty
    }

    /// The error for a store whose folders `store.json` does not explain (exit 65 in the tool).
    package static func layoutContradiction(_ path: String, layoutVersion: Int, expected: String, other: String, detail: String) -> StoreError {
        let otherVersion = StoreLayout.otherSideOfFolderRename(schemaVersion: layoutVersion)
        let putBack =
            "If '\(other)/' holds the store's work streams, put back the store.json that goes with it (schema version "
            + "\(otherVersion)\(otherVersion < layoutVersion ? " or below" : "")) from a backup, or restore the whole backup"
        let otherwise = "; if it does not, move it out of the store."
        let fix = StoreError.Recovery.runCommand(
            .restore(backup: nil, over: path), advice: putBack + " over the store" + otherwise,
            before: putBack + " with ", after: otherwise)
        let problem =
            "Can't tell which folder holds the work streams of '\(path)': store.json says schema version "
            + "\(layoutVersion), whose work streams are in '\(expected)/', but \(detail)."
        return StoreError(.conflict, text: .init(problem + " Nothing was changed. ", fix), path: joinPath(path, other), recovery: fix)
    }
}
