import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `StoreExport.write` wrote.
public struct ExportReport: Sendable, Equatable {
    /// The number of store files written.
    public var files: Int
    /// The total size of the store files, in bytes.
    public var bytes: Int64
    /// The exported `store.json`'s `schema_version`.
    public var storeSchemaVersion: Int
    /// The trailer's SHA-256 of every line before it.
    public var sha256: String
}

/// Writing a whole store as one JSON Lines file (see `ExportFormat`): for moving a store between
/// devices or attaching it to a bug report.
public enum StoreExport {
    /// Where the export goes.
    public enum Destination: Sendable, Equatable {
        /// Standard output (`-` on the command line), written as it is produced.
        case standardOutput
        /// A new file: written to a temp file next to it, fsynced, then linked into place, so the
        /// path holds a complete export or nothing. An existing file is never overwritten.
        case file(String)
    }

    /// Exports `store` to `destination`, reading it under the store's lock so that the export is
    /// one consistent snapshot.
    ///
    /// ```swift
    /// let report = try StoreExport.write(store: "/data/store", to: .file("/tmp/store.jsonl"),
    ///                                    tool: "migrate-store", version: "0.1.0")
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store folder.
    ///   - destination: A new file, or standard output.
    ///   - tool: Recorded in the store's lock while the export holds it.
    ///   - version: Recorded in the store's lock and in the export's header.
    ///   - lockTimeout: How long to wait for a writer's lock. The default is 10 seconds.
    ///   - progress: Called on the calling thread: `.waitingForLock` when a writer holds
    ///     the store, then `.phase(.exporting, …)` once the store is listed and after each file
    ///     written, counting to the number of store files. The default does nothing.
    /// - Throws: `StoreError`: `.alreadyExists` when the file exists; `.invalidFileName` naming
    ///   every entry of the store that does not belong; `.notAStore`; `.invalidDocument` for a
    ///   file that is not UTF-8 text; `.locked`; or the code of a failed call. A failed export
    ///   to a file leaves nothing at its path; one to standard output stops without a trailer,
    ///   so an import refuses what was written.
    public static func write(
        store: String, to destination: Destination, tool: String, version: String,
        lockTimeout: Duration = StoreLock.defaultTimeout,
        progress: (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> ExportReport {
        try withoutActuallyEscaping(progress) { (progress) throws(StoreError) in
            try write(
                store: store, to: destination, tool: tool, version: version, lockTimeout: lockTimeout, system: .real,
                progress: progress)
        }
    }

    static func write(
        store: String, to destination: Destination, tool: String, version: String, lockTimeout: Duration,
        system: SystemCalls, progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> ExportReport {
        try Backup.requireStoreFolder(store, system: system)
        // Before the lock: a refused store is left as it was, without even a lock file.
        try TreeScan.requireKnownLayout(store, system: system)
        switch destination {
        case .standardOutput:
            let writer = LineWriter(fd: 1, context: ErrorContext("write the export to", "standard output"), system: system)
            return try locked(store, tool: tool, version: version, timeout: lockTimeout, system: system, progress: progress) { () throws(StoreError) in
                try emit(store: store, version: version, writer: writer, system: system, progress: progress)
            }
        case .file(let path):
            let file = try SiblingPath(path)
            guard !file.isInside(store) else {
                throw StoreError(
                    .invalidFileName,
                    "Can't write the export '\(path)' inside the store '\(store)': a store holds "
                        + "only its documents. Choose a file outside the store.", path: path)
            }
            let context = ErrorContext("write the export", file.path)
            guard try system.linkStatus(file.path, context: context) == nil else { throw exists(file.path) }
            let temporary = file.sibling(AtomicFile.temporaryName(for: file.name))
            let fd = try FileDescriptor(
                opening: temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: 0o600, system: system, context: context)
            let report: ExportReport
            do {
                let writer = LineWriter(fd: fd.rawValue, context: context, system: system, writebackEvery: 8 * 1024 * 1024)
                report = try locked(store, tool: tool, version: version, timeout: lockTimeout, system: system, progress: progress) { () throws(StoreError) in
                    try emit(store: store, version: version, writer: writer, system: system, progress: progress)
                }
                try fd.sync(context: context)
            } catch {
                fd.discard()
                system.removeLeftover(temporary)
                throw error
            }
            do {
                try fd.close(context: context)
                try publish(temporary, as: file, system: system)
            } catch {
                system.removeLeftover(temporary)
                throw error
            }
            return report
        }
    }

    /// Writes header, files and trailer. `store.json` goes first, then the rest by path.
    private static func emit(
        store: String, version: String, writer: LineWriter, system: SystemCalls,
        progress: @escaping (StoreProgress) -> Void
    ) throws(StoreError) -> ExportReport {
        let scan = try TreeScan.scan(store, system: system)
        guard scan.problems.isEmpty else {
            throw StoreError(
                .invalidFileName,
                "Can't export '\(store)': entries that do not belong in a store: "
                    + scan.problems.map(\.description).joined(separator: "; ") + ". Move them out of the store.", path: store)
        }
        guard let manifest = scan.files.first(where: { $0.kind == .manifest }) else {
            if let interrupted = InterruptedRestore.error(store, system: system) { throw interrupted }
            throw StoreError(.notAStore, "Can't export '\(store)': it has no store.json, so it is not a store. Check the path.", path: store)
        }
        var hasher = SHA256()
        func line(_ bytes: [UInt8]) throws(StoreError) {
            try writer.write(bytes)
            hasher.update(bytes)
            hasher.update(CollectionOfOne(UInt8(ascii: "\n")))
        }
        let (manifestBytes, manifestMode) = try FileReader.readWithPermissions(manifest.absolute(in: store), system: system)
        let schemaVersion = try BackupWriter.schemaVersion(of: manifestBytes, store: store)
        // The work-stream folder of the other schema side (spec §12) is left out, with its mode.
        let folders = StoreLayout.documentFolderNames(schemaVersion: schemaVersion)
        let folderModes = try RecordedMode.folderModes(of: store, system: system).filter { $0.key == "." || folders.contains($0.key) }
        try line(
            ExportFormat.header(
                toolVersion: version, storeSchemaVersion: schemaVersion, createdAt: Date(), files: scan.files.count,
                folderModes: folderModes))
        var total: Int64 = 0
        var counter = PhaseCounter(.exporting, total: scan.files.count, report: progress)
        try line(try fileLine(manifest, manifestBytes, manifestMode, store: store))
        total += Int64(manifestBytes.count)
        counter.step()
        // Reading a file, checking and escaping it and hashing its content are independent per
        // file and run on the other cores (`ParallelPipeline`) while the lines of the batch
        // before are hashed and written here, in path order: the same bytes as a loop writes.
        try ParallelPipeline.run(
            scan.files.filter { $0 != manifest }, system: system,
            work: { (path) -> Result<(line: [UInt8], size: Int), StoreError> in
                do throws(StoreError) {
                    let (bytes, mode) = try FileReader.readWithPermissions(path.absolute(in: store), system: system)
                    return .success((try fileLine(path, bytes, mode, store: store), bytes.count))
                } catch { return .failure(error) }
            },
            consume: { (_, result) throws(StoreError) in
                let (fileLine, size) = try result.get()
                try line(fileLine)
                total += Int64(size)
                counter.step()
            })
        let digest = hasher.finalize().hexString
        try writer.write(ExportFormat.trailer(files: scan.files.count, bytes: total, sha256: digest))
        try writer.flush()
        return ExportReport(files: scan.files.count, bytes: total, storeSchemaVersion: schemaVersion, sha256: digest)
    }

    /// The export line of one file (`ExportFormat.file`); a file that is not UTF-8 is an error.
    private static func fileLine(_ path: StoreFilePath, _ bytes: [UInt8], _ mode: mode_t, store: String) throws(StoreError) -> [UInt8] {
        guard let line = ExportFormat.file(path, content: bytes, mode: mode) else {
            throw StoreError(
                .invalidDocument,
                "Can't export '\(store)': '\(path)' is not UTF-8 text, so it is not a valid "
                    + "document (STORE-FORMAT §2). Back up the store instead, or repair the file.", path: path.absolute(in: store))
        }
        return line
    }

    private static func locked<R>(
        _ store: String, tool: String, version: String, timeout: Duration, system: SystemCalls,
        progress: (StoreProgress) -> Void, _ body: () throws(StoreError) -> R
    ) throws(StoreError) -> R {
        let lock: StoreLock
        do {
            lock = try StoreLock(
                store: store, tool: tool, version: version, timeout: timeout, system: system,
                action: "export"
            ) { holder in progress(.waitingForLock(store: store, holder: holder)) }
        } catch  where error.code == .readOnlyFileSystem {
            return try body()  // nobody can write a read-only store: see BackupWriter.withStoreLock
        }
        defer { lock.release() }
        return try body()
    }

    /// `link(2)` the finished temp file to its name (fails if the name was taken meanwhile, so an
    /// existing file is never replaced), remove the temp name, fsync the folder.
    private static func publish(_ temporary: String, as file: SiblingPath, system: SystemCalls) throws(StoreError) {
        let context = ErrorContext("write the export", file.path)
        do {
            try system.hardLink(temporary, to: file.path, context: context)
            system.removeLeftover(temporary)
        } catch  where error.code == .alreadyExists {
            throw exists(file.path)
        } catch  where [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK].contains(error.errno ?? 0) {
            // A file system without hard links (FAT, exFAT: USB drives): rename instead. The
            // check before it leaves a tiny window in which a file created there would be replaced.
            guard try system.linkStatus(file.path, context: context) == nil else { throw exists(file.path) }
            try system.rename(temporary, to: file.path, context: context)
        }
        try NewFiles.syncDirectory(file.parent, note: "the export is complete but may not survive a power failure", system: system)
    }

    private static func exists(_ path: String) -> StoreError {
        StoreError(
            .alreadyExists,
            "Can't write the export '\(path)': it already exists. Choose a new file name; an existing "
                + "file is never overwritten.", path: path)
    }
}
