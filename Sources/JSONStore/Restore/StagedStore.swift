import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A store being built in a staging folder next to its target by a restore or an import: files
/// are added one by one (each checked against its expected size and SHA-256), the store can be
/// migrated in place, and `seal` makes everything durable and verifies it by reading it back.
/// Only then may `StoreSwap` put it in place.
final class StagedStore {
    let target: SiblingPath
    let directory: StagingDirectory
    /// The size and SHA-256 every staged file must have, by path.
    private(set) var expected: [StoreFilePath: (size: Int64, sha256: String)] = [:]
    /// The mode each staged file was given (`RecordedMode.restored`), kept when `migrate` rewrites it.
    private var modes: [StoreFilePath: mode_t] = [:]
    private let system: SystemCalls
    /// The document folders staged: those of the archived store's version.
    private let folders: [String]

    /// Removes stale staging folders of `target` (except one a restore journal still names),
    /// creates a new one with the document folders of a store at `schemaVersion` (`sessions/` or,
    /// from v5, `work-streams/`, and `user-sessions/`). The default is ``DocumentVersion/current``.
    init(besides target: SiblingPath, schemaVersion: Int = DocumentVersion.current, system: SystemCalls) throws(StoreError) {
        // A journal that cannot be read may name any of them: then none is removed as stale.
        if let keeping = RestoreJournal.stagingInJournal(of: target, system: system) {
            StagingDirectory.removeStale(besides: target, purpose: "restoring", keeping: keeping, system: system)
        }
        self.directory = try StagingDirectory(besides: target, purpose: "restoring", system: system)
        self.target = target
        self.system = system
        self.folders = StoreLayout.documentFolderNames(schemaVersion: schemaVersion).sorted()
        do {
            for folder in folders {
                try NewFiles.makeDirectory(joinPath(directory.path, folder), system: system)
            }
        } catch {
            directory.discard()
            throw error
        }
    }

    /// Writes one file. The caller has checked `bytes` against the archive's size and hash.
    ///
    /// - Parameter mode: The permission bits the archive recorded for the file; nil when it
    ///   recorded none (the file gets `0o600`). See `RecordedMode.restored`.
    func add(_ path: StoreFilePath, _ bytes: [UInt8], mode: mode_t? = nil) throws(StoreError) {
        precondition(expected[path] == nil, "StagedStore: '\(path)' added twice")
        let restored = RecordedMode.restored(mode)
        // fchmod'ed before the fsync (NewFiles.write), so the mode is durable with the bytes.
        try NewFiles.write(path.absolute(in: directory.path), bytes, sync: false, mode: restored, system: system)  // durable in seal()
        expected[path] = (Int64(bytes.count), SHA256.hex(of: bytes))
        modes[path] = restored
    }

    /// Gives the staging folder (which becomes the store folder) and its document folders the
    /// modes an archive recorded (`RecordedMode.restoredFolder`), by `RecordedMode.folderKeys`
    /// name; a folder without one stays `0o700`. Made durable by `seal`, which fsyncs each folder.
    func setFolderModes(_ modes: [String: mode_t]) throws(StoreError) {
        for (key, mode) in modes.sorted(by: { $0.key < $1.key }) where RecordedMode.folderKeys.contains(key) {
            let path = key == "." ? directory.path : joinPath(directory.path, key)
            let context = ErrorContext("set the mode of", path)
            // The work-stream folder of the other schema side (spec §12) is not staged: no mode to set.
            if key != ".", !folders.contains(key) { continue }
            let fd = try FileDescriptor(opening: path, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, system: system, context: context)
            try fd.setPermissions(RecordedMode.restoredFolder(mode), context: context)
        }
    }

    /// Migrates the staged store to the newest schema when it is older (STORE-FORMAT §6), in the
    /// staging folder, with the store engine (`StoreMigrator.migrateUnpublished`: one document at
    /// a time, the work streams committed by a folder exchange): the target is untouched until the
    /// swap, so a crash here loses nothing. Each file the migration writes is then read back into
    /// `expected`, and keeps the mode the archive recorded for it; every other file must still be
    /// exactly what `add` wrote, which `seal` checks.
    ///
    /// - Returns: The migration's report, or nil when the store is not older.
    /// - Parameter progress: Told the migration's phases (`.migrating`, `.removingOldFiles`).
    func migrate(toolVersion: String, progress: @escaping (StoreProgress) -> Void) throws(StoreError) -> MigrationReport? {
        let compatibility = try Store.classify(directory.path, system: system)
        let store = Store(
            path: directory.path, options: Store.Options(version: toolVersion), compatibility: compatibility,
            warnings: [], system: system)
        let migrator = StoreMigrator(store: store)
        guard compatibility.storeSchemaVersion < migrator.defaultTarget else { return nil }
        let report: MigrationReport
        do {
            report = try migrator.migrateUnpublished(toolVersion: toolVersion, progress: progress)
        } catch {
            guard let problem = error.documentProblem(in: directory.path) else { throw error }
            let fix = "Restore without --migrate, then run 'migrate' to see the full report."
            throw StoreError(
                .invalidDocument, "Can't migrate the restored store: \(problem) \(fix)", path: target.path,
                underlying: problem, recovery: .advice(fix))
        }
        for document in report.documents where document.rewritesFile {
            guard let path = StoreFilePath(document.file) else {
                preconditionFailure("StagedStore: the migration reported '\(document.file)', which is not a store path")
            }
            try takeMigrated(path)
        }
        return report
    }

