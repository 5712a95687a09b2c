/// What stands at the folder a restore or an import writes to.
public enum TargetState: Sendable, Equatable {
    /// Nothing: the restored store is renamed to this path.
    case absent
    /// An empty folder: the rename replaces it (POSIX rename(2) replaces an empty directory).
    case emptyFolder
    /// A folder with entries: `files` counts the non-dot entries (data: needs `force`), `total`
    /// counts every entry. The folder is moved aside, never deleted.
    case folder(files: Int, total: Int)

    /// True when the old folder must be moved aside.
    var needsAside: Bool {
        if case .folder = self { return true }
        return false
    }

    /// True when replacing it needs `force`: it holds something besides bookkeeping dot names.
    var needsForce: Bool {
        if case .folder(let files, _) = self { return files > 0 }
        return false
    }

    /// Looks at `target` without following a link or opening a file. `verb` names the operation
    /// in messages ("restore", "import"); the default is "restore".
    ///
    /// - Throws: `StoreError` `.symlinkRefused` or `.notARegularFile` when something other than a
    ///   folder stands there (a restore never replaces it), or the code of a failed call.
    static func inspect(_ target: SiblingPath, verb: String = "restore", system: SystemCalls) throws(StoreError) -> TargetState {
        let context = ErrorContext("\(verb) into", target.path)
        guard let status = try system.linkStatus(target.path, context: context) else { return .absent }
        switch status.type {
        case .directory:
            let entries = try system.listDirectory(target.path, context: context)
            if entries.isEmpty { return .emptyFolder }
            return .folder(files: entries.filter { !$0.name.hasPrefix(".") }.count, total: entries.count)
        case .symbolicLink:
            throw StoreError(
                .symlinkRefused,
                "Can't \(verb) into '\(target.path)': it is a symbolic link, which is never "
                    + "replaced or followed. Give the path of the folder itself.", path: target.path)
        case .regular, .other:
            throw StoreError(
                .notARegularFile,
                "Can't \(verb) into '\(target.path)': it is not a folder. Move it away or "
                    + "choose another path.", path: target.path)
        }
    }

    /// The refusal when `needsForce` and force was not given.
    func refusal(_ target: SiblingPath, verb: String, forceHint: String) -> StoreError? {
        guard needsForce, case .folder(let files, _) = self else { return nil }
        return StoreError(
            .alreadyExists,
            "Can't \(verb) into '\(target.path)': it is not empty (\(files) "
                + "entr\(files == 1 ? "y" : "ies")). \(forceHint)", path: target.path)
    }
}
