import Dispatch
import Foundation

/// The write path of a migration: each work stream is decoded once.
///
/// One pass decodes and validates every work stream, migrates it (spec §6 rules 1–4) and writes
/// the result to a staged file, which readers never see: in an upgrade (a target above the
/// store's version, where every document at the store's version changes) `<id>.json` in the
/// folder that will be exchanged with `sessions/` (`StoreMigrator+Exchange.swift`), otherwise a
/// temp file `.tmp-<hex>-<id>.json` beside the document. If any document of the store is
/// unreadable, every staged file (and that folder) is removed and the store is unchanged.
/// Once the queue is resolved, the few work streams whose queue mirror changes are re-encoded.
/// When a quarter or more of the work streams changed, they are committed at once by exchanging
/// `sessions/` with that folder, the unchanged documents linked into it. Otherwise, or where the
/// file system cannot, all staged files are made durable at once (`syncfs`, or an fsync each), and
/// renamed over their documents in `QueueBuilder.writeOrder`: each session whose FIFO position
/// changes is renamed and its folder fsynced on its own, so a v1 reader derives the same queue
/// after every rename even across a power loss; the others are renamed together, then the
/// folder is fsynced.
extension StoreMigrator {
    /// One staged work stream, as staging hands it over; the staged list packs it (`StagedList`).
    struct StagedWorkStream: Sendable {
        /// The id, `schema_version` as read and queue keys: what the queue step needs (the
        /// staged list is the only per-work-stream list a migration keeps, not also a list of summaries).
        var summary: WorkStreamQueueSummary
        var id: UUID { summary.id }
        var keys: QueueKeys { summary.keys }
        /// The changes, kept only when the report keeps documents; otherwise they were added to
        /// the report's totals when staged (`counted`), so memory does not grow with the store.
        var changes: [Change]
        var counted = false
        /// The token of this work stream's temp file, `.tmp-<token>-<id>.json` in `sessions/`
        /// (`temporaryPath`), when it has one: 8 bytes instead of a path (~128 bytes a work stream
        /// at the commit; goal 5 of `Benchmarks/`). 0 for a file staged in the exchange folder.
        var temporary: UInt64?
    }

    /// The path of the staged file of the work stream at `position`, when it has one.
    func temporaryPath(_ staged: StagedList, _ position: Int) -> String? {
        staged.temporary(position).map { temporaryPath(staged.id(position), token: $0, inExchangeFolder: staged.stagesInExchangeFolder) }
    }

    /// The path of work stream `id`'s staged file: `<id>.json` in the exchange folder, or the temp
    /// file with `token` in `sessions/`.
    func temporaryPath(_ id: UUID, token: UInt64, inExchangeFolder: Bool) -> String {
        inExchangeFolder
            ? joinPath(stagingFolder, Store.documentName(id))
            : joinPath(store.workStreamsDirectory, AtomicFile.temporaryName(for: Store.documentName(id), token: token))
    }

    /// Where staging writes (see the top of this file): true, with the exchange folder created
    /// (empty, with the mode of `sessions/`), for an upgrade of a store with work streams in a
    /// `sessions/` folder and no unreadable name among them; false otherwise (temp files beside
    /// the documents). The sweep at the start of the migration, under the lock, removed any leftover folder.
    private func prepareExchangeFolder(target: Int, workStreams: Int, problems: Int) throws(StoreError) -> Bool {
        guard workStreams > 0, problems == 0, !store.hasRenamedLayout, target > store.compatibility.storeSchemaVersion else { return false }
        let commit = sessionsCommit
        let context = ErrorContext("write", commit.staging)
        guard let status = try store.system.linkStatus(store.workStreamsDirectory, context: context), status.type == .directory else { return false }
        _ = try commit.createStaging(permissions: status.permissions, context: context)
        return true
    }

    /// The folder rename's staging folder, empty, with the mode of the folder it replaces.
    private func prepareRenameStaging() throws(StoreError) {
        let commit = FolderCommit(in: store.path, staging: renaming!.stagingFolder, system: store.system)
        let context = ErrorContext("write", commit.staging)
        let mode = try store.system.linkStatus(store.workStreamsDirectory, context: context).map(\.permissions) ?? 0o700
        _ = try commit.createStaging(permissions: mode, context: context)
    }

