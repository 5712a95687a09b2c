import Foundation
import StoreJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LayoutChange {
    /// One work stream's staging: its changes, or the temp file that could not be written (a full
    /// disk is no unreadable document: it is reported as itself).
    enum Staged: Sendable {
        case staged([Change])
        case writeFailed(StoreError)
    }

    /// What the step does to the documents besides the work streams.
    struct SmallDocument {
        var relative: String
        var directory: String
        var name: String
        var bytes: [UInt8]
        var change: Change
    }

    /// Runs `direction` to its end, under the store's lock (held by the caller); with `write`
    /// false, only reads and reports what it would do (`plan`). A store already at
    /// `direction.to` gets only what an interrupted run left to do (``finish``).
    ///
    /// - Parameter progress: Told `.phase(.migrating, …)` (`.validating` when not `write`) once
    ///   the work streams are listed and after each.
    /// - Throws: an error listing every unreadable document (`StoreProblems`): nothing visible
    ///   was changed (the staging folder is removed).
    func run(
        _ direction: Direction, write: Bool, context: StoreMigration.Context, keepingDocuments: Bool = true,
        progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> MigrationReport {
        let manifest = try manifest()
        var report = MigrationReport(keepsDocuments: keepingDocuments)
        if manifest.schemaVersion == direction.to {
            try finish(at: direction.to, write: write, report: &report)
            return report
        }
        guard manifest.schemaVersion == direction.from else {
            throw StoreError(
                .invalidArgument,
                "Can't move '\(path)' from schema version \(direction.from) to \(direction.to): "
                    + "its store.json says \(manifest.schemaVersion). Nothing was changed.", path: file(StoreLayout.manifest))
        }
        try reportLeftovers(storeVersion: manifest.schemaVersion, write: write, report: &report)
        let queue = try queue()
        let index = QueueIndex(queue ?? QueueV2(schemaVersion: direction.from))
        let sourceFolder = joinPath(path, direction.sourceFolder)
        let listing = try DocumentListing.listDocumentFolder(sourceFolder, system: system)
        var problems = listing.invalid.map(\.error)
        let folderCommit = FolderCommit(in: path, staging: direction.stagingFolder, system: system)
        let staging = folderCommit.staging
        var stagingFD: FileDescriptor?
        if write { stagingFD = try makeStagingFolder(folderCommit, like: sourceFolder) }
        let failed = FailureFlag(!problems.isEmpty)
        var writeFailure: StoreError?
        let ids = listing.ids.compactMap { UUIDText.parse($0.rawValue) }
        // A run that writes migrates; one that does not (the upgrade's read-only pass, a plan) validates.
        var counter = PhaseCounter(write ? .migrating : .validating, total: ids.count, report: progress)
        do throws(StoreError) {
            try ParallelBatches.run(
                ids, system: system,
                work: { (id) -> Result<Staged, StoreError> in
                    do throws(StoreError) {
                        let (bytes, mode, changes) = try transform(id, direction, queue: index)
                        if write && !failed.isSet {
                            do throws(StoreError) {
                                try NewFiles.write(joinPath(staging, StoreLayout.documentFileName(id)), bytes, sync: false, mode: mode, system: system)
                            } catch {
                                failed.set()
                                return .success(.writeFailed(error))
                            }
                        }
                        return .success(.staged(changes))
                    } catch {
                        failed.set()
                        return .failure(error)
                    }
                },
                consume: { (id, result) throws(StoreError) in
                    counter.step()
                    switch result {
                    case .success(.staged(let changes)):
                        report.append(DocumentChanges(file: StoreLayout.workStreamPath(id, schemaVersion: direction.to), changes: changes))
                    case .success(.writeFailed(let error)):
                        if writeFailure == nil { writeFailure = error }
                    case .failure(let error):
                        problems.append(error)
                    }
                })
            if let writeFailure { throw writeFailure }
            let small = try smallDocuments(to: direction.to, queue: queue, problems: &problems)
            if !problems.isEmpty { throw StoreError.unreadable(problems, store: path, action: "migrate") }
            for document in small { report.append(DocumentChanges(file: document.relative, changes: [document.change])) }
            let counts = StoreMigration.upgradeCounts(
                sessions: ids.count, userSessions: try customisationCount(),
                settings: try settingsExists(), queue: index.queue)
            var finishing = context
            finishing.finishedAt = Date()
            let newManifest = StoreMigration.layoutChangeManifest(manifest, to: direction.to, counts: counts, context: write ? finishing : context)
            report.append(
                DocumentChanges(file: StoreLayout.manifest, changes: [.manifestUpgraded(from: direction.from, to: direction.to), .migrationRecorded]))
            guard write, let stagingFD = stagingFD.take() else { return report }
            try commit(direction, staging: folderCommit, stagingFD: stagingFD, ids: ids, small: small, manifest: newManifest)
        } catch {
            if write { NewFiles.removeTreeLeftover(staging, system: system) }
            throw error
        }
        return report
    }

    /// The staging folder, with the permissions of the folder it replaces, open (for the barrier).
    private func makeStagingFolder(_ commit: FolderCommit, like source: String) throws(StoreError) -> FileDescriptor {
        let context = ErrorContext("write", commit.staging)
        let mode = try system.linkStatus(source, context: context).map(\.permissions) ?? 0o700
        return try commit.createStaging(permissions: mode, context: context)
    }

    /// Steps 1–5 of the commit order (see ``LayoutChange``), once everything is staged and read.
    private func commit(
        _ direction: Direction, staging: FolderCommit, stagingFD: borrowing FileDescriptor, ids: [UUID], small: [SmallDocument],
        manifest: ManifestV2
    ) throws(StoreError) {
        // 1. The staged documents, durable: one barrier (`FolderCommit.makeDurable`).
        try staging.makeDurable(
            newFiles: ids.lazy.map { joinPath(staging.staging, StoreLayout.documentFileName($0)) }, through: stagingFD,
            fileVerb: "flush", context: ErrorContext("write", staging.staging))
        // 2. Into place; the store folder fsynced, so the new folder survives a power loss.
        let target = joinPath(path, direction.targetFolder)
        try staging.rename(to: target, context: ErrorContext("write", target))
        // 3–4. Forward: store.json first (a v4 reader would refuse version-4 small documents in a
        // v4 store), then the small documents. Inverse: the small documents first, for the same reason.
        let changes = small.map { FileChange(directory: $0.directory, name: $0.name, bytes: $0.bytes) }
        switch direction {
        case .forward:
            try AtomicFile.durableReplace(directory: path, name: StoreLayout.manifest, bytes: manifest.encoded, system: system)
            try commitInBatches(changes)
        case .inverse:
            try commitInBatches(changes)
            try AtomicFile.durableReplace(directory: path, name: StoreLayout.manifest, bytes: manifest.encoded, system: system)
        }
        // 5. The old folder: out of sight at once, then removed.
        try retire(direction.sourceFolder)
    }

    private func commitInBatches(_ changes: [FileChange]) throws(StoreError) {
        var start = 0
        while start < changes.count {
            let end = min(start + StoreMigrator.smallDocumentBatch, changes.count)
            try BatchCommit.commit(Array(changes[start..<end]), system: system)
            start = end
        }
    }

    /// A store at `version` whose last layout change was interrupted after `store.json` was
    /// written: small documents still at the other version (forward only: the inverse writes
    /// them before `store.json`), the other version's folder, staging leftovers.
    func finish(at version: Int, write: Bool, report: inout MigrationReport) throws(StoreError) {
        var problems: [StoreError] = []
        let small = version >= Direction.forward.to ? try smallDocuments(to: version, queue: try queue(), problems: &problems) : []
        if !problems.isEmpty { throw StoreError.unreadable(problems, store: path, action: "migrate") }
        for document in small { report.append(DocumentChanges(file: document.relative, changes: [document.change])) }
        try reportLeftovers(storeVersion: version, write: write, report: &report)
        guard write else { return }
        try commitInBatches(small.map { FileChange(directory: $0.directory, name: $0.name, bytes: $0.bytes) })
    }

    /// Removes what an interrupted layout change left (with `write`; otherwise only checks it), and
    /// reports the removal of the other layout's folder.
    func reportLeftovers(storeVersion: Int, write: Bool, report: inout MigrationReport) throws(StoreError) {
        let other = StoreLayout.otherWorkStreamsFolder(schemaVersion: storeVersion)
        let count = write ? try removeLeftovers(storeVersion: storeVersion)?.workStreams : try leftoverWorkStreams(storeVersion: storeVersion)
        if let count { report.append(DocumentChanges(file: other + "/", changes: [.leftoverFolderRemoved(workStreams: count)])) }
    }

    /// True when a store at `version` holds a folder an interrupted layout change left: the other
    /// version's folder of work streams, a staging or a retired folder (``removeLeftovers``).
    func hasLeftoverFolders(at version: Int) throws(StoreError) -> Bool {
        for name in [
            StoreLayout.otherWorkStreamsFolder(schemaVersion: version), Direction.forward.stagingFolder,
            Direction.inverse.stagingFolder, StoreLayout.Bookkeeping.retiredWorkStreams,
        ] {
            if try system.linkStatus(joinPath(path, name), context: ErrorContext("list", path)) != nil { return true }
        }
        return false
    }

    /// True when ``finish`` has something to do on a store at `version` (3 or 4).
    func needsFinishing(at version: Int) throws(StoreError) -> Bool {
        if try hasLeftoverFolders(at: version) { return true }
        guard version >= Direction.forward.to else { return false }
        var problems: [StoreError] = []
        let small = try smallDocuments(to: version, queue: try queue(), problems: &problems)
        return !small.isEmpty || !problems.isEmpty
    }

    /// Removes what an interrupted layout change left: both staging folders, a retired folder,
    /// and the folder of the version `store.json` does not say (never trusted: see ``LayoutChange``),
    /// once ``leftoverWorkStreams(storeVersion:)`` explains it; otherwise throws and changes nothing.
    ///
    /// - Returns: The other layout's folder when it was removed, with how many work streams it held.
    @discardableResult
    func removeLeftovers(storeVersion: Int) throws(StoreError) -> (folder: String, workStreams: Int)? {
        let leftover = try leftoverWorkStreams(storeVersion: storeVersion)
        for name in [Direction.forward.stagingFolder, Direction.inverse.stagingFolder] {
            let folder = joinPath(path, name)
            if try system.linkStatus(folder, context: ErrorContext("clean up", folder)) != nil { try NewFiles.removeTree(folder, system: system) }
        }
        try retire(StoreLayout.otherWorkStreamsFolder(schemaVersion: storeVersion))
        let retired = joinPath(path, StoreLayout.Bookkeeping.retiredWorkStreams)
        if try system.linkStatus(retired, context: ErrorContext("clean up", retired)) != nil { try NewFiles.removeTree(retired, system: system) }
        return leftover.map { (StoreLayout.otherWorkStreamsFolder(schemaVersion: storeVersion), $0) }
    }

    /// The number of work streams in the other layout's folder when it is what an interrupted
    /// layout change left, nil when there is no such folder; throws when it is not explained.
    ///
    /// A layout change stages every work stream of the folder `store.json` names, renames the
    /// staged folder into place, then changes `store.json`. So what it leaves beside the store's
    /// folder holds the same work streams, each at the other side's version. Anything else (the
    /// store's folder missing, other ids, a document at this side's version: a stray copy, or a
    /// `store.json` edited by hand) is not a leftover, and deleting it could lose the only copy.
    func leftoverWorkStreams(storeVersion: Int) throws(StoreError) -> Int? {
        let expected = StoreLayout.workStreamsFolder(schemaVersion: storeVersion)
        let other = StoreLayout.otherWorkStreamsFolder(schemaVersion: storeVersion)
        let context = ErrorContext("list", path)
        guard try system.linkStatus(joinPath(path, other), context: context) != nil else { return nil }
        let theirs = try DocumentListing.listDocumentFolder(joinPath(path, other), system: system).ids
        if theirs.isEmpty { return 0 }
        func refuse(_ detail: String) -> StoreError {
            Store.layoutContradiction(path, layoutVersion: storeVersion, expected: expected, other: other, detail: detail)
        }
        guard try system.linkStatus(joinPath(path, expected), context: context) != nil else {
            throw refuse("'\(expected)/' is missing and '\(other)/' holds \(theirs.count) work stream file(s)")
        }
        let ours = try DocumentListing.listDocumentFolder(joinPath(path, expected), system: system).ids
        guard Set(theirs.map(\.rawValue)) == Set(ours.map(\.rawValue)) else {
            throw refuse(
                "'\(other)/' also holds work streams (\(theirs.count), against \(ours.count) in '\(expected)/') that are not "
                    + "the same ones, so it is not what an interrupted layout change leaves")
        }
        let otherSide = storeVersion >= Direction.forward.to ? MigrationChain.oldest...Direction.forward.from : Direction.forward.to...Int.max
        for id in theirs {
            let file = joinPath(joinPath(path, other), id.fileName)
            let bytes = try FileReader.read(file, system: system)
            let version: Int
            do { version = try DocumentVersion.peek(try DocumentVersion.parse(bytes)) } catch {
                throw refuse("'\(file)' can't be read (\(error.reason)), so '\(other)/' is not what an interrupted layout change leaves")
            }
            guard otherSide.contains(version) else {
                throw refuse("'\(file)' is at schema version \(version), so '\(other)/' is not what an interrupted layout change leaves")
            }
        }
        return theirs.count
    }

    /// Renames `folder` (if present) to `.retired-work-streams`, durably, then removes it: readers
    /// stop seeing it at the rename, before its thousands of files are removed.
    func retire(_ folder: String) throws(StoreError) {
        let source = joinPath(path, folder)
        let context = ErrorContext("clean up", source)
        guard let status = try system.linkStatus(source, context: context) else { return }
        guard status.type == .directory else {
            throw StoreError(
                .notARegularFile, "Can't finish the layout change of '\(path)': '\(source)' is not a folder. Move it out of the store.", path: source)
        }
        try FolderCommit.retire(folder, as: StoreLayout.Bookkeeping.retiredWorkStreams, in: path, system: system, context: context)
    }

    /// Customisations, settings and `queue.json` whose `schema_version` is not `version`, with their
    /// new bytes (only `schema_version` changes, §11). Unreadable ones are added to `problems`.
    func smallDocuments(to version: Int, queue: QueueV2?, problems: inout [StoreError]) throws(StoreError) -> [SmallDocument] {
        var out: [SmallDocument] = []
        let folder = joinPath(path, StoreLayout.customisationsFolder)
        let listing = try DocumentListing.listDocumentFolder(folder, system: system)
        problems += listing.invalid.map(\.error)
        for documentID in listing.ids {
            guard let id = UUIDText.parse(documentID.rawValue) else { continue }
            let relative = StoreLayout.customisationPath(id)
            do {
                guard var doc = try readIfPresent(relative, { (b) throws(SchemaError) in try Customisation(bytes: b, acceptingNewerVersions: true) }),
                    doc.schemaVersion != version
                else { continue }
                let change = Change.schemaVersion(from: doc.schemaVersion, to: version)
                doc.schemaVersion = version
                out.append(SmallDocument(relative: relative, directory: folder, name: StoreLayout.documentFileName(id), bytes: doc.encoded, change: change))
            } catch { problems.append(error) }
        }
        do {
            if var settings = try readIfPresent(StoreLayout.settings, { (b) throws(SchemaError) in try Settings(bytes: b, acceptingNewerVersions: true) }),
                settings.schemaVersion != version
            {
                let change = Change.schemaVersion(from: settings.schemaVersion, to: version)
                settings.schemaVersion = version
                out.append(SmallDocument(relative: StoreLayout.settings, directory: path, name: StoreLayout.settings, bytes: settings.encoded, change: change))
            }
        } catch { problems.append(error) }
        if var queue, queue.schemaVersion != version {
            let change = Change.schemaVersion(from: queue.schemaVersion, to: version)
            queue.schemaVersion = version
            out.append(SmallDocument(relative: StoreLayout.queue, directory: path, name: StoreLayout.queue, bytes: queue.encoded, change: change))
        }
        return out
    }

    private func customisationCount() throws(StoreError) -> Int {
        try DocumentListing.listDocumentFolder(joinPath(path, StoreLayout.customisationsFolder), system: system).ids.count
    }

    private func settingsExists() throws(StoreError) -> Bool {
        try system.linkStatus(file(StoreLayout.settings), context: ErrorContext("read", file(StoreLayout.settings))) != nil
    }
}
