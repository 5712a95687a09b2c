#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The part of a backup that runs under the store's lock: list the store and put every file into
/// the staging folder as an independent file: a copy-on-write clone where the file system offers
/// one (Btrfs, XFS, APFS: no blocks copied, and a later write to either file leaves the other
/// alone), else a byte copy. Hard links only when asked (`Backup.Options.allowHardLinks`).
///
/// Why links are not the default: the store itself never changes a file in place (every write
/// goes to a new temp file renamed over the old name, `AtomicFile`, `BatchCommit`), so against
/// the store a linked inode keeps its bytes. But anything else that edits a store file in place
/// (an editor that writes in place, a script opening it with `r+`) writes into the backup's
/// inode too, and the backup is damaged: `verify-backup` then reports it, too late. A clone or a
/// copy is its own inode. Against damage to the disk itself keep a backup on another disk.
struct BackupCapture {
    /// How one file reached the staging folder.
    enum Method: Sendable, Equatable {
        /// A hard link to the store's inode (`--link`).
        case linked
        /// A copy-on-write clone: its own inode, sharing blocks until either file changes.
        case cloned
        /// A byte copy.
        case copied
    }

    /// One captured file. A copy was already read back and compared with the source bytes.
    struct File: Sendable {
        var path: StoreFilePath
        var method: Method
        var size: Int64
        /// The source's permission bits (`st_mode & 0o7777`), recorded in `backup.json` so that a
        /// restore gives the file its mode (`RecordedMode`).
        var permissions: mode_t
        /// True for a hard link: the store's own inode, not read back as a copy is.
        var linked: Bool { method == .linked }
    }

    let store: String
    let staging: String
    /// The backup folder the staging folder becomes, for messages.
    let destination: String
    let tryLinks: Bool
    let system: SystemCalls

    /// Puts every store file into `staging`; call it while holding the store's lock.
    ///
    /// - Parameter progress: Told `.phase(.backingUp, …)` once the store is listed and after each file.
    /// - Returns: The files, sorted, and the dot names skipped.
    /// - Throws: `StoreError`: `.notAStore` without `store.json`; `.invalidFileName` naming every
    ///   entry that does not belong in a store (it is reported, never copied silently); the code
    ///   of a failed system call.
    func capture(progress: @escaping (StoreProgress) -> Void = { _ in }) throws(StoreError) -> (files: [File], skipped: [String], folders: [String]) {
        let scan = try TreeScan.scan(store, system: system)
        guard scan.problems.isEmpty else {
            let list = scan.problems.map(\.description).joined(separator: "; ")
            throw StoreError(
                .invalidFileName,
                "Can't back up '\(store)': \(scan.problems.count) entr\(scan.problems.count == 1 ? "y does" : "ies do") "
                    + "not belong in a store: \(list). Move \(scan.problems.count == 1 ? "it" : "them") out of the store and try again.",
                path: store)
        }
        guard scan.files.contains(where: { $0.kind == .manifest }) else {
            if let interrupted = InterruptedRestore.error(store, system: system) { throw interrupted }
            throw StoreError(
                .notAStore, "Can't back up '\(store)': it has no store.json, so it is not a store. Check the path.",
                path: store)
        }
        // Both document folders of the store's version always exist in a backup, even when empty,
        // as in a store (`work-streams/` replaces `sessions/` from v4, spec §11).
        let folders = [scan.workStreamsFolder, StoreLayout.customisationsFolder].sorted()
        for folder in folders { try NewFiles.makeDirectory(joinPath(staging, folder), system: system) }
        var counter = PhaseCounter(.backingUp, total: scan.files.count, report: progress)
        guard let first = scan.files.first else { return ([], scan.skippedDotNames, folders) }
        // The first file tells whether linking and cloning work here at all; the others are then
        // independent of each other and are put into staging on every core (`ParallelBatches`),
        // taken back in path order, so the files, the progress and the first error are those of
        // a loop. (Through a test seam they run one by one, exactly as a loop.)
        let shared = LockedState(Ways(linking: tryLinks, cloning: true))
        var files = [try put(first, ways: shared)]
        counter.step()
        try ParallelBatches.run(
            Array(scan.files.dropFirst()), system: system,
            work: { (path) -> Result<File, StoreError> in
                do throws(StoreError) { return .success(try put(path, ways: shared)) } catch { return .failure(error) }
            },
            consume: { (_, result) throws(StoreError) in
                files.append(try result.get())
                counter.step()
            })
        return (files, scan.skippedDotNames, folders)
    }

