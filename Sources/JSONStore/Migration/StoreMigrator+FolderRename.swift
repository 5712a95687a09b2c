import Foundation
import StoreJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The chain's step whose `LayoutEffect` renames the work streams' folder (spec §12; today
/// v4 → v5, `sessions/` → `work-streams/`) and its exact inverse, as a commit mode of the one
/// engine (`StoreMigrator.run`): staging, the small documents, `store.json` and the removal of the
/// old folder are the engine's own phases; what differs is how the work streams are committed.
///
/// Every work stream changes (the step or its inverse rewrites each), and they go to another
/// folder, so the staged folder is renamed into place instead of exchanged, and the old one is
/// retired. The order makes every instant readable by a reader of one side or of the other (never
/// neither), and lets the next run finish; with today's chain:
///
/// | forward (4 → 5)                                   | a crash here leaves                         |
/// |---------------------------------------------------|---------------------------------------------|
/// | 1. stage every v5 document in `.staging-work-streams`, make it durable | a v4 store + a dot folder (ignored) |
/// | 2. rename it `work-streams`, fsync the store      | a v4 store + `work-streams/` (ignored by v4 readers) |
/// | 3. `store.json` → 5, `min_reader_version` 5, durable | a v5 store + `sessions/` (ignored by v5 readers) |
/// | 4. customisations, settings, `queue.json` → 5     | a v5 store with older small documents (read by v5 readers) |
/// | 5. `sessions/` renamed `.retired-work-streams`, durable; removed last | a v5 store + a dot folder |
///
/// The inverse mirrors it, with the small documents going back to 4 **before** `store.json` does
/// (a v4 reader refuses a version-5 document in a v4 store). The rule behind both orders: the
/// small documents are written while `store.json` says the newer of the two versions.
///
/// The folder that does not belong to `store.json`'s version is never trusted: a writer of the
/// store's version may have changed the other one since (a v4 app after a crash at step 2). So a
/// run first removes it (``removeLeftovers(storeVersion:)``, the check phase) and stages again
/// from the folder `store.json` names. All of this runs under the store's lock.
extension StoreMigrator {
    /// One way across the chain's folder-renaming step (`MigrationChain.folderRenamingStep`):
    /// the step itself, or its inverse.
    package enum FolderRename: Sendable {
        case forward, inverse

        /// The step of the chain this runs (its versions, transforms and folders).
        package static var step: MigrationStep { MigrationChain.folderRenamingStep }

        package var from: Int { self == .forward ? Self.step.from : Self.step.to }
        package var to: Int { self == .forward ? Self.step.to : Self.step.from }
        /// The folder the work streams are read from.
        var sourceFolder: String { StoreLayout.workStreamsFolder(schemaVersion: from) }
        /// The folder the work streams are committed to.
        var targetFolder: String { StoreLayout.workStreamsFolder(schemaVersion: to) }
        /// The bookkeeping folder the documents are staged in.
        var stagingFolder: String { StoreLayout.Bookkeeping.staging(for: targetFolder) }

        /// The rename a store at `from` takes to reach `target`, when it is on one side of the
        /// step and the target on the other; nil otherwise (a store below the step reaches its
        /// `from` first).
        package static func between(_ from: Int, _ target: Int) -> FolderRename? {
            if from == Self.forward.from && target == Self.forward.to { return .forward }
            if from == Self.inverse.from && target == Self.inverse.to { return .inverse }
            return nil
        }

        /// The step's work-stream transform this way: the step forward, its inverse back.
        func migrate(_ document: WorkStreamDocument, context: StepContext) throws(SchemaError) -> (WorkStreamDocument, [Change]) {
            switch self {
            case .forward: return try Self.step.migrate(document, context: context)
            case .inverse:
                guard let inverse = Self.step.inverse else { preconditionFailure("FolderRename: the folder-renaming step is breaking and has an inverse") }
                return try inverse.migrate(document, context: context)
            }
        }
    }

    /// One work stream taken across the rename: read from the store's folder at exactly the
    /// step's `from` version (an older writer's document is reconciled first: `migrate`), checked,
    /// transformed.
    func renamedWorkStream(
        _ id: UUID, _ rename: FolderRename, queue: QueueIndex
    ) throws(StoreError) -> (document: WorkStreamDocument, bytes: [UInt8], changes: [Change]) {
        let relative = StoreLayout.workStreamPath(id, schemaVersion: rename.from)
        let source = store.file(relative)
        guard let status = try store.system.linkStatus(source, context: ErrorContext("read", source)), status.type == .regular else {
            throw StoreError(.invalidDocument, "Can't read '\(source)': it is not a regular file. Move it out of the store.", path: source)
        }
        let bytes = try FileReader.read(source, system: store.system)
        do throws(SchemaError) {
            let document = try WorkStreamDocument(bytes: bytes, frozenVersion: rename.from)
            guard document.fields.id == id else {
                throw SchemaError(
                    code: .invalidValue, keyPath: "id", expected: id.lowercased, found: document.fields.id.lowercased,
                    detail: "the id inside must equal the file name; rename the file or fix the id by hand")
            }
            let (moved, changes) = try rename.migrate(document, context: StepContext(writtenByOlderWriter: false, queue: queue))
            return (document, moved.encoded, changes)
        } catch {
            throw StoreError.document(error, path: source)
        }
    }

    /// Steps 1–2 of the rename's commit: the staged folder made durable (one barrier, through
    /// `barrier`, opened before staging wrote anything) and renamed into place, the store folder
    /// fsynced.
    func commitRenamedFolder(_ staged: StagedList, _ rename: FolderRename, barrier: borrowing FileDescriptor) throws(StoreError) {
        let commit = FolderCommit(in: store.path, staging: rename.stagingFolder, system: store.system)
        try commit.makeDurable(
            newFiles: staged.indices.lazy.compactMap { temporaryPath(staged, $0) }, barrier: barrier, fileVerb: "flush",
            context: ErrorContext("write", commit.staging))
        let target = store.file(rename.targetFolder)
        try commit.rename(to: target, context: ErrorContext("write", target))
    }

    /// Step 5: the old folder renamed `.retired-work-streams` (a leftover of that name removed
    /// first), durably: readers stop seeing it here. Its files are removed with the other old
    /// folders (`removeOldFolders`), once the migration is committed.
    func retireOldFolder(_ folder: String) throws(StoreError) {
        let source = store.file(folder)
        let context = ErrorContext("clean up", source)
        guard let status = try store.system.linkStatus(source, context: context) else { return }
        guard status.type == .directory else {
            throw StoreError(
                .notARegularFile, "Can't finish the layout change of '\(store.path)': '\(source)' is not a folder. Move it out of the store.",
                path: source)
        }
        let retired = store.file(StoreLayout.Bookkeeping.retiredWorkStreams)
        if try store.system.linkStatus(retired, context: context) != nil { try NewFiles.removeTree(retired, system: store.system) }
        try store.system.rename(source, to: retired, context: context)
        try NewFiles.syncDirectory(store.path, system: store.system)
    }

    // MARK: The check phase: what an interrupted rename left

    /// Reports, and with `write` removes, what an interrupted rename left in a store at
    /// `storeVersion` (``removeLeftovers(storeVersion:)``).
    func reportLeftovers(storeVersion: Int, write: Bool, report: inout MigrationReport) throws(StoreError) {
        let other = StoreLayout.otherWorkStreamsFolder(schemaVersion: storeVersion)
        let count =
            write
            ? try Self.removeLeftovers(store.path, storeVersion: storeVersion, system: store.system)?.workStreams
            : try Self.leftoverWorkStreams(store.path, storeVersion: storeVersion, system: store.system)
        if let count { report.append(DocumentChanges(file: other + "/", changes: [.leftoverFolderRemoved(workStreams: count)])) }
    }

    /// The folders an interrupted rename can leave in a store at `version`: the other version's
    /// work-stream folder, either staging folder, the retired folder.
    static func leftoverFolderNames(at version: Int) -> [String] {
        [
            StoreLayout.otherWorkStreamsFolder(schemaVersion: version), FolderRename.forward.stagingFolder,
            FolderRename.inverse.stagingFolder, StoreLayout.Bookkeeping.retiredWorkStreams,
        ]
    }

    /// True when the store at `path`, at `version`, holds a folder an interrupted rename left.
    static func hasLeftoverFolders(_ path: String, at version: Int, system: SystemCalls = .real) throws(StoreError) -> Bool {
        for name in leftoverFolderNames(at: version) where try system.linkStatus(joinPath(path, name), context: ErrorContext("list", path)) != nil {
            return true
        }
        return false
    }

    /// Removes what an interrupted rename left: both staging folders, a retired folder, and the
    /// folder of the version `store.json` does not say (never trusted), once
    /// ``leftoverWorkStreams(_:storeVersion:system:)`` explains it; otherwise throws and changes nothing.
    ///
    /// - Returns: The other layout's folder when it was removed, with how many work streams it held.
    @discardableResult
    static func removeLeftovers(_ path: String, storeVersion: Int, system: SystemCalls = .real) throws(StoreError) -> (folder: String, workStreams: Int)? {
        let leftover = try leftoverWorkStreams(path, storeVersion: storeVersion, system: system)
        let other = StoreLayout.otherWorkStreamsFolder(schemaVersion: storeVersion)
        for name in leftoverFolderNames(at: storeVersion) where name != other {
            let folder = joinPath(path, name)
            if try system.linkStatus(folder, context: ErrorContext("clean up", folder)) != nil { try NewFiles.removeTree(folder, system: system) }
        }
        let source = joinPath(path, other)
        let context = ErrorContext("clean up", source)
        if let status = try system.linkStatus(source, context: context) {
            guard status.type == .directory else {
                throw StoreError(
                    .notARegularFile, "Can't finish the layout change of '\(path)': '\(source)' is not a folder. Move it out of the store.", path: source)
            }
            // Out of sight at once (durably), then removed.
            try FolderCommit.retire(other, as: StoreLayout.Bookkeeping.retiredWorkStreams, in: path, system: system, context: context)
        }
        return leftover.map { (other, $0) }
    }

    /// The number of work streams in the other layout's folder when it is what an interrupted
    /// rename left, nil when there is no such folder; throws when it is not explained.
    ///
    /// A rename stages every work stream of the folder `store.json` names, renames the staged
    /// folder into place, then changes `store.json`. So what it leaves beside the store's folder
    /// holds the same work streams, each at the other side's version. Anything else (the store's
    /// folder missing, other ids, a document at this side's version: a stray copy, or a
    /// `store.json` edited by hand) is not a leftover, and deleting it could lose the only copy.
    static func leftoverWorkStreams(_ path: String, storeVersion: Int, system: SystemCalls = .real) throws(StoreError) -> Int? {
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
        let renamed = FolderRename.forward.to
        let otherSide = storeVersion >= renamed ? MigrationChain.oldest...FolderRename.forward.from : renamed...Int.max
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
}
