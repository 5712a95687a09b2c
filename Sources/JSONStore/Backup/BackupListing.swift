import Foundation
import StoreJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The backups found beside a store: what `Backup.list(besides:)` returns.
public struct BackupListing: Sendable, Equatable {
    /// The store path, as given.
    public var store: String
    /// The identity of the store's `store.json`; nil when it does not read (the store is gone,
    /// or its `store.json` is damaged): then no backup can be shown to be of this store.
    public var storeIdentity: StoreIdentity?
    /// The backups, oldest first (see `ListedBackup.date`).
    public var backups: [ListedBackup]
    /// Folders an interrupted `Backup.prune` renamed but did not finish removing
    /// (`.<store>.backup-<time>.removing-<16 hex>`): the next prune removes them.
    public var interruptedRemovals: [String]

    /// The disk space every listed backup takes, in bytes.
    public var totalBytesOnDisk: Int64 { backups.reduce(0) { $0 + $1.bytesOnDisk } }
}

/// One folder `Backup.list(besides:)` found beside a store.
public struct ListedBackup: Sendable, Equatable {
    /// What `backup.json` says, when it reads.
    public struct Summary: Sendable, Equatable {
        /// `created_at`: when the backup was taken (RFC 3339, UTC).
        public var createdAt: String
        /// The `schema_version` of the store the backup holds.
        public var storeSchemaVersion: Int
        /// How many store files the backup lists.
        public var files: Int
        /// The total size of those files, in bytes.
        public var bytes: Int64
        /// The version of the tool that took it.
        public var toolVersion: String
        /// The identity of the store it was taken from; nil in a backup made before it was recorded.
        public var storeIdentity: StoreIdentity?
    }

    /// Which store a backup is of, as far as its `backup.json` and the store's `store.json` tell.
    public enum Origin: Sendable, Equatable {
        /// `backup.json` records the identity of the store's `store.json`.
        case thisStore
        /// `backup.json` records no identity: a backup made before identities were recorded.
        case unrecorded
        /// `backup.json` records another store's identity (the store was replaced since, or the
        /// folder was copied here from elsewhere).
        case otherStore(StoreIdentity)
        /// Unknown: `backup.json` does not read, or the store's `store.json` does not.
        case unknown
    }

    /// The folder's path: the store's parent folder joined with `name`.
    public var path: String
    /// The folder's name.
    public var name: String
    /// True for the name `Backup.defaultDestination` gives: `<store>.backup-<yyyyMMdd'T'HHmmss'Z'>`.
    public var isDefaultNamed: Bool
    /// What `backup.json` says; nil when it does not read (see `manifestProblem`).
    public var summary: Summary?
    /// Why `backup.json` does not read (missing, not valid, a newer format); nil when it reads.
    public var manifestProblem: String?
    /// Which store the backup is of.
    public var origin: Origin
    /// The disk space the folder takes: allocated blocks of the folder and everything in it, a
    /// file with several names in it counted once (what `du -s -B1` prints). A file shared with
    /// the store (a backup taken with `--link`) or a copy-on-write clone is counted in full.
    public var bytesOnDisk: Int64
    /// Store files `backup.json` lists that are absent from the folder or have another size:
    /// 0 for a complete backup. Only sizes are compared; `verify-backup` checks every byte.
    public var mismatchedFiles: Int
    /// Why the folder could not be measured (a folder in it that does not list); nil when it was.
    public var measureProblem: String?

    /// When the backup was taken: `backup.json`'s `created_at`; for a folder whose `backup.json`
    /// does not read, the time in its default name; nil when neither is there.
    public var date: Date? {
        if let summary { return RFC3339.parse(summary.createdAt) }
        return isDefaultNamed ? Backup.date(inDefaultName: name) : nil
    }

    /// True when `backup.json` reads and every store file it lists is there with its size.
    public var isComplete: Bool { summary != nil && mismatchedFiles == 0 && measureProblem == nil }

    /// Why `Backup.prune` never removes this folder; nil when it may (default-named, a complete
    /// backup whose `backup.json` records this store's identity).
    public var keptBecause: String? {
        if !isDefaultNamed { return "its name is not one migrate gives (only '<store>.backup-<time>' folders are pruned)" }
        if let manifestProblem { return "its backup.json does not read (\(manifestProblem))" }
        if let measureProblem { return "it could not be measured (\(measureProblem))" }
        switch origin {
        case .thisStore: break
        case .unrecorded: return "its backup.json does not record which store it is of"
        case .otherStore(let identity): return "its backup.json names another store (\(identity.phrase))"
        case .unknown: return "the store's store.json does not read, so the backup can't be shown to be of this store"
        }
        if mismatchedFiles == 1 { return "it is incomplete: 1 of its files is missing or has another size" }
        if mismatchedFiles > 1 { return "it is incomplete: \(mismatchedFiles) of its files are missing or have another size" }
        return nil
    }
}

