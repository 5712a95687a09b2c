/// Removes the temp files a crash left behind (`.tmp-<16 hex>-<name>`, see `AtomicFile`), and a
/// migration's exchange folders (`.migration-sessions`, see `StoreMigrator+Exchange`;
/// `.migration-user-sessions`, see `StoreMigrator+Customisations`).
///
/// Runs only when the store is opened for writing, under the lock: a temp file belongs to a write
/// in progress, and only the lock holder writes, so while we hold the lock every temp file is a
/// leftover. Read-only use never sweeps (it never writes at all).
package enum TempSweep {
    /// The folders that receive temp files: the store itself and its document folders, of every
    /// version (`sessions/` up to v4, `work-streams/` from v5; a missing one is skipped).
    static let subdirectories = StoreLayout.everyDocumentFolderName

    /// The folder a migration builds and exchanges with `sessions/` (`StoreMigrator+Exchange`).
    /// Named here, not by the migrator, because every open for writing sweeps a leftover one.
    package static let exchangeFolderName = StoreLayout.Bookkeeping.migrationExchangeFolder
    /// The folder a migration builds and exchanges with `user-sessions/` (`StoreMigrator+Customisations`).
    package static let customisationsExchangeFolderName = StoreLayout.Bookkeeping.migrationCustomisationsExchangeFolder

    /// Removes every leftover temp file in `store`, `store/sessions` and `store/user-sessions`.
    ///
    /// Only regular files whose names match `AtomicFile`'s pattern are removed; a link or folder
    /// with such a name is left alone and never followed. A missing document folder is skipped.
    /// The removals are not fsynced: a temp file that reappears after a power loss is removed by
    /// the next sweep, and readers skip it meanwhile.
    ///
    /// - Parameters:
    ///   - lock: The held lock of this store: proof that no write is in progress.
    ///   - documentFolders: Sweep `sessions/` and `user-sessions/` too. The default is `true`; an
    ///     open whose `WriteRecord` matched passes false: the folders are as this library left
    ///     them, and it leaves no temp file there (listing them is work proportional to the store).
    /// - Returns: The paths removed, sorted.
    /// - Throws: `StoreError` if a folder cannot be listed or a file cannot be removed.
    @discardableResult
    package static func sweep(
        store: String, holding lock: StoreLock, documentFolders: Bool = true,
        system: SystemCalls = .real
    ) throws(StoreError) -> [String] {
        precondition(lock.isHeld && lock.storePath == store, "TempSweep: the store's lock must be held")
        var removed: [String] = []
        for directory in [store] + (documentFolders ? subdirectories.map({ joinPath(store, $0) }) : []) {
            let context = ErrorContext("clean up", directory)
            let entries: [DirectoryEntry]
            do {
                entries = try system.listDirectory(directory, context: context)
            } catch  where error.code == .notFound && directory != store {
                continue
            }
            for entry in entries where isTemporaryName(entry.name) {
                let path = joinPath(directory, entry.name)
                var type = entry.type
                if type == nil { type = try system.linkStatus(path, context: context)?.type }
                guard type == .regular else { continue }
                try system.unlink(path, context: ErrorContext("clean up", path))
                removed.append(path)
            }
        }
        removed += try removeExchangeFolder(store: store, system: system)
        removed += try removeExchangeFolder(store: store, name: customisationsExchangeFolderName, system: system)
        return removed.sorted()
    }

    /// Removes the folder a migration stopped while building or after exchanging (`StoreMigrator
    /// +Exchange`): either links to documents that `sessions/` still holds, or the old `sessions/`
    /// once replaced. Readers never look at it (its name starts with a dot). Only files directly
    /// inside are removed (`unlink` never follows a link); a folder inside is reported, not entered.
    private static func removeExchangeFolder(store: String, name: String = exchangeFolderName, system: SystemCalls) throws(StoreError) -> [String] {
        let folder = joinPath(store, name)
        let context = ErrorContext("clean up", folder)
        guard let status = try system.linkStatus(folder, context: context) else { return [] }
        guard status.type == .directory else {
            try system.unlink(folder, context: context)
            return [folder]
        }
        // It may be the old `sessions/` of an exchange whose fsync failed: make the exchange
        // durable before removing anything from the folder it replaced.
        let storeFD = try AtomicFile.openDirectory(store, system: system, context: context)
        try storeFD.sync(context: context)
        var removed: [String] = []
        for entry in try system.listDirectory(folder, context: context) {
            let path = joinPath(folder, entry.name)
            try system.unlink(path, context: ErrorContext("clean up", path))
            removed.append(path)
        }
        try system.removeDirectory(folder, context: context)
        return removed + [folder]
    }

    /// True for `.tmp-` followed by 16 lowercase hex digits, `-` and a non-empty name.
    package static func isTemporaryName(_ name: String) -> Bool {
        let prefix = AtomicFile.temporaryPrefix.utf8
        let bytes = Array(name.utf8)
        guard bytes.count > prefix.count + 17, bytes.starts(with: prefix) else { return false }
        let hex = bytes[prefix.count..<prefix.count + 16]
        let isHex = hex.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        return isHex && bytes[prefix.count + 16] == UInt8(ascii: "-")
    }
}
