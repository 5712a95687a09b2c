#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Committing the customisations (`user-sessions/`) of a migration the way the work streams are
/// committed: by exchanging folders (`FolderCommit`), not by a rename per file.
///
/// An upgrade changes every customisation (its `schema_version`). Renaming a temp file over each
/// frees the old file inside the `rename(2)`; committed in batches of 256 with a `syncfs` each,
/// that is a fifth of a 10,000-work-stream migration's time. Instead:
/// 1. Every entry of `user-sessions/` is checked: only regular files (documents, or a dot-named
///    file a user or tool put there) can be linked; anything else (a folder, a link) and nothing
///    visible has changed: the caller commits file by file (`BatchCommit`).
/// 2. A new folder `.migration-user-sessions` with the mode of `user-sessions/`.
/// 3. Each changed document is written into it under its own name (mode kept), encoded just
///    before it is written, on several threads (`ParallelFileOperations`): nothing is kept but
///    the list of changed documents (goal 5 of `Benchmarks/`: holding every customisation's
///    encoded bytes until the exchange would be most of a migration's peak heap). Every other
///    entry is hard-linked in.
/// 4. One durability barrier: `syncfs` (or an fsync of each new file, the new folder and the
///    store folder where it is not available).
/// 5. `renameat2(RENAME_EXCHANGE)` swaps the new folder and `user-sessions/`; the store folder is
///    fsynced (rename is durable only once its directory entry is, man 2 fsync).
/// 6. The old folder, now `.migration-user-sessions`, is removed once the migration is committed,
///    before the call returns (`StoreUpgrade` reports it as `.removingOldFiles`).
///
/// What a reader sees at any instant, even across a power loss: the whole old `user-sessions/`
/// or the whole new one (readers ignore dot names). A crash before the exchange leaves the new
/// folder; after it, the old folder: `TempSweep` removes either under the lock, and the next
/// migration finishes (the customisations already exchanged are at the target and unchanged).
extension StoreMigrator {
    /// The folder a migration builds and exchanges with `user-sessions/`; a leftover is swept (`TempSweep`).
    package static let customisationsExchangeFolderName = TempSweep.customisationsExchangeFolderName

    var customisationsExchangeFolder: String { joinPath(store.path, Self.customisationsExchangeFolderName) }

    /// Exchanging pays from a few dozen changed customisations on (below, a batch's renames are cheap).
    static let customisationsExchangeMinimum = 32

    /// Commits `changed` (the customisations at their new version, each encoded when written) by
    /// exchanging folders. Returns false, with nothing visible changed and nothing left behind,
    /// where the folder's entries or the file system do not allow it: the caller commits file by file.
    /// - Throws: `StoreError` of a failed write; the new folder is removed,
    ///   `user-sessions/` is unchanged.
    func exchangeCustomisations(_ changed: [Customisation]) throws(StoreError) -> Bool {
        let directory = store.customisationsDirectory
        let commit = FolderCommit(in: store.path, staging: Self.customisationsExchangeFolderName, system: store.system)
        let context = ErrorContext("write", directory)
        guard let folderStatus = try store.system.linkStatus(directory, context: context), folderStatus.type == .directory else { return false }
        // 1. Only regular files can be linked. Temp files are not carried over: the sweep at the
        // start of the migration, under the lock, removed every leftover.
        var entries: [String] = []
        for entry in try store.system.listDirectory(directory, context: ErrorContext("list", directory)) where !TempSweep.isTemporaryName(entry.name) {
            var type = entry.type
            if type == nil { type = try store.system.linkStatus(joinPath(directory, entry.name), context: context)?.type }
            guard type == .regular else { return false }
            entries.append(entry.name)
        }
        // Sorted, so that the entries a changed document replaces are found by binary search
        // (a flag each, not a set of names).
        entries.sort()
        var replaced = [Bool](repeating: false, count: entries.count)
        for document in changed {
            if let index = Self.binarySearch(entries, Store.documentName(document.id)) { replaced[index] = true }
        }
        var created = false
        do throws(StoreError) {
            // 2. The new folder.
            let fd = try commit.createStaging(permissions: folderStatus.permissions, context: context)
            created = true
            // 3. The changed documents, not yet durable, each encoded only as it is written; then
            // a link for every other entry.
            if let failure = ParallelFileOperations.run(
                count: changed.count, system: store.system,
                operation: { [self] (index) throws(StoreError) in
                    try writeCustomisation(changed[index], into: commit.staging)
                })
            {
                throw failure.error
            }
            for (index, name) in entries.enumerated() where !replaced[index] {
                guard try commit.link(joinPath(directory, name), as: name) else {
                    removeFolder(commit.staging)
                    return false
                }
            }
            entries = []
            replaced = []
            // 4. One barrier for the new files, their links and the new folder.
            try commit.makeDurable(newFiles: changed.lazy.map { joinPath(commit.staging, Store.documentName($0.id)) }, through: fd, context: context)
            // 5. The exchange.
            guard try commit.exchange(with: directory, context: context) else {
                removeFolder(commit.staging)
                return false
            }
        } catch {
            if created { removeFolder(commit.staging) }
            throw error
        }
        // `user-sessions/` is the new folder now; if this fsync fails, the exchange may not be on
        // disk: the old folder stays for the sweep, which fsyncs the store folder first.
        try commit.syncParent(context: context)
        return true
    }

    /// Step 3 for one document: `<id>.json` in the new folder, written and closed, with the mode
    /// of the document it replaces.
    private func writeCustomisation(_ document: Customisation, into folder: String) throws(StoreError) {
        let name = Store.documentName(document.id)
        let path = joinPath(store.customisationsDirectory, name)
        var fileContext = ErrorContext("write", path)
        let mode = try AtomicFile.intendedMode(of: path, newFileMode: 0o600, system: store.system, context: &fileContext)
        try NewFiles.write(joinPath(folder, name), document.encoded, sync: false, mode: mode, system: store.system, context: fileContext)
    }

    /// The index of `name` in the sorted `names`, if it is there.
    private static func binarySearch(_ names: [String], _ name: String) -> Int? {
        var low = 0, high = names.count
        while low < high {
            let middle = (low + high) / 2
            if names[middle] < name { low = middle + 1 } else { high = middle }
        }
        return low < names.count && names[low] == name ? low : nil
    }
}

extension StoreMigrator {
    /// Commits the changed customisations (at their new version, in id order): by exchanging
    /// folders when there are at least `customisationsExchangeThreshold` and the folder allows it,
    /// otherwise in batches of `smallDocumentBatch` (`BatchCommit`), each batch encoded only when
    /// it is committed. Returns the last, uncommitted batch (at most `smallDocumentBatch - 1`
    /// files), for the caller to commit with the settings.
    func commitCustomisations(_ changed: [Customisation]) throws(StoreError) -> [FileChange] {
        if changed.count >= max(1, customisationsExchangeThreshold), try exchangeCustomisations(changed) {
            return []
        }
        var start = 0
        while changed.count - start >= Self.smallDocumentBatch {
            try BatchCommit.commit(customisationChanges(changed[start..<start + Self.smallDocumentBatch]), system: store.system)
            start += Self.smallDocumentBatch
        }
        return customisationChanges(changed[start...])
    }

    private func customisationChanges(_ documents: ArraySlice<Customisation>) -> [FileChange] {
        documents.map { FileChange(directory: store.customisationsDirectory, name: Store.documentName($0.id), bytes: $0.encoded) }
    }
}
