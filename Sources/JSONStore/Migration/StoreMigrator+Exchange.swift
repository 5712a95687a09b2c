#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Committing the staged work streams by exchanging folders instead of renaming file by file.
///
/// Renaming a temp file over each document frees the old file inside every `rename(2)`; with
/// most documents changed (an upgrade) that was most of a migration's time (Benchmarks/ANALYSIS.md).
/// Instead, a new folder `.migration-sessions` gets every entry of `sessions/`: in an upgrade,
/// staging already wrote each changed document there as `<id>.json`
/// (`StoreMigrator+Staging.swift`); every other entry (an unchanged document, a changed one's
/// temp file when staging wrote beside the documents, any other dot-named file a user or tool put
/// there) is hard-linked in. The folder is made durable and exchanged with `sessions/` in one
/// atomic step (`FolderCommit`). The old folder, now named `.migration-sessions`, is then
/// removed. No data is copied.
///
/// What a reader sees at any instant, even across a power loss: the whole old `sessions/` or the
/// whole new one, never a mix (so the v1 queue order holds without a per-file write order).
/// A crash before the exchange leaves `sessions/` untouched plus dot-named leftovers (the new
/// folder with what was staged and linked so far, and temp files beside the documents when
/// staging wrote there); after it, the old folder. `TempSweep` removes both under the lock, and
/// the next migration finishes (the documents already exchanged are at the target and unchanged).
///
/// Where the file system cannot exchange or link (`EINVAL`, `ENOTSUP`, `EPERM`...), or `sessions/`
/// holds something that is not a regular file, nothing visible has changed and the caller renames
/// file by file instead (out of the new folder, when staging wrote there).
extension StoreMigrator {
    /// The folder a migration builds and exchanges with `sessions/`; a leftover is swept (`TempSweep`).
    package static let exchangeFolderName = TempSweep.exchangeFolderName

    /// Exchanging pays when at least a quarter of the work streams change: it costs a link and an
    /// unlink per work stream (a few µs, no data freed), against a `rename` per changed one that
    /// frees its old file (0.4–0.5 ms each here, on eight threads).
    static func prefersExchange(changed: Int, total: Int) -> Bool {
        changed > 0 && changed * 4 >= total
    }

    enum ExchangeOutcome {
        /// `sessions/` now holds the staged documents; the old folder is at `exchangeFolder`.
        case exchanged
        /// Nothing visible changed, the staged files are where staging wrote them: rename them instead.
        case unsupported
    }

    var exchangeFolder: String { joinPath(store.path, Self.exchangeFolderName) }

    /// The old work-stream folder a folder rename took out of sight (`retireOldFolder`).
    var retiredFolder: String { store.file(StoreLayout.Bookkeeping.retiredWorkStreams) }

    /// Where staging writes `<id>.json` files: the exchange folder, or the folder rename's staging folder.
    var stagingFolder: String { joinPath(store.path, renaming?.stagingFolder ?? Self.exchangeFolderName) }

    /// The folder commit of `sessions/`: staged in `exchangeFolder`, exchanged with `sessions/`.
    var sessionsCommit: FolderCommit { FolderCommit(in: store.path, staging: Self.exchangeFolderName, system: store.system) }

    /// Completes the new folder, makes it durable with the staged files, and exchanges it with
    /// `sessions/`; the caller then makes the exchange durable (`syncStoreFolderAfterExchange`).
    /// On an error, or where unsupported, a new folder this call created is removed; the caller
    /// removes the staged files (with the folder, when staging wrote there).
    ///
    /// `barrier` is the descriptor `run` opened before staging wrote anything (see `makeDurable`).
    func exchangeSessions(_ sessions: StagedList, barrier: borrowing FileDescriptor) throws(StoreError) -> ExchangeOutcome {
        let commit = sessionsCommit
        let folder = commit.staging
        let context = ErrorContext("write", store.workStreamsDirectory)
        var created = false
        do throws(StoreError) {
            guard try linkEveryWorkStream(sessions, into: commit, created: &created) else {
                if created { removeFolder(folder) }
                return .unsupported
            }
            try commit.makeDurable(newFiles: sessions.indices.lazy.compactMap { temporaryPath(sessions, $0) }, barrier: barrier, context: context)
            guard try commit.exchange(with: store.workStreamsDirectory, context: context) else {
                if created { removeFolder(folder) }  // not when staging wrote there: its files are renamed out of it
                return .unsupported
            }
        } catch {
            if created { removeFolder(folder) }
            throw error
        }
        return .exchanged
    }

    /// After `exchangeSessions`: `sessions/` is the new folder, and the old one is at
    /// `exchangeFolder` (with the temp files, when staging wrote beside the documents). If this
    /// fsync fails, the exchange may not be on disk: the old folder must stay (a power loss could
    /// bring it back as `sessions/`), for the sweep, which fsyncs first.
    func syncStoreFolderAfterExchange() throws(StoreError) {
        try sessionsCommit.syncParent(context: ErrorContext("write", store.workStreamsDirectory))
    }

