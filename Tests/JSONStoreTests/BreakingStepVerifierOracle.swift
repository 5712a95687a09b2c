import Foundation
import StoreJSON

@testable import JSONStore

/// `BreakingStepVerifier` as it was before it streamed (the backup's documents in one
/// `StoreSnapshot`), kept as the test oracle of the streaming one (`BackupChainDifferentialTests`).
/// The production code of commit 93ba574, unchanged but for its names (with
/// the folder rename spelled as `MigrationChain.folderRenamingStep`, and its own reads of
/// `store.json` and `queue.json` by path).
struct BreakingStepVerifierOracle: Sendable {
    let path: String
    /// The backup's documents: at v4 for the step, at v5 for the inverse; nil checks the store alone.
    let backup: StoreSnapshot?
    let system: SystemCalls

    init(path: String, against backup: StoreSnapshot?) {
        self.path = path; self.backup = backup; self.system = .real
    }

    typealias Result = BreakingStepVerifier.Result

    /// Runs every check. `progress` is told `.phase(.verifyingStore, …)` on the calling thread,
    /// once the work streams to check are listed (the store's; the backup's for the inverse) and
    /// after each.
    func verify(progress: (StoreProgress) -> Void = { _ in }) throws(StoreError) -> Result {
        try withoutActuallyEscaping(progress) { (progress) throws(StoreError) in try verify(reporting: progress) }
    }

    private func verify(reporting progress: @escaping (StoreProgress) -> Void) throws(StoreError) -> Result {
        let layout = Layout(path: path, system: system)
        let manifest = try layout.manifest()
        if manifest.schemaVersion < MigrationChain.folderRenamingStep.to { return try verifyInverse(layout, progress: progress) }
        var result = Result()
        let header = ManifestHeader(schemaVersion: manifest.schemaVersion, minReaderVersion: manifest.minReaderVersion)
        for reader in MigrationChain.oldest..<MigrationChain.minReaderVersion(at: manifest.schemaVersion) {
            let compatibility = header.compatibility(reader: reader)
            result.readers.append((reader, compatibility.refusal != nil, compatibility.refusal ?? "opens the store"))
        }
        let backupIsV3 = backup?.manifest.schemaVersion == MigrationChain.folderRenamingStep.from
        // The step is taken with the backup's queue: the store's own could hide a changed queue.
        let queue = QueueIndex((backupIsV3 ? backup?.queue : try layout.queue()) ?? QueueV2(schemaVersion: manifest.schemaVersion))
        let folder = joinPath(path, StoreLayout.workStreamsFolder(schemaVersion: manifest.schemaVersion))
        let listing = try DocumentListing.listDocumentFolder(folder, system: system)
        result.unreadable += listing.invalid.map(\.error)
        let ids = listing.ids.compactMap { UUIDText.parse($0.rawValue) }
        result.comparedWithBackup = backupIsV3
        guard let inverse = MigrationChain.folderRenamingStep.inverse else { preconditionFailure("the folder-renaming step is breaking and has an inverse") }
        var counter = PhaseCounter(.verifyingStore, total: ids.count, report: progress)
        for id in ids {
            defer { counter.step() }
            let relative = StoreLayout.workStreamPath(id, schemaVersion: manifest.schemaVersion)
            let stored: WorkStreamV5
            do throws(StoreError) {
                let bytes = try FileReader.read(layout.file(relative), system: system)
                do throws(SchemaError) { stored = try WorkStreamV5(bytes: bytes, acceptingNewerVersions: true) } catch {
                    throw StoreError.document(error, path: layout.file(relative))
                }
            } catch {
                result.unreadable.append(error)
                continue
            }
            result.checked += 1
            let context = StepContext(writtenByOlderWriter: false, queue: queue)
            do throws(SchemaError) {
                if backupIsV3, let backup {
                    let original: WorkStreamV3
                    switch Self.backupDocument(backup, id) {
                    case .success(.v3(let document)): original = document
                    case .success:
                        result.failures.append("\(relative): not in the backup as a v\(MigrationChain.folderRenamingStep.from) work stream"); continue
                    case .failure(let error): result.failures.append("\(relative): the backup's document can't be read: \(error.message)"); continue
                    }
                    let (forward, changes) = try MigrationChain.folderRenamingStep.migrate(.v3(original), context: context)
                    if forward.encoded != stored.encoded { result.failures.append("\(relative): is not the step applied to the backup's document") }
                    let (back, _) = try inverse.migrate(.v5(stored), context: context)
                    let stale = changes.compactMap { if case .staleMirrorKey(let key, _) = $0 { key } else { nil } }
                    result.normalisations += stale.count
                    if Self.withoutKeys(stale, back) != Self.withoutKeys(stale, .v3(original)) {
                        result.failures.append(
                            "\(relative): the inverse does not give back the backup's document (apart from \(stale.count) reported normalisation(s))")
                    }
                } else {
                    let (back, _) = try inverse.migrate(.v5(stored), context: context)
                    let (again, changes) = try MigrationChain.folderRenamingStep.migrate(back, context: context)
                    if again.encoded != stored.encoded || changes.contains(where: { if case .staleMirrorKey = $0 { true } else { false } }) {
                        result.failures.append("\(relative): step(inverse(d)) differs from d")
                    }
                }
            } catch {
                result.failures.append("\(relative): \(error)")
            }
        }
        if backupIsV3, let backup {
            let present = Set(ids)
            for id in backup.sessions.keys.sorted(by: { $0.lowercased < $1.lowercased }) where !present.contains(id) {
                result.failures.append("\(StoreLayout.workStreamPath(id, schemaVersion: manifest.schemaVersion)): in the backup but not in the store")
            }
        }
        return result
    }

