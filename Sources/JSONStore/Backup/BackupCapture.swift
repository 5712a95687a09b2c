#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The part of a backup that runs under the store's lock: list the store and put every file into
/// the staging folder, as a hard link where possible, else as a copy.
///
/// Why a hard link is a faithful snapshot: the store never changes a file in place. Every write
/// goes to a new temp file that is renamed over the old name (`AtomicFile`, `BatchCommit`), so the
/// inode a backup links to keeps its bytes forever; the store's later writes give the store new
/// inodes and leave the backup's alone. Linking is therefore as good as copying for the
/// snapshot, and it is fast and takes no space. What it does not protect against: a program that
/// edits a store file in place (not the store, not the app), and damage to the disk blocks both
/// names share. `verify-backup` detects the first; use a copy on another disk against the second
/// (`Backup.Options.allowHardLinks = false`, or a destination on another file system).
struct BackupCapture {
    /// One captured file. A copy was already read back and compared with the source bytes.
    struct File: Sendable {
        var path: StoreFilePath
        var linked: Bool
        var size: Int64
    }

    let store: String
    let staging: String
    /// The backup folder the staging folder becomes, for messages.
    let destination: String
    let tryLinks: Bool
    let system: SystemCalls

    /// Puts every store file into `staging`; call it while holding the store's lock.
    ///
    /// - Returns: The files, sorted, and the dot names skipped.
    /// - Throws: `StoreError`: `.notAStore` without `store.json`; `.invalidFileName` naming every
    ///   entry that does not belong in a store (it is reported, never copied silently); the code
    ///   of a failed system call.
    func capture() throws(StoreError) -> (files: [File], skipped: [String]) {
        let scan = try TreeScan.scan(store, system: system)
        guard scan.problems.isEmpty else {
            let list = scan.problems.map(\.description).joined(separator: "; ")
            throw StoreError(.invalidFileName,
                             "Can't back up '\(store)': \(scan.problems.count) entr\(scan.problems.count == 1 ? "y does" : "ies do") "
                                + "not belong in a store: \(list). Move \(scan.problems.count == 1 ? "it" : "them") out of the store and try again.",
                             path: store)
        }
        guard scan.files.contains(where: { $0.kind == .manifest }) else {
            throw StoreError(.notAStore, "Can't back up '\(store)': it has no store.json, so it is not a store. Check the path.",
                             path: store)
        }
        var linking = tryLinks
        var files: [File] = []
        for path in scan.files {
            let source = path.absolute(in: store)
            let target = path.absolute(in: staging)
            if linking {
                switch try link(source, target) {
                case .linked(let size):
                    files.append(File(path: path, linked: true, size: size))
                    continue
                case .notPossible(let always):
                    if always { linking = false }
                }
            }
            let bytes = try FileReader.read(source, system: system)
            try NewFiles.write(target, bytes, sync: false, system: system)  // made durable at once later
            try confirmCopy(path, at: target, equals: bytes)
            files.append(File(path: path, linked: false, size: Int64(bytes.count)))
        }
        return (files, scan.skippedDotNames)
    }

    /// Reads the copy just written back and compares it byte for byte with the source bytes still
    /// in hand: the check that the backup's copy equals the source as captured, without hashing
    /// (the one hash of every file is taken later from the backup's own bytes, `BackupWriter`).
    private func confirmCopy(_ path: StoreFilePath, at target: String, equals source: [UInt8]) throws(StoreError) {
        let copy = try FileReader.read(target, system: system)
        guard sameBytes(copy, source) else {
            throw StoreError(.io, "Can't back up '\(store)': the copy of '\(path)' reads back different from what was written. "
                                + "Check the disk of '\(destination)'.", path: target)
        }
    }

    private enum LinkOutcome {
        case linked(size: Int64)
        /// `always`: no later link can work either (another file system).
        case notPossible(always: Bool)
    }

    /// `link(2)` from the store into the staging folder, after checking that the source is a
    /// regular file (link would happily link a FIFO or, on some systems, follow a symlink).
    private func link(_ source: String, _ target: String) throws(StoreError) -> LinkOutcome {
        let context = ErrorContext("back up", source)
        guard let status = try system.linkStatus(source, context: context) else {
            throw StoreError(.notFound, "Can't back up '\(source)': it disappeared while the store was locked. Try again.",
                             path: source)
        }
        guard status.type == .regular else {
            throw StoreError(.notARegularFile, "Can't back up '\(source)': it is not a regular file. Move it out of the store.",
                             path: source)
        }
        do {
            try system.hardLink(source, to: target, context: context)
            return .linked(size: status.size)
        } catch where error.errno == EXDEV {
            return .notPossible(always: true)
        } catch where [EPERM, EACCES, EMLINK, ENOTSUP, EOPNOTSUPP].contains(error.errno ?? 0) {
            // Linux refuses to link a file the user does not own under fs.protected_hardlinks
            // (EPERM); some file systems cannot link at all. A copy works in both cases.
            return .notPossible(always: error.errno == ENOTSUP || error.errno == EOPNOTSUPP)
        }
    }
}
