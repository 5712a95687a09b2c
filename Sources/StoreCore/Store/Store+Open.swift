import Foundation

extension Store {
    /// `open(at:options:)` (in JSONStore's `Library.swift`) with the seams given: the system calls, and what
    /// opening runs from outside `Store/`.
    package static func open(at path: String, options: Options, system: SystemCalls, maintenance: StoreMaintenance) throws(StoreError) -> Store {
        var recovered: String?
        if !options.readOnly {
            // A restore killed between its two renames leaves no store at the path but a journal
            // next to it; finish it first (it writes nothing when there is no journal).
            recovered = try maintenance.finishInterruptedRestore(path, options, system)
        }
        let compatibility = try classify(path, system: system)
        let folders = try checkDocumentFolders(path, system: system)
        if let refusal = compatibility.refusal {
            throw StoreError(.unsupportedVersion, "Can't open '\(path)': \(refusal).", path: joinPath(path, StoreLayout.manifest))
        }
        try checkWorkStreamFolders(path, layoutVersion: compatibility.layoutVersion, present: folders, system: system)
        var warnings: [String] = recovered.map { [$0] } ?? []
        if !options.readOnly {
            let lock = try StoreLock(store: path, tool: options.tool, version: options.version, timeout: options.lockTimeout, system: system)
            defer { lock.release() }
            if let warning = lock.fileSystemWarning { warnings.append(warning) }
            let probe = Store(
                path: path, options: options, compatibility: compatibility, warnings: warnings, system: system,
                maintenance: maintenance)
            // Constant time when nobody else wrote since this library's last write (`WriteRecord`):
            // the document folders hold no temp file and the queue is reconciled.
            if probe.isWritable, try WriteRecord.matches(store: path, system: system) {
                _ = try TempSweep.sweep(store: path, holding: lock, documentFolders: false, system: system)
                return probe
            }
            _ = try TempSweep.sweep(store: path, holding: lock, system: system)
            // A v5 store has no mirror to reconcile (spec §12: the queue is queue.json only).
            guard probe.isWritable, !probe.hasRenamedLayout else { return probe }
            try reconcileInFull(probe, maintenance: maintenance, warnings: &warnings)
            return Store(
                path: path, options: options, compatibility: compatibility, warnings: warnings, system: system,
                maintenance: maintenance)
        }
        return Store(
            path: path, options: options, compatibility: compatibility, warnings: warnings, system: system,
            maintenance: maintenance)
    }

    /// The full check of an open for writing: the §7 reconcile, then a new `WriteRecord` when it
    /// changed nothing (entries taken before the check and after it are the same). When it
    /// wrote, no record is written: the next open checks again, and records then.
    private static func reconcileInFull(_ store: Store, maintenance: StoreMaintenance, warnings: inout [String]) throws(StoreError) {
        let before = try WriteRecord.capture(store: store.path, system: store.system)
        do {
            try maintenance.reconcile(store)
        } catch {
            // The queue cannot be reconciled without every session's keys; the store stays usable
            // and each unreadable document is still reported by the scans that meet it.
            guard let unreadable = error.underlying as? StoreProblems else { throw error }
            warnings.append(
                "The queue of '\(store.path)' was not checked against its mirror: \(unreadable.problems.count) document(s) can't be read. Validate the store for each one's problem and its fix."
            )
            return
        }
        let after = try WriteRecord.capture(store: store.path, system: store.system)
        if after.sameEntries(as: before) { before.store(in: store.path, system: store.system) }
    }

    /// Reads `store.json` and applies the reader rule, without opening anything else.
    public static func classify(_ path: String) throws(StoreError) -> StoreCompatibility {
        try classify(path, system: .real)
    }

    package static func classify(_ path: String, system: SystemCalls) throws(StoreError) -> StoreCompatibility {
        let manifestPath = joinPath(path, StoreLayout.manifest)
        let bytes: [UInt8]
        do {
            bytes = try FileReader.read(manifestPath, system: system)
        } catch  where error.code == .notFound {
            if let interrupted = InterruptedRestore.error(path, system: system) { throw interrupted }
            throw StoreError(
                .notAStore, "'\(path)' is not a work-stream store: it has no store.json. Check the path, or create a store first.", path: manifestPath)
        }
        do {
            let header = try ManifestHeader(json: try DocumentVersion.parse(bytes))
            return header.compatibility()
        } catch {
            throw StoreError.document(error, path: manifestPath)
        }
    }

    /// `create(at:options:now:)` (in JSONStore's `Library.swift`) with the seams given.
    package static func create(
        at path: String, options: Options, now: Date, system: SystemCalls,
        maintenance: StoreMaintenance
    ) throws(StoreError) -> Store {
        _ = try Directories.create(path, system: system)
        let lock = try StoreLock(store: path, tool: options.tool, version: options.version, timeout: options.lockTimeout, system: system)
        defer { lock.release() }
        let context = ErrorContext("create the store", path)
        if try system.linkStatus(joinPath(path, StoreLayout.manifest), context: context) != nil {
            throw StoreError(.alreadyExists, "Can't create a store in '\(path)': it already has a store.json. Open it instead.", path: path)
        }
        _ = try Directories.create(joinPath(path, StoreLayout.workStreamsFolder), system: system)
        _ = try Directories.create(joinPath(path, StoreLayout.customisationsFolder), system: system)
        // store.json last: until it exists the folder is not a store, so a crash leaves nothing half-made.
        try BatchCommit.commit(
            [
                FileChange(directory: path, name: StoreLayout.settings, bytes: Settings.defaults.encoded),
                FileChange(directory: path, name: StoreLayout.queue, bytes: QueueV2.empty.encoded),
            ], system: system)
        try AtomicFile.durableReplace(directory: path, name: StoreLayout.manifest, bytes: ManifestV2(createdAt: now).encoded, system: system)
        // An empty store is reconciled by construction: the first open needs no full check.
        try WriteRecord.capture(store: path, system: system).store(in: path, system: system)
        return Store(
            path: path, options: options, compatibility: .current, warnings: lock.fileSystemWarning.map { [$0] } ?? [],
            system: system, maintenance: maintenance)
    }
}