    /// Decodes, validates, migrates and stages every work stream; returns the survey and the staged sessions.
    /// The work streams are processed on every core (`ParallelBatches`), the results taken in id order.
    /// `progress` is told `.phase(.migrating, …)` once the work streams are listed and after each
    /// (`.validating` without `write`: a plan of the folder rename reads and transforms every work
    /// stream, writing nothing).
    ///
    /// Across the folder rename (`renaming`), every work stream goes through the step with the
    /// store's `queue` and is staged in the step's staging folder, reported at its new path.
    func stage(
        target: Int, write: Bool = true, queue: QueueIndex? = nil, report: inout MigrationReport, progress: @escaping (StoreProgress) -> Void
    ) throws(StoreError) -> (Survey, StagedList) {
        var problems: [StoreError] = []
        // A temp file that could not be written (a full disk, an I/O error) is no unreadable
        // document: it is reported as itself, not in the list of documents that can't be read.
        var writeFailure: StoreError?
        let ids = try store.workStreamIDs()
        problems += ids.problems
        let inExchangeFolder =
            renaming != nil ? write : try prepareExchangeFolder(target: target, workStreams: ids.items.count, problems: ids.problems.count)
        if write, renaming != nil { try prepareRenameStaging() }
        var staged = StagedList(capacity: ids.items.count, stagesInExchangeFolder: inExchangeFolder)
        // Once a document is known to be unreadable nothing will be committed: stop writing temp files.
        let failed = FailureFlag(!ids.problems.isEmpty)
        let keepsDocuments = report.keepsDocuments
        let renamedTo = renaming?.to
        let reportedPath = { (id: UUID) in renamedTo.map { StoreLayout.workStreamPath(id, schemaVersion: $0) } ?? StoreLayout.workStreamPath(id) }
        var counter = PhaseCounter(write ? .migrating : .validating, total: ids.items.count, report: progress)
        try ParallelBatches.run(
            ids.items, system: store.system,
            work: { (id) -> Result<StagingOutcome, StoreError> in
                do throws(StagingFailure) {
                    let writing = write && !failed.isSet
                    if let renaming, let queue { return .success(.staged(try stageRenamed(id, renaming, queue: queue, writing: writing))) }
                    return .success(.staged(try stageWorkStream(id, target: target, writing: writing, inExchangeFolder: inExchangeFolder)))
                } catch {
                    failed.set()
                    switch error {
                    case .read(let error): return .failure(error)
                    case .write(let error): return .success(.writeFailed(error))
                    }
                }
            },
            consume: { (_, result) throws(StoreError) in
                counter.step()
                if counter.done % 256 == 0 { MemoryRelease.trim() }
                switch result {
                case .success(.staged(var session)):
                    if !keepsDocuments && !session.changes.isEmpty {
                        report.append(DocumentChanges(file: reportedPath(session.id), changes: session.changes))
                        session.changes = []
                        session.counted = true
                    }
                    staged.append(session)
                case .failure(let error):
                    problems.append(error)
                case .success(.writeFailed(let error)):
                    if writeFailure == nil { writeFailure = error }
                }
            })
        staged.finishAppending()
        do throws(StoreError) {
            if let writeFailure { throw writeFailure }
            let survey = try surveyOtherDocuments(&problems)
            if !problems.isEmpty { throw StoreError.unreadable(problems, store: store.path, action: "migrate") }
            // `survey.summaries` stays empty: the staged list holds them (`StagedWorkStream.summary`).
            return (survey, staged)
        } catch {
            removeTemporaries(staged)
            throw error
        }
    }

    /// One work stream across the folder rename: read, checked, transformed, and written as
    /// `<id>.json` into the step's staging folder (when `writing`). Thread-safe on the real file system.
    private func stageRenamed(_ id: UUID, _ rename: FolderRename, queue: QueueIndex, writing: Bool) throws(StagingFailure) -> StagedWorkStream {
        let moved: (document: WorkStreamDocument, bytes: [UInt8], changes: [Change])
        do throws(StoreError) { moved = try renamedWorkStream(id, rename, queue: queue) } catch { throw .read(error) }
        var session = StagedWorkStream(summary: WorkStreamQueueSummary(moved.document), changes: moved.changes)
        if writing {
            do throws(StoreError) { session.temporary = try writeTemporary(id, moved.bytes, inExchangeFolder: true) } catch { throw .write(error) }
        }
        return session
    }