    /// A v4 store against the v5 backup taken before the inverse: the store holds exactly
    /// `inverse(e)` for each work stream `e` of the backup, and `step(inverse(e)) == e`.
    private func verifyInverse(_ layout: Layout, progress: @escaping (StoreProgress) -> Void) throws(StoreError) -> Result {
        var result = Result()
        result.inverse = true
        guard let backup, backup.manifest.schemaVersion >= MigrationChain.folderRenamingStep.to else { return result }
        result.comparedWithBackup = true
        let queue = QueueIndex(backup.queue ?? QueueV2(schemaVersion: MigrationChain.folderRenamingStep.to))
        let context = StepContext(writtenByOlderWriter: false, queue: queue)
        guard let inverse = MigrationChain.folderRenamingStep.inverse else { preconditionFailure("the folder-renaming step is breaking and has an inverse") }
        let listing = try DocumentListing.listDocumentFolder(joinPath(path, StoreLayout.workStreamsFolder), system: system)
        result.unreadable += listing.invalid.map(\.error)
        let ids = Set(listing.ids.compactMap { UUIDText.parse($0.rawValue) })
        let backupIDs = backup.sessions.keys.sorted { $0.lowercased < $1.lowercased }
        var counter = PhaseCounter(.verifyingStore, total: backupIDs.count, report: progress)
        for id in backupIDs {
            defer { counter.step() }
            let relative = StoreLayout.workStreamPath(id, schemaVersion: MigrationChain.folderRenamingStep.from)
            guard ids.contains(id) else {
                result.failures.append("\(relative): in the backup but not in the store")
                continue
            }
            let stored: WorkStreamV3
            do throws(StoreError) {
                let bytes = try FileReader.read(layout.file(relative), system: system)
                do throws(SchemaError) {
                    guard case .v3(let document) = try WorkStreamDocument(bytes: bytes, frozenVersion: MigrationChain.folderRenamingStep.from) else {
                        throw SchemaError(
                            code: .unsupportedVersion, keyPath: "schema_version", detail: "not a work stream of the version before the breaking step")
                    }
                    stored = document
                } catch { throw StoreError.document(error, path: layout.file(relative)) }
            } catch {
                result.unreadable.append(error)
                continue
            }
            result.checked += 1
            do throws(SchemaError) {
                let original: WorkStreamV5
                switch Self.backupDocument(backup, id) {
                case .success(.v5(let document)): original = document
                case .success: result.failures.append("\(relative): not in the backup as a v\(MigrationChain.folderRenamingStep.to) work stream"); continue
                case .failure(let error): result.failures.append("\(relative): the backup's document can't be read: \(error.message)"); continue
                }
                let (back, _) = try inverse.migrate(.v5(original), context: context)
                if back.encoded != stored.encoded { result.failures.append("\(relative): is not the inverse applied to the backup's document") }
                let (again, changes) = try MigrationChain.folderRenamingStep.migrate(.v3(stored), context: context)
                if again.encoded != original.encoded || changes.contains(where: { if case .staleMirrorKey = $0 { true } else { false } }) {
                    result.failures.append("\(relative): the step does not give back the backup's document")
                }
            } catch {
                result.failures.append("\(relative): \(error)")
            }
        }
        for id in ids.subtracting(backupIDs).sorted(by: { $0.lowercased < $1.lowercased }) {
            result.failures.append(
                "\(StoreLayout.workStreamPath(id, schemaVersion: MigrationChain.folderRenamingStep.from)): in the store but not in the backup")
        }
        return result
    }

    /// The backup's work stream `id`, or why it is missing (reported as a failed check, never hidden).
    private static func backupDocument(_ backup: StoreSnapshot, _ id: UUID) -> Swift.Result<WorkStreamDocument, StoreError> {
        guard let document = backup.sessions[id] else {
            return .failure(StoreError(.notFound, "the work stream is not in the backup", path: StoreLayout.workStreamPath(id)))
        }
        return .success(document)
    }

    /// The document's JSON without `keys` (the values the step normalised).
    private static func withoutKeys(_ keys: [String], _ document: WorkStreamDocument) -> JSONValue {
        guard case .object(var object) = document.json else { return document.json }
        for key in keys { object[key] = nil }
        return .object(object)
    }
}

/// Reads of `store.json` and `queue.json` by path, whatever `min_reader_version` says.
private struct Layout {
    let path: String
    let system: SystemCalls

    func file(_ relative: String) -> String {
        relative.split(separator: "/").reduce(path) { joinPath($0, String($1)) }
    }

    func manifest() throws(StoreError) -> ManifestV2 {
        let bytes = try FileReader.read(file(StoreLayout.manifest), system: system)
        do { return try ManifestV2(json: try DocumentVersion.parse(bytes), acceptingNewerVersions: true) } catch {
            throw StoreError.document(error, path: file(StoreLayout.manifest))
        }
    }

    func queue() throws(StoreError) -> QueueV2? {
        let bytes: [UInt8]
        do { bytes = try FileReader.read(file(StoreLayout.queue), system: system) } catch  where error.code == .notFound { return nil }
        do { return try QueueV2(bytes: bytes, acceptingNewerVersions: true) } catch { throw StoreError.document(error, path: file(StoreLayout.queue)) }
    }
}
