#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Committing the customisations (`user-sessions/`) of a migration the way the work streams are
/// committed: by exchanging folders (`StoreMigrator+Exchange.swift`), not by a rename per file.
///
/// An upgrade changes every customisation (its `schema_version`). Renaming a temp file over each
/// frees the old file inside the `rename(2)`; committed in batches of 256 with a `syncfs` each,
/// that was 20 % of a 10,000-work-stream migration (3,177 customisations, 12 `syncfs` calls;
/// issue 19). Instead:
/// 1. Every entry of `user-sessions/` is checked: only regular files (documents, or a dot-named
///    file a user or tool put there) can be linked; anything else (a folder, a link) and nothing
///    visible has changed: the caller commits file by file (`BatchCommit`).
/// 2. A temp file `.tmp-<hex>-<name>` is written beside each changed document (mode kept), each
///    encoded just before it is written: only the temp file's 8-byte token is kept (goal 5 of
///    `Benchmarks/`: holding every customisation's encoded bytes until the exchange was 13 MB of
///    a 10,000-work-stream migration's 16 MB heap peak, massif).
/// 3. A new folder `.migration-user-sessions` with the mode of `user-sessions/` gets a hard link to
///    every entry: the temp file for a changed document, the document itself otherwise.
/// 4. One durability barrier: `syncfs` (or an fsync of each temp file, the new folder and the
///    store folder where it is not available).
/// 5. `renameat2(RENAME_EXCHANGE)` swaps the new folder and `user-sessions/`; the store folder is
///    fsynced (rename is durable only once its directory entry is, man 2 fsync).
/// 6. The old folder, now `.migration-user-sessions`, is removed after the migration is reported
///    (in the background by the command-line tool, `MigrationCleanup`).
///
/// What a reader sees at any instant, even across a power loss: the whole old `user-sessions/`
/// or the whole new one (readers ignore dot names). A crash before the exchange leaves temp files
/// and the new folder; after it, the old folder: `TempSweep` removes both under the lock, and the
/// next migration finishes (the customisations already exchanged are at the target and unchanged).
extension StoreMigrator {
    /// The folder a migration builds and exchanges with `user-sessions/`; a leftover is swept (`TempSweep`).
    package static let customisationsExchangeFolderName = TempSweep.customisationsExchangeFolderName

    var customisationsExchangeFolder: String { joinPath(store.path, Self.customisationsExchangeFolderName) }

    /// Exchanging pays from a few dozen changed customisations on (below, a batch's renames are cheap).
    static let customisationsExchangeMinimum = 32

    /// Commits `changed` (the customisations at their new version, each encoded when written) by
    /// exchanging folders. Returns false, with nothing visible changed and nothing left behind,
    /// where the folder's entries or the file system do not allow it: the caller commits file by file.
    /// - Throws: `StoreError` of a failed write; the temp files and the new folder are removed,
    ///   `user-sessions/` is unchanged.
    func exchangeCustomisations(_ changed: [UserSessionV1]) throws(StoreError) -> Bool {
        let directory = store.userSessionsDirectory
        let folder = customisationsExchangeFolder
        let context = ErrorContext("write", directory)
        guard let folderStatus = try store.system.linkStatus(directory, context: context), folderStatus.type == .directory else { return false }
        // 1. Only regular files can be linked. Temp files are not carried over: the sweep at the
        // start of the migration, under the lock, removed every leftover, and ours are linked by name.
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
        var tokens: [UInt64] = []  // changed[i]'s temp file is `.tmp-<tokens[i]>-<name>`
        tokens.reserveCapacity(changed.count)
        var created = false
        do throws(StoreError) {
            // 2. The temp files, not yet durable, each document encoded only as it is written.
            for document in changed {
                tokens.append(try writeCustomisationTemporary(document))
            }
            // 3. The new folder, one link per entry.
            try store.system.makeDirectory(folder, mode: 0o700, context: context)
            created = true
            let fd = try FileDescriptor(opening: folder, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, system: store.system, context: context)
            try fd.setPermissions(folderStatus.permissions, context: context)
            for (document, token) in zip(changed, tokens) {
                let name = Store.documentName(document.id)
                if let index = Self.binarySearch(entries, name) { replaced[index] = true }
                guard try linkForExchange(customisationTemporary(name, token), to: joinPath(folder, name)) else {
                    discardCustomisationsExchange(changed, tokens, created: created)
                    return false
                }
            }
            for (index, name) in entries.enumerated() where !replaced[index] {
                guard try linkForExchange(joinPath(directory, name), to: joinPath(folder, name)) else {
                    discardCustomisationsExchange(changed, tokens, created: created)
                    return false
                }
            }
            entries = []
            replaced = []
            // 4. One barrier for the temp files, their links and the new folder.
            if !(try fd.syncFileSystem(context: context)) {
                for (document, token) in zip(changed, tokens) {
                    let path = customisationTemporary(Store.documentName(document.id), token)
                    let fileContext = ErrorContext("write", path)
                    try FileDescriptor(opening: path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW, system: store.system, context: fileContext)
                        .sync(context: fileContext)
                }
                try fd.sync(context: context)
                try AtomicFile.openDirectory(store.path, system: store.system, context: context).sync(context: context)
            }
            // 5. The exchange.
            guard try store.system.exchange(folder, directory, context: context) else {
                discardCustomisationsExchange(changed, tokens, created: created)
                return false
            }
        } catch {
            discardCustomisationsExchange(changed, tokens, created: created)
            throw error
        }
        // `user-sessions/` is the new folder now; if this fsync fails, the exchange may not be on
        // disk: the old folder stays for the sweep, which fsyncs the store folder first.
        try AtomicFile.openDirectory(store.path, system: store.system, context: context).sync(context: context)
        return true
    }