    /// One work stream: read, validated, migrated, and written to a staged file if its bytes change
    /// (and `writing`). Thread-safe on the real file system.
    private func stageWorkStream(_ id: UUID, target: Int, writing: Bool, inExchangeFolder: Bool) throws(StagingFailure) -> StagedWorkStream {
        let bytes: [UInt8]
        do throws(StoreError) { bytes = try FileReader.read(store.file(store.workStreamFile(id)), system: store.system) } catch { throw .read(error) }
        if let fast = canonicalMigration(id, bytes, storeVersion: store.compatibility.storeSchemaVersion, target: target) {
            var session = StagedWorkStream(summary: WorkStreamQueueSummary(fast.document), changes: fast.changes)
            if writing, fast.changes.contains(where: \.changesBytes) {
                do throws(StoreError) { session.temporary = try writeTemporary(id, fast.migrated, inExchangeFolder: inExchangeFolder) } catch {
                    throw .write(error)
                }
            }
            return session
        }
        let document: WorkStreamDocument
        do throws(StoreError) { document = try store.decodeWorkStream(id, bytes: bytes) } catch { throw .read(error) }
        let migrated: WorkStreamDocument, changes: [Change]
        do throws(SchemaError) {
            (migrated, changes) = try MigrationChain.migrateWorkStream(document, storeVersion: store.compatibility.storeSchemaVersion, to: target)
        } catch {
            throw .read(StoreError.document(error, path: store.file(StoreLayout.workStreamPath(id))))
        }
        var session = StagedWorkStream(summary: WorkStreamQueueSummary(document), changes: changes)
        if writing, changes.contains(where: \.changesBytes) {
            do throws(StoreError) { session.temporary = try writeTemporary(id, migrated.encoded, inExchangeFolder: inExchangeFolder) } catch {
                throw .write(error)
            }
        }
        return session
    }

    /// The fast path of a work stream's migration to v2 or v3 (`MigrationChain.migrateCanonicalWorkStream`:
    /// its messages upgraded on their bytes), or nil where it does not apply: another target, the
    /// v4 layout, a document not in the canonical form, not readable, or whose id is not its file
    /// name's. The full path then reads the same bytes and reports or fixes what is wrong.
    /// With `mirror`, the resolved queue's mirror keys are applied too (`StoreMigration.migrateWorkStreamDocument`).
    private func canonicalMigration(
        _ id: UUID, _ bytes: [UInt8], storeVersion: Int, target: Int,
        mirror: QueueIndex? = nil
    ) -> MigrationChain.CanonicalMigration? {
        guard !store.hasRenamedLayout,
            let fast = MigrationChain.migrateCanonicalWorkStream(
                bytes, storeVersion: storeVersion,
                to: target, acceptingNewerVersions: store.acceptsNewerDocuments,
                mirror: mirror),
            fast.document.fields.id == id
        else { return nil }
        return fast
    }

    /// Why staging one work stream failed: its document can't be read (or migrated), or its
    /// temp file can't be written.
    enum StagingFailure: Error {
        case read(StoreError)
        case write(StoreError)
    }

    /// What one work stream's staging gives the consumer (an unreadable document is the batch's
    /// failure; a temp file that can't be written is reported on its own).
    enum StagingOutcome: Sendable {
        case staged(StagedWorkStream)
        case writeFailed(StoreError)
    }

    /// Writes `bytes` to a new staged file for work stream `id` (not yet durable); returns its
    /// token (`temporaryPath`): 0 in the exchange folder, where the file is `<id>.json`.
    func writeTemporary(_ id: UUID, _ bytes: [UInt8], inExchangeFolder: Bool) throws(StoreError) -> UInt64 {
        let context = ErrorContext("write", store.file(StoreLayout.workStreamPath(id)))
        if inExchangeFolder {
            try NewFiles.write(
                temporaryPath(id, token: 0, inExchangeFolder: true), bytes, sync: false,
                mode: try sessionMode(id, context: context), system: store.system, context: context)
            return 0
        }
        let file = try AtomicFile.writeUnsynced(
            directory: store.workStreamsDirectory, name: Store.documentName(id),
            bytes: bytes, mode: try sessionMode(id, context: context), system: store.system, context: context)
        let path = file.path, token = file.token
        do { try file.close(context: context) } catch {
            store.system.removeLeftover(path)
            throw error
        }
        return token
    }

    /// Replaces the content of a temp file this migration created (not yet renamed, so no reader sees it).
    func rewriteTemporary(_ path: String, _ bytes: [UInt8]) throws(StoreError) {
        let context = ErrorContext("write", path)
        let fd = try FileDescriptor(opening: path, flags: O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, system: store.system, context: context)
        do throws(StoreError) {
            try fd.writeAll(bytes, context: context)
        } catch {
            fd.discard()
            throw error
        }
        try fd.close(context: context)
    }