extension Backup {
    /// Lists the backups beside `store`: in the store's parent folder, every folder named
    /// `<store>.backup-*` (the default names `migrate` gives, and names that only look like
    /// them), and every other folder whose `backup.json` records this store's identity. Dot
    /// names (staging folders of backups being taken) are not listed. Backups made elsewhere
    /// (`migrate --backup-dir`, `backup <store> <dest>` into another folder) are not found.
    ///
    /// Reads only: each candidate's `backup.json`, and the sizes of its files. A folder named like
    /// a backup whose `backup.json` does not read is listed, with the reason.
    ///
    /// ```swift
    /// let listing = try Backup.list(besides: "/data/store")
    /// for backup in listing.backups { print(backup.name, backup.summary?.createdAt ?? "?", backup.bytesOnDisk) }
    /// ```
    ///
    /// - Parameter store: The store folder; it need not exist (the backups of a lost store are listed).
    /// - Returns: The backups, oldest first; those without a time last, by name.
    /// - Throws: `StoreError`: `.invalidFileName` for a path without a last component (`/`);
    ///   the code of the failed system call when the parent folder does not list.
    public static func list(besides store: String) throws(StoreError) -> BackupListing {
        try list(besides: store, system: .real)
    }

    static func list(besides store: String, system: SystemCalls) throws(StoreError) -> BackupListing {
        let target = try SiblingPath(store)
        let identity = storeIdentity(of: target.path, system: system)
        let entries = try system.listDirectory(target.parent, context: ErrorContext("list the backups beside", target.path))
        let prefix = "\(target.name).backup-"
        let removingPrefix = ".\(prefix)"
        var backups: [ListedBackup] = []
        var interrupted: [String] = []
        for entry in entries.sorted(by: { $0.name < $1.name }) where entry.name != target.name {
            let path = target.sibling(entry.name)
            if entry.name.hasPrefix(removingPrefix) && entry.name.contains(removingMarker) {
                interrupted.append(path)
                continue
            }
            guard !entry.name.hasPrefix(".") else { continue }
            let namedLikeBackup = entry.name.hasPrefix(prefix)
            var type = entry.type
            if type == nil { type = try system.linkStatus(path, context: ErrorContext("read", path))?.type }
            if type == .symbolicLink && namedLikeBackup {
                backups.append(
                    ListedBackup(
                        path: path, name: entry.name, isDefaultNamed: isDefaultName(entry.name, of: target),
                        summary: nil, manifestProblem: "the folder is a symbolic link, which is not followed",
                        origin: .unknown, bytesOnDisk: 0, mismatchedFiles: 0, measureProblem: nil))
                continue
            }
            guard type == .directory else { continue }
            let listed = describe(path, name: entry.name, of: target, identity: identity, system: system)
            // Another name only when its backup.json shows it is a backup of this very store.
            guard namedLikeBackup || listed.origin == .thisStore else { continue }
            backups.append(listed)
        }
        backups.sort { a, b in
            switch (a.date, b.date) {
            case (let x?, let y?) where x != y: return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            default: return a.name < b.name
            }
        }
        return BackupListing(store: store, storeIdentity: identity, backups: backups, interruptedRemovals: interrupted)
    }

    /// One backup folder, wherever it is: what `list(besides:)` says of each (`migrate` describes
    /// the backup it took with it, also one made with `--backup-dir`).
    ///
    /// - Parameters:
    ///   - backup: The backup folder.
    ///   - store: The store it should be of: its `store.json` gives the identity to compare with.
    /// - Throws: `StoreError` `.invalidFileName` for a path without a last component (`/`).
    public static func describe(backup: String, of store: String) throws(StoreError) -> ListedBackup {
        let target = try SiblingPath(store)
        let folder = try SiblingPath(backup)
        return describe(backup, name: folder.name, of: target, identity: storeIdentity(of: target.path, system: .real), system: .real)
    }

    /// Reads `backup.json` and measures the folder; a problem with either is recorded in the entry.
    private static func describe(
        _ path: String, name: String, of target: SiblingPath, identity: StoreIdentity?,
        system: SystemCalls
    ) -> ListedBackup {
        let (summary, problem, files) = readManifest(path, system: system)
        var listed = ListedBackup(
            path: path, name: name, isDefaultNamed: isDefaultName(name, of: target),
            summary: summary, manifestProblem: problem, origin: origin(of: summary, store: identity),
            bytesOnDisk: 0, mismatchedFiles: 0, measureProblem: nil)
        do {
            let usage = try DiskUsage.measure(path, system: system)
            listed.bytesOnDisk = usage.bytes
            listed.mismatchedFiles = files.filter { usage.regularFileSizes[$0.path] != $0.size }.count
        } catch {
            listed.measureProblem = error.message
        }
        return listed
    }

