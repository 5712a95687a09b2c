extension Store {
    /// Refuses a store whose `sessions/` or `user-sessions/` is a symbolic link or not a folder:
    /// following the link would read documents from, and write temp files and documents to, a
    /// folder outside the store (`O_NOFOLLOW` only guards the last component of a path).
    /// A missing folder is left to the readers, which report it.
    static func checkDocumentFolders(_ path: String, system: SystemCalls) throws(StoreError) {
        for name in TempSweep.subdirectories {
            let folder = joinPath(path, name)
            guard let status = try system.linkStatus(folder, context: ErrorContext("open", folder)) else { continue }
            switch status.type {
            case .directory:
                continue
            case .symbolicLink:
                throw StoreError(.symlinkRefused, "Can't open '\(path)': '\(folder)' is a symbolic link, which the store never follows. "
                                 + "Replace the link with the folder it points to.", path: folder)
            case .regular, .other:
                throw StoreError(.notARegularFile, "Can't open '\(path)': '\(folder)' is not a folder. Move it away and try again.", path: folder)
            }
        }
    }
}