    /// An existing document keeps its mode; a symbolic link or other odd file is refused here, before any rename.
    func sessionMode(_ id: UUID, context: ErrorContext) throws(StoreError) -> mode_t {
        var context = context
        return try AtomicFile.intendedMode(of: store.file(store.workStreamFile(id)), newFileMode: 0o600, system: store.system, context: &context)
    }

    func removeTemporaries(_ staged: StagedList) {
        removeTemporaries(staged, at: staged.indices)
    }

    /// Removes the temp files of the work streams at `positions`; when staging wrote into the
    /// exchange folder, that whole folder instead (everything in it is staged files not yet
    /// renamed out and links to documents `sessions/` holds). Never after the exchange: the folder
    /// is the old `sessions/` then, kept until the exchange is durable (`commitStaged`).
    func removeTemporaries(_ staged: StagedList, at positions: some Sequence<Int>) {
        if staged.stagesInExchangeFolder {
            removeFolder(stagingFolder)
            return
        }
        for position in positions { if let path = temporaryPath(staged, position) { store.system.removeLeftover(path) } }
    }

    /// Applies the queue mirror, makes the temp files durable and renames them in write order.
    ///
    /// Memory: `staged` is taken over (not copied on the first change), and the per-work-stream
    /// lists are dropped as soon as they are used, so that the peak at the renames stays small
    /// (goal 5 of `Benchmarks/`: peak RSS must not grow with the store).
    /// - Returns: true when the work streams were committed by exchanging folders: the old folder
    ///   is then left for `removeExchangedFolder` once the migration is finished.
    ///
    /// `barrier` is a descriptor of the store folder opened before staging wrote its first file:
    /// Linux's `syncfs` reports only the write-back errors that happened since the descriptor it
    /// is given was opened.
    func commitStaged(
        _ staged: consuming StagedList, storeVersion: Int, target: Int, index: QueueIndex,
        barrier: borrowing FileDescriptor, report: inout MigrationReport
    ) throws(StoreError) -> Bool {
        var sessions = consume staged
        // No work streams and no sessions/ (an absent folder is an empty one): nothing to make
        // durable or rename, and no folder to open.
        if sessions.isEmpty,
            try store.system.linkStatus(store.workStreamsDirectory, context: ErrorContext("write", store.workStreamsDirectory)) == nil
        {
            return false
        }
        var ordered = Set<UUID>()
        var exchanged = false
        do throws(StoreError) {
            try applyMirror(&sessions, storeVersion: storeVersion, target: target, index: index, ordered: &ordered, report: &report)
            if Self.prefersExchange(changed: sessions.temporaryCount, total: sessions.count) {
                exchanged = try exchangeSessions(sessions, barrier: barrier) == .exchanged
            }
            if !exchanged { try makeDurable(sessions, barrier: barrier) }
        } catch {
            removeTemporaries(sessions)
            throw error
        }
        if exchanged {
            // Outside the clean-up above: `exchangeFolder` is the old `sessions/` now, which must
            // stay if this fsync fails (a power loss could bring it back as `sessions/`).
            try syncStoreFolderAfterExchange()
            // Every document changed at once: no write order to keep, only changes to report
            // in that order if the report keeps documents (the moves and the order are built then only).
            if sessions.hasUnreportedChanges {
                _ = reportInWriteOrder(sessions, order: QueueBuilder.writeOrder(Self.moves(sessions, index: index)), report: &report)
            }
            return true
        }
        // Staged in the exchange folder and renamed out of it: what is left there once the renames
        // end (or fail) is links that an exchange the file system refused made to documents
        // `sessions/` holds, and the staged files not renamed.
        defer { if sessions.stagesInExchangeFolder { removeFolder(exchangeFolder) } }
        let order = QueueBuilder.writeOrder(Self.moves(sessions, index: index))
        try renameInWriteOrder(sessions, order: order, ordered: ordered, report: &report)
        return false
    }

    /// One work stream whose queue keys the resolved queue changes: where it is in the staged list,
    /// its new keys, and its temp file's token when staging wrote one.
    private struct MirrorWork: Sendable {
        var position: Int
        var id: UUID
        var keys: QueueKeys
        var temporary: UInt64?
        var inExchangeFolder: Bool
    }