    /// A file the migration wrote: its size and SHA-256 as read back become what `seal` expects,
    /// and it gets the mode the archive recorded (`RecordedMode.unrecorded` for a file the
    /// migration created). The engine keeps an existing file's mode and gives a new one `0o600`,
    /// so the mode is set only where that rule and the archive's disagree.
    private func takeMigrated(_ path: StoreFilePath) throws(StoreError) {
        let file = path.absolute(in: directory.path)
        let mode = modes[path] ?? RecordedMode.unrecorded
        let (bytes, permissions) = try FileReader.readWithPermissions(file, system: system)
        if permissions != mode {
            let context = ErrorContext("migrate", file)
            let fd = try FileDescriptor(opening: file, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, system: system, context: context)
            try fd.setPermissions(mode, context: context)  // durable in seal(), which flushes every expected file
        }
        expected[path] = (Int64(bytes.count), SHA256.hex(of: bytes))
        modes[path] = mode
    }

    /// Makes every file durable (`StagingDirectory.makeDurable`), fsyncs the folders and the
    /// parent, then reads every file back and checks the folder holds exactly the expected files
    /// with the expected sizes and hashes.
    ///
    /// - Parameter progress: Told `.phase(.verifyingCopy, …)` before the first file is read back and after each.
    /// - Throws: `StoreError` `.io` naming the first difference, or the code of a failed call.
    func seal(progress: @escaping (StoreProgress) -> Void = { _ in }) throws(StoreError) {
        try directory.makeDurable(expected.keys.map { $0.absolute(in: directory.path) })
        for folder in folders {
            try NewFiles.syncDirectory(joinPath(directory.path, folder), system: system)
        }
        try NewFiles.syncDirectory(directory.path, system: system)
        try NewFiles.syncDirectory(target.parent, system: system)
        let scan = try TreeScan.scan(directory.path, system: system)
        var problems = scan.problems
        let present = Set(scan.files)
        for path in Set(expected.keys).symmetricDifference(present).sorted() {
            problems.append(ArchiveProblem(.corrupt, entry: path.rawValue, present.contains(path) ? "appeared" : "is missing"))
        }
        let readBack = expected.sorted(by: { $0.key < $1.key }).filter { present.contains($0.key) }
        var counter = PhaseCounter(.verifyingCopy, total: readBack.count, report: progress)
        for (path, want) in readBack {
            let bytes = try FileReader.read(path.absolute(in: directory.path), system: system)
            if let problem = ArchiveContents.integrityProblem(
                path.rawValue, bytes, size: want.size, sha256: want.sha256,
                recordedIn: "the restore")
            {
                problems.append(problem)
            }
            counter.step()
        }
        guard problems.isEmpty else {
            throw StoreError(
                .io,
                "Can't restore into '\(target.path)': the restored copy in '\(directory.path)' did not verify "
                    + "after writing: \(problems.map(\.description).joined(separator: "; ")). Check the disk; the store "
                    + "at '\(target.path)' is unchanged.", path: target.path)
        }
    }

    /// The number of files and their total size.
    var totals: (files: Int, bytes: Int64) { (expected.count, expected.values.reduce(0) { $0 + $1.size }) }
}

extension StoreError {
    /// The document problem behind a failed migration or plan of the store folder `root`: the
    /// schema error of the document (of the first one, when several can't be read), its file
    /// named relative to `root`; nil for any other failure (a failed write, a full disk).
    func documentProblem(in root: String) -> SchemaError? {
        let error = (underlying as? StoreProblems)?.problems.first ?? self
        guard let problem = error.schemaError else { return nil }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard let path = error.path, path.hasPrefix(prefix) else { return problem }
        return problem.inFile(String(path.dropFirst(prefix.count)))
    }
}