    /// Completes `folder`: creates it with the mode of `sessions/` unless staging did, and links into
    /// it every work stream not staged there (a changed one's temp file under the work stream's
    /// name, an unchanged document as it is) and every other entry of `sessions/` except temp
    /// files. Returns false where links or the entries do not allow it. Paths are made one at a
    /// time, not listed (at 10,000 work streams such lists were megabytes of the peak memory).
    private func linkEveryWorkStream(_ sessions: StagedList, into commit: FolderCommit, created: inout Bool) throws(StoreError) -> Bool {
        let workStreamsDirectory = store.workStreamsDirectory
        let context = ErrorContext("write", commit.staging)
        guard let folderStatus = try store.system.linkStatus(workStreamsDirectory, context: context), folderStatus.type == .directory else { return false }
        // Besides the work streams, only dot-named entries can be there (any other name makes the
        // staging fail). Temp files are ours: the sweep at the start, under the lock, removed any other.
        let others = try store.system.listDirectory(
            workStreamsDirectory, including: { $0.utf8.first == UInt8(ascii: ".") && !TempSweep.isTemporaryName($0) },
            context: ErrorContext("list", workStreamsDirectory))
        if !sessions.stagesInExchangeFolder {
            _ = try commit.createStaging(permissions: folderStatus.permissions, context: context)
            created = true
        }
        for entry in others {
            let source = joinPath(workStreamsDirectory, entry.name)
            var type = entry.type
            if type == nil { type = try store.system.linkStatus(source, context: context)?.type }
            // A folder or link inside sessions/ is not ours to move: rename file by file instead.
            guard type == .regular else { return false }
            guard try commit.link(source, as: entry.name) else { return false }
        }
        for position in sessions.indices {
            let staged = temporaryPath(sessions, position)
            if staged != nil && sessions.stagesInExchangeFolder { continue }  // already there
            let name = Store.documentName(sessions.id(position))
            guard try commit.link(staged ?? joinPath(workStreamsDirectory, name), as: name) else { return false }
        }
        return true
    }

    /// Removes the old `sessions/`, now at `exchangeFolder` (when `sessions`), the old
    /// `user-sessions/`, at `customisationsExchangeFolder` when there is one, and the work-stream
    /// folder a folder rename retired, on several threads.
    /// Nothing a reader sees depends on them, so a failure is not the migration's: whatever is
    /// left (dot-named, never read) is removed by the next sweep (`TempSweep`), under the lock.
    /// For a caller that reports the removal, see `removeOldFolders(progress:)`.
    func removeExchangedFolders(sessions: Bool = true) {
        let folders = (sessions ? [exchangeFolder] : []) + [customisationsExchangeFolder, retiredFolder]
        for folder in folders { removeFolder(folder) }
    }

    /// `removeFolder(_:removed:)` where a failure only leaves a dot-named folder that no reader
    /// looks at and the next sweep removes: a cleanup after an error, or of a staging folder.
    func removeFolder(_ folder: String) {
        do { try removeFolder(folder) { _ in } } catch { return }
    }

    /// The folders a committed migration's exchanges and folder rename left (the old `sessions/`,
    /// `user-sessions/` and retired work-stream folder), with the number of entries in each: what `removeOldFolders` removes.
    func oldFolders() throws(StoreError) -> [(path: String, entries: Int)] {
        var found: [(String, Int)] = []
        for folder in [exchangeFolder, customisationsExchangeFolder, retiredFolder] {
            let context = ErrorContext("remove", folder)
            guard try store.system.linkStatus(folder, context: context)?.type == .directory else { continue }
            var count = 0
            try store.system.visitDirectory(folder, context: context, restart: { count = 0 }) { _, _ in count += 1 }
            found.append((folder, count))
        }
        return found
    }

    /// Removes the folders of `oldFolders()`, telling `progress` `.phase(.removingOldFiles, …)`
    /// once they are counted and after each slice of files. Throws the first failure; what is
    /// left then is dot-named, never read, and removed by the next sweep.
    func removeOldFolders(progress: @escaping (StoreProgress) -> Void) throws(StoreError) {
        let folders = try oldFolders()
        var counter = PhaseCounter(.removingOldFiles, total: folders.reduce(0) { $0 + $1.entries }, report: progress)
        for folder in folders {
            try removeFolder(folder.path) { removed in counter.step(removed) }
        }
    }

    /// Removes every file in `folder`, then the folder (`FolderCommit.removeFlatFolder`), calling
    /// `removed` with each slice's count. A missing folder is not an error; the first failure is thrown.
    func removeFolder(_ folder: String, removed: (Int) -> Void) throws(StoreError) {
        try FolderCommit.removeFlatFolder(folder, system: store.system, removed: removed)
    }
}