    /// Applies the resolved queue's mirror keys: every work stream whose keys change is read,
    /// migrated and encoded again with them, and its temp file rewritten (or written). At 10,000
    /// work streams about a ninth of them can change here; they are worked on on every core
    /// (`ParallelBatches`), the results taken in list order, so the report and `ordered` are what
    /// a sequential loop gives. Every result is taken before the first error is thrown, so each
    /// temp file written is in `sessions` for the caller's clean-up.
    ///
    /// The work is listed `mirrorChunk` work streams of the staged list at a time, not for the whole
    /// list at once (~88 B a changed work stream: at 50,000 a sixth of the migration's heap peak).
    private func applyMirror(
        _ sessions: inout StagedList, storeVersion: Int, target: Int, index: QueueIndex,
        ordered: inout Set<UUID>, report: inout MigrationReport
    ) throws(StoreError) {
        var firstError: StoreError?
        var work: [MirrorWork] = []
        var start = 0
        while start < sessions.count {
            let end = min(start + Self.mirrorChunk, sessions.count)
            work.removeAll(keepingCapacity: true)
            for i in start..<end {
                let keys = sessions.keys(i)
                let new = index.mirror(for: sessions.id(i), current: keys)
                if new != keys {
                    work.append(
                        MirrorWork(
                            position: i, id: sessions.id(i), keys: new, temporary: sessions.temporary(i),
                            inExchangeFolder: sessions.stagesInExchangeFolder))
                }
            }
            try applyMirror(
                work, to: &sessions, storeVersion: storeVersion, target: target, index: index,
                ordered: &ordered, report: &report, firstError: &firstError)
            start = end
        }
        if let firstError { throw firstError }
    }

    /// How many work streams of the staged list `applyMirror` looks at per round of work.
    static let mirrorChunk = 4096

    /// One round of `applyMirror`: the work streams of `work`, in order; the first error is kept in `firstError`.
    private func applyMirror(
        _ work: [MirrorWork], to sessions: inout StagedList, storeVersion: Int, target: Int, index: QueueIndex,
        ordered: inout Set<UUID>, report: inout MigrationReport, firstError: inout StoreError?
    ) throws(StoreError) {
        try ParallelBatches.run(
            work, system: store.system,
            work: { (item) -> Result<(UInt64?, [Change]), StoreError> in
                do throws(StoreError) {
                    let bytes = try FileReader.read(store.file(store.workStreamFile(item.id)), system: store.system)
                    let encoded: [UInt8], changes: [Change]
                    if let fast = canonicalMigration(item.id, bytes, storeVersion: storeVersion, target: target, mirror: index) {
                        (encoded, changes) = (fast.migrated, fast.changes)
                    } else {
                        let document = try store.decodeWorkStream(item.id, bytes: bytes)
                        let (migrated, migratedChanges) = try migrateWorkStreamDocument(document, storeVersion: storeVersion, target: target, index: index)
                        (encoded, changes) = (migrated.encoded, migratedChanges)
                    }
                    if let token = item.temporary {
                        // Rewrite our own, still invisible temp file in place: no unlink that could fail and leave it.
                        try rewriteTemporary(temporaryPath(item.id, token: token, inExchangeFolder: item.inExchangeFolder), encoded)
                        return .success((nil, changes))
                    }
                    return .success((try writeTemporary(item.id, encoded, inExchangeFolder: item.inExchangeFolder), changes))
                } catch {
                    return .failure(error)
                }
            },
            consume: { (item, result) in
                let (i, new) = (item.position, item.keys)
                switch result {
                case .failure(let error):
                    if firstError == nil { firstError = error }
                case .success(let (written, changes)):
                    if let written { sessions.setTemporary(written, at: i) }
                    guard firstError == nil else { return }
                    let old = sessions.keys(i)
                    if old.isInQueue && new.isInQueue && old.queuePosition != new.queuePosition { ordered.insert(sessions.id(i)) }
                    if sessions.isCounted(i) {
                        report.appendMore(WorkStreamMigration.mirrorChanges(old: old, new: new))
                    } else {
                        sessions.setChanges(changes, at: i)
                    }
                }
            })
    }

    /// Each work stream's queue keys before and after the mirror (`QueueBuilder.writeOrder`'s input),
    /// built only where the write order is needed (1.4 MB at 10,000 work streams).
    private static func moves(_ sessions: StagedList, index: QueueIndex) -> [(id: UUID, old: QueueKeys, new: QueueKeys)] {
        var moves: [(id: UUID, old: QueueKeys, new: QueueKeys)] = []
        moves.reserveCapacity(sessions.count)
        for i in sessions.indices {
            let (id, keys) = (sessions.id(i), sessions.keys(i))
            moves.append((id, keys, index.mirror(for: id, current: keys)))
        }
        return moves
    }