    /// The mark in the name of a backup folder `Backup.prune` is removing: `.<backup>.removing-<16 hex>`.
    static let removingMarker = ".removing-"

    /// True for `<store>.backup-<yyyyMMdd'T'HHmmss'Z'>`, the name `defaultDestination` gives.
    static func isDefaultName(_ name: String, of store: SiblingPath) -> Bool {
        let prefix = "\(store.name).backup-"
        guard name.hasPrefix(prefix) else { return false }
        return date(inDefaultName: name, stampOffset: prefix.count) != nil
    }

    /// The time in a default backup name (its last 16 characters, `yyyyMMdd'T'HHmmss'Z'`), or nil.
    static func date(inDefaultName name: String, stampOffset: Int? = nil) -> Date? {
        let stamp = Array(name.utf8.suffix(16))
        if let stampOffset, name.utf8.count - stampOffset != 16 { return nil }
        guard stamp.count == 16, stamp[8] == UInt8(ascii: "T"), stamp[15] == UInt8(ascii: "Z"),
            (stamp[0..<8] + stamp[9..<15]).allSatisfy({ (48...57).contains($0) }),
            name.utf8.dropLast(16).last == UInt8(ascii: "-")
        else { return nil }
        let s = String(decoding: stamp, as: UTF8.self)
        let text =
            "\(s.prefix(4))-\(s.dropFirst(4).prefix(2))-\(s.dropFirst(6).prefix(2))T"
            + "\(s.dropFirst(9).prefix(2)):\(s.dropFirst(11).prefix(2)):\(s.dropFirst(13).prefix(2))Z"
        return RFC3339.parse(text)
    }

    /// The identity in `<store>/store.json`, or nil when it is absent or does not read.
    static func storeIdentity(of store: String, system: SystemCalls) -> StoreIdentity? {
        let path = joinPath(store, StoreLayout.manifest)
        let bytes: [UInt8]
        do { bytes = try FileReader.read(path, system: system) } catch { return nil }
        return StoreIdentity(manifestBytes: bytes)
    }

    /// The summary and file list of `<folder>/backup.json`, or why it does not read.
    private static func readManifest(_ folder: String, system: SystemCalls)
        -> (ListedBackup.Summary?, String?, [BackupManifest.Entry])
    {
        let path = joinPath(folder, BackupManifest.fileName)
        let manifest: BackupManifest
        do {
            let bytes = try FileReader.read(path, system: system)
            do { manifest = try BackupManifest(bytes: bytes) } catch { return (nil, error.description, []) }
        } catch  where error.code == .notFound {
            return (nil, "there is no \(BackupManifest.fileName)", [])
        } catch {
            return (nil, error.message, [])
        }
        let summary = ListedBackup.Summary(
            createdAt: manifest.createdAt, storeSchemaVersion: manifest.storeSchemaVersion,
            files: manifest.files.count, bytes: manifest.totalBytes,
            toolVersion: manifest.toolVersion, storeIdentity: manifest.storeIdentity)
        return (summary, nil, manifest.files)
    }

    private static func origin(of summary: ListedBackup.Summary?, store: StoreIdentity?) -> ListedBackup.Origin {
        guard let summary, let store else { return .unknown }
        guard let recorded = summary.storeIdentity else { return .unrecorded }
        return recorded == store ? .thisStore : .otherStore(recorded)
    }
}

/// The disk space a folder takes, and the sizes of the regular files in it by relative path.
struct DiskUsage {
    var bytes: Int64 = 0
    var regularFileSizes: [String: Int64] = [:]

    /// Walks `root` without following links: every entry's allocated blocks (`st_blocks` × 512),
    /// an inode met twice counted once, as `du -s -B1` does.
    ///
    /// - Throws: `StoreError` of the `lstat` or listing that failed.
    static func measure(_ root: String, system: SystemCalls) throws(StoreError) -> DiskUsage {
        var usage = DiskUsage()
        var seen: Set<[UInt64]> = []
        try usage.add(root, relative: nil, seen: &seen, system: system)
        return usage
    }

    private mutating func add(
        _ path: String, relative: String?, seen: inout Set<[UInt64]>,
        system: SystemCalls
    ) throws(StoreError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw .systemCall("lstat", errno: errno, context: ErrorContext("measure", path))
        }
        let type = status.st_mode & S_IFMT
        if seen.insert([UInt64(truncatingIfNeeded: status.st_dev), UInt64(truncatingIfNeeded: status.st_ino)]).inserted {
            bytes += Int64(status.st_blocks) * 512
        }
        if type == S_IFREG, let relative { regularFileSizes[relative] = Int64(status.st_size) }
        guard type == S_IFDIR else { return }
        for entry in try system.listDirectory(path, context: ErrorContext("measure", path)) {
            try add(
                joinPath(path, entry.name), relative: relative.map { "\($0)/\(entry.name)" } ?? entry.name,
                seen: &seen, system: system)
        }
    }
}