    /// Which ways of putting a file into staging may still work: a failure that says no later
    /// file can be linked (another file system) or cloned (no clone support) turns one off.
    private struct Ways: Sendable {
        var linking: Bool
        var cloning: Bool
    }

    /// Puts one store file into staging: a hard link (when linking), else a clone (when cloning)
    /// or a byte copy, read back and compared with the source bytes. `ways` is shared by the
    /// threads: a file started before another turned a way off may still try it, and falls back.
    private func put(_ path: StoreFilePath, ways: LockedState<Ways>) throws(StoreError) -> File {
        let source = path.absolute(in: store)
        let target = path.absolute(in: staging)
        if ways.withLock({ $0.linking }) {
            switch try link(source, target) {
            case .linked(let size, let permissions):
                return File(path: path, method: .linked, size: size, permissions: permissions)
            case .notPossible(let always):
                if always { ways.withLock { $0.linking = false } }
            }
        }
        let (bytes, permissions) = try FileReader.readWithPermissions(source, system: system)
        var method = Method.copied
        if ways.withLock({ $0.cloning }) {
            switch try clone(source, target) {
            case .cloned: method = .cloned
            case .notPossible(let always): if always { ways.withLock { $0.cloning = false } }
            }
        }
        // Made durable at once later, with every other file of the backup.
        if method == .copied { try NewFiles.write(target, bytes, sync: false, system: system) }
        try confirmCopy(path, at: target, equals: bytes)
        return File(path: path, method: method, size: Int64(bytes.count), permissions: permissions)
    }

    private enum CloneOutcome {
        case cloned
        /// `always`: no later clone can work either (the file system cannot clone).
        case notPossible(always: Bool)
    }

    /// A copy-on-write clone of `source` at `target` (`SystemCalls.cloneFile`). The source was
    /// just read as a regular file under the store's lock; the clone is read back and compared
    /// with those bytes like a copy.
    private func clone(_ source: String, _ target: String) throws(StoreError) -> CloneOutcome {
        do {
            try system.cloneFile(source, to: target, context: ErrorContext("back up", source))
            return .cloned
        } catch {
            let outcome = SystemCalls.cloneUnsupported(error.errno)
            guard outcome.unsupported else { throw error }
            return .notPossible(always: outcome.always)
        }
    }

    /// Reads the copy just written back and compares it byte for byte with the source bytes still
    /// in hand: the check that the backup's copy equals the source as captured, without hashing
    /// (the one hash of every file is taken later from the backup's own bytes, `BackupWriter`).
    private func confirmCopy(_ path: StoreFilePath, at target: String, equals source: [UInt8]) throws(StoreError) {
        let copy = try FileReader.read(target, system: system)
        guard sameBytes(copy, source) else {
            throw StoreError(
                .io,
                "Can't back up '\(store)': the copy of '\(path)' reads back different from what was written. "
                    + "Check the disk of '\(destination)'.", path: target)
        }
    }

    private enum LinkOutcome {
        case linked(size: Int64, permissions: mode_t)
        /// `always`: no later link can work either (another file system).
        case notPossible(always: Bool)
    }

    /// `link(2)` from the store into the staging folder, after checking that the source is a
    /// regular file (link would happily link a FIFO or, on some systems, follow a symlink).
    private func link(_ source: String, _ target: String) throws(StoreError) -> LinkOutcome {
        let context = ErrorContext("back up", source)
        guard let status = try system.linkStatus(source, context: context) else {
            throw StoreError(
                .notFound, "Can't back up '\(source)': it disappeared while the store was locked. Try again.",
                path: source)
        }
        guard status.type == .regular else {
            throw StoreError(
                .notARegularFile, "Can't back up '\(source)': it is not a regular file. Move it out of the store.",
                path: source)
        }
        do {
            try system.hardLink(source, to: target, context: context)
            return .linked(size: status.size, permissions: status.permissions)
        } catch  where error.errno == EXDEV {
            return .notPossible(always: true)
        } catch  where [EPERM, EACCES, EMLINK, ENOTSUP, EOPNOTSUPP].contains(error.errno ?? 0) {
            // Linux refuses to link a file the user does not own under fs.protected_hardlinks
            // (EPERM); some file systems cannot link at all. A copy works in both cases.
            return .notPossible(always: error.errno == ENOTSUP || error.errno == EOPNOTSUPP)
        }
    }
}