    /// Reports the changes not counted when staged (kept for the per-document report, or found only
    /// when the mirror was applied), in write order. Returns the indices into `sessions` in that order.
    private func reportInWriteOrder(_ sessions: StagedList, order: [UUID], report: inout MigrationReport) -> [Int] {
        // Indices into `sessions`, in write order (not a reordered copy: at 10,000 work streams
        // that copy would be 1.7 MB of the migration's peak heap).
        let queue = Self.indices(of: sessions, in: order)
        for index in queue {
            let changes = sessions.changes(index)
            if !changes.isEmpty { report.append(DocumentChanges(file: StoreLayout.workStreamPath(sessions.id(index)), changes: changes)) }
        }
        return queue
    }

    private func migrateWorkStreamDocument(
        _ document: WorkStreamDocument, storeVersion: Int, target: Int,
        index: QueueIndex
    ) throws(StoreError) -> (WorkStreamDocument, [Change]) {
        do throws(SchemaError) { return try StoreMigration.migrateWorkStreamDocument(document, storeVersion: storeVersion, target: target, index: index) } catch
        {
            throw StoreError.document(error, path: store.file(StoreLayout.workStreamPath(document.fields.id)))
        }
    }

    /// One `syncfs` for all temp files (and everything else written) through `barrier`, opened
    /// before they were written, or an fsync of each temp file where it is not a barrier (their
    /// renames are made durable one by one after).
    func makeDurable(_ sessions: StagedList, barrier: borrowing FileDescriptor) throws(StoreError) {
        let context = ErrorContext("write", store.workStreamsDirectory)
        if try barrier.syncFileSystem(context: context) { return }
        for position in sessions.indices {
            guard let path = temporaryPath(sessions, position) else { continue }
            let fileContext = ErrorContext("write", path)
            let file = try FileDescriptor(opening: path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW, system: store.system, context: fileContext)
            try file.sync(context: fileContext)
        }
    }

    private func renameInWriteOrder(
        _ sessions: StagedList, order: [UUID], ordered: Set<UUID>,
        report: inout MigrationReport
    ) throws(StoreError) {
        let queue = reportInWriteOrder(sessions, order: order, report: &report)
        let context = ErrorContext("write", store.workStreamsDirectory)
        let fd: FileDescriptor
        do { fd = try AtomicFile.openDirectory(store.workStreamsDirectory, system: store.system, context: context) } catch {
            removeTemporaries(sessions, at: queue)  // nothing was renamed yet
            throw error
        }
        // The sessions whose FIFO position changes come first in the write order; each is renamed
        // and made durable before the next, so a v1 reader derives the same queue after each one.
        let split = queue.firstIndex { !ordered.contains(sessions.id($0)) } ?? queue.count
        for (index, sessionIndex) in queue[..<split].enumerated() {
            guard let temporary = temporaryPath(sessions, sessionIndex) else { continue }
            let target = store.file(StoreLayout.workStreamPath(sessions.id(sessionIndex)))
            do {
                try store.system.rename(temporary, to: target, context: ErrorContext("write", target))
                try fd.sync(context: context)
            } catch {
                // This session's temp file too: after a failed rename it is still there.
                removeTemporaries(sessions, at: queue[index...])
                throw error
            }
        }
        // The others may be renamed in any order (no v1-visible order depends on them). Their
        // paths are made as each is renamed, not listed up front (~1.5 MB at 10,000).
        let rest = queue[split...].filter { sessions.temporary($0) != nil }
        try ParallelRename.run(count: rest.count, system: store.system) { [self] i in
            (temporaryPath(sessions, rest[i])!, store.file(StoreLayout.workStreamPath(sessions.id(rest[i]))))
        }
        try fd.sync(context: context)
    }

    /// The index in `sessions` of each id of `order`, in that order (ids not staged are skipped).
    private static func indices(of sessions: StagedList, in order: [UUID]) -> [Int] {
        var position: [UUID: Int] = [:]
        position.reserveCapacity(sessions.count)
        for index in sessions.indices { position[sessions.id(index)] = index }
        return order.compactMap { position[$0] }
    }
}

/// Set once by any thread, read by all: "a document failed, stop producing temp files".
final class FailureFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Bool
    init(_ value: Bool) { self.value = value }
    var isSet: Bool { lock.guarded { value } }
    func set() { lock.guarded { value = true } }
}