    /// Step 2 for one document: its temp file in `user-sessions/`, written and closed; returns its token.
    private func writeCustomisationTemporary(_ document: UserSessionV1) throws(StoreError) -> UInt64 {
        let directory = store.userSessionsDirectory, name = Store.documentName(document.id)
        let path = joinPath(directory, name)
        var fileContext = ErrorContext("write", path)
        let mode = try AtomicFile.intendedMode(of: path, newFileMode: 0o600, system: store.system, context: &fileContext)
        let file = try AtomicFile.writeUnsynced(directory: directory, name: name, bytes: document.encoded, mode: mode,
                                                system: store.system, context: fileContext)
        let temporary = file.path, token = file.token
        // close can report a deferred write error (NFS does); the content is not trusted then.
        do { try file.descriptor.close(context: fileContext) } catch {
            store.system.removeLeftover(temporary)
            throw error
        }
        return token
    }

    /// The path of the temp file with `token` for the customisation `name`.
    private func customisationTemporary(_ name: String, _ token: UInt64) -> String {
        joinPath(store.userSessionsDirectory, AtomicFile.temporaryName(for: name, token: token))
    }

    /// Before the exchange: removes the temp files written so far (one per token, in the order of
    /// `changed`) and the new folder (nothing a reader sees).
    private func discardCustomisationsExchange(_ changed: [UserSessionV1], _ tokens: [UInt64], created: Bool) {
        for (document, token) in zip(changed, tokens) {
            store.system.removeLeftover(customisationTemporary(Store.documentName(document.id), token))
        }
        if created { removeFolder(customisationsExchangeFolder) }
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

    /// A hard link; false on a file system without them (or at a limit), where the caller renames instead.
    private func linkForExchange(_ source: String, to target: String) throws(StoreError) -> Bool {
        do {
            try store.system.hardLink(source, to: target, context: ErrorContext("write", target))
            return true
        } catch where [EPERM, EXDEV, EMLINK, ENOTSUP, EOPNOTSUPP, ENOSYS].contains(error.errno ?? 0) {
            return false
        }
    }
}

extension StoreMigrator {
    /// Commits the changed customisations (at their new version, in id order): by exchanging
    /// folders when there are at least `customisationsExchangeThreshold` and the folder allows it,
    /// otherwise in batches of `smallDocumentBatch` (`BatchCommit`), each batch encoded only when
    /// it is committed. Returns the last, uncommitted batch (at most `smallDocumentBatch - 1`
    /// files), for the caller to commit with the settings.
    func commitCustomisations(_ changed: [UserSessionV1]) throws(StoreError) -> [FileChange] {
        if changed.count >= max(1, customisationsExchangeThreshold), try exchangeCustomisations(changed) {
            return []
        }
        var start = 0
        while changed.count - start >= Self.smallDocumentBatch {
            try BatchCommit.commit(customisationChanges(changed[start ..< start + Self.smallDocumentBatch]), system: store.system)
            start += Self.smallDocumentBatch
        }
        return customisationChanges(changed[start...])
    }

    private func customisationChanges(_ documents: ArraySlice<UserSessionV1>) -> [FileChange] {
        documents.map { FileChange(directory: store.userSessionsDirectory, name: Store.documentName($0.id), bytes: $0.encoded) }
    }
}
