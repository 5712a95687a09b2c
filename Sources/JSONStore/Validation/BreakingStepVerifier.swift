import Foundation
import StoreJSON

/// `verify` on a store past a breaking step (spec §9): per work stream, the round trip through
/// the step's exact inverse, against the backup taken before it; and the reader rule of §4 for
/// every older reader, which must be refused.
///
/// With the backup at v4 (one of v1 to v4 taken there by the chain, `BackupChain`), each work
/// stream `d` of it must satisfy: the store holds exactly `step(d)` (given the backup's queue),
/// and `inverse(step(d))` equals `d` except the normalisations the step reports for it (stale
/// mirror values). Without one, each v5 document `e` must satisfy `step(inverse(e)) == e` with
/// nothing to normalise. `BackupComparison` compares the other documents.
///
/// One work stream at a time: memory holds the ids of the store's work streams, the findings,
/// the queue, and what the backup's `BackupChain` holds (its ids and queue); each document of the
/// store and the backup's document of the same id are read, checked and dropped.
///
/// The step is `MigrationChain.folderRenamingStep` and its `inverse`. `store.json` and
/// `queue.json` are read by path, whatever `min_reader_version` says: the verifier checks both
/// sides of the step.
package struct BreakingStepVerifier: Sendable {
    package let path: String
    /// The backup, read one document at a time: taken to v4 for the step, at v5 (as it is) for the
    /// inverse; nil checks the store alone.
    package let backup: BackupChain?
    let system: SystemCalls

    package init(path: String, against backup: BackupChain?) {
        self.path = path; self.backup = backup; self.system = .real
    }

    package struct Result: Sendable {
        /// Documents that could not be read.
        package var unreadable: [StoreError] = []
        /// Work streams whose round trip failed, each with its reason.
        package var failures: [String] = []
        /// Work streams checked.
        package var checked = 0
        /// Normalisations the step reported on the way (allowed differences).
        package var normalisations = 0
        /// Older readers and whether the store refuses each (it must).
        package var readers: [(reader: Int, refused: Bool, message: String)] = []
        /// True when compared with a v4 backup (the step), or a v5 one (the inverse).
        package var comparedWithBackup = false
        /// True for a v4 store checked against the v5 backup taken before the inverse.
        package var inverse = false
        package var passed: Bool { unreadable.isEmpty && failures.isEmpty && readers.allSatisfy(\.refused) }
    }

    /// Runs every check. `progress` is told `.phase(.verifyingStore, …)` on the calling thread,
    /// once the work streams to check are listed (the store's; the backup's for the inverse) and
    /// after each.
    package func verify(progress: (StoreProgress) -> Void = { _ in }) throws(StoreError) -> Result {
        try withoutActuallyEscaping(progress) { (progress) throws(StoreError) in try verify(reporting: progress) }
    }

    /// The breaking step that renames the work streams' folder, checked forward and back.
    private static var step: MigrationStep { MigrationChain.folderRenamingStep }

    /// The step's inverse.
    private static var inverse: InverseStep {
        guard let inverse = step.inverse else { preconditionFailure("the folder-renaming step is breaking and has an inverse") }
        return inverse
    }

    private func verify(reporting progress: @escaping (StoreProgress) -> Void) throws(StoreError) -> Result {
        let manifest = try readManifest()
        if manifest.schemaVersion < Self.step.to { return try verifyInverse(progress: progress) }
        var result = Result()
        let header = ManifestHeader(schemaVersion: manifest.schemaVersion, minReaderVersion: manifest.minReaderVersion)
        for reader in MigrationChain.oldest..<MigrationChain.minReaderVersion(at: manifest.schemaVersion) {
            let compatibility = header.compatibility(reader: reader)
            result.readers.append((reader, compatibility.refusal != nil, compatibility.refusal ?? "opens the store"))
        }
        let backupIsV4 = backup?.manifest.schemaVersion == Self.step.from
        // The step is taken with the backup's queue: the store's own could hide a changed queue.
        let queue = QueueIndex((backupIsV4 ? backup?.queue : try readQueue()) ?? QueueV2(schemaVersion: manifest.schemaVersion))
        let folder = joinPath(path, StoreLayout.workStreamsFolder(schemaVersion: manifest.schemaVersion))
        let listing = try DocumentListing.listDocumentFolder(folder, system: system)
        result.unreadable += listing.invalid.map(\.error)
        let ids = listing.ids.compactMap { UUIDText.parse($0.rawValue) }
        result.comparedWithBackup = backupIsV4
        var counter = PhaseCounter(.verifyingStore, total: ids.count, report: progress)
        for id in ids {
            defer { counter.step() }
            let relative = StoreLayout.workStreamPath(id, schemaVersion: manifest.schemaVersion)
            let stored: WorkStreamV5
            do throws(StoreError) {
                let bytes = try FileReader.read(file(relative), system: system)
                do throws(SchemaError) { stored = try WorkStreamV5(bytes: bytes, acceptingNewerVersions: true) } catch {
                    throw StoreError.document(error, path: file(relative))
                }
            } catch {
                result.unreadable.append(error)
                continue
            }
            result.checked += 1
            let context = StepContext(writtenByOlderWriter: false, queue: queue)
            if backupIsV4, let backup {
                let original: WorkStreamV3
                // Read now, taken to v4 by the chain; an error of the backup's is thrown, not a finding.
                switch try backup.workStream(id) {
                case .v3(let document)?: original = document
                case _?: result.failures.append("\(relative): not in the backup as a v\(Self.step.from) work stream"); continue
                case nil: result.failures.append("\(relative): the backup's document can't be read: \(Self.notInBackup(id).message)"); continue
                }
                do throws(SchemaError) {
                    let (forward, changes) = try Self.step.migrate(.v3(original), context: context)
                    if forward.encoded != stored.encoded { result.failures.append("\(relative): is not the step applied to the backup's document") }
                    let (back, _) = try Self.inverse.migrate(.v5(stored), context: context)
                    let stale = changes.compactMap { if case .staleMirrorKey(let key, _) = $0 { key } else { nil } }
                    result.normalisations += stale.count
                    if Self.withoutKeys(stale, back) != Self.withoutKeys(stale, .v3(original)) {
                        result.failures.append(
                            "\(relative): the inverse does not give back the backup's document (apart from \(stale.count) reported normalisation(s))")
                    }
                } catch {
                    result.failures.append("\(relative): \(error)")
                }
            } else {
                do throws(SchemaError) {
                    let (back, _) = try Self.inverse.migrate(.v5(stored), context: context)
                    let (again, changes) = try Self.step.migrate(back, context: context)
                    if again.encoded != stored.encoded || changes.contains(where: { if case .staleMirrorKey = $0 { true } else { false } }) {
                        result.failures.append("\(relative): step(inverse(d)) differs from d")
                    }
                } catch {
                    result.failures.append("\(relative): \(error)")
                }
            }
        }
        if backupIsV4, let backup {
            let present = Set(ids)
            for id in backup.workStreamIDs.sorted(by: { $0.lowercased < $1.lowercased }) where !present.contains(id) {
                result.failures.append("\(StoreLayout.workStreamPath(id, schemaVersion: manifest.schemaVersion)): in the backup but not in the store")
            }
        }
        return result
    }

    /// A v4 store against the v5 backup taken before the inverse: the store holds exactly
    /// `inverse(e)` for each work stream `e` of the backup, and `step(inverse(e)) == e`.
    private func verifyInverse(progress: @escaping (StoreProgress) -> Void) throws(StoreError) -> Result {
        var result = Result()
        result.inverse = true
        guard let backup, backup.manifest.schemaVersion >= Self.step.to else { return result }
        result.comparedWithBackup = true
        let queue = QueueIndex(backup.queue ?? QueueV2(schemaVersion: Self.step.to))
        let context = StepContext(writtenByOlderWriter: false, queue: queue)
        let listing = try DocumentListing.listDocumentFolder(joinPath(path, StoreLayout.workStreamsFolder), system: system)
        result.unreadable += listing.invalid.map(\.error)
        let ids = Set(listing.ids.compactMap { UUIDText.parse($0.rawValue) })
        let backupIDs = backup.workStreamIDs.sorted { $0.lowercased < $1.lowercased }
        var counter = PhaseCounter(.verifyingStore, total: backupIDs.count, report: progress)
        for id in backupIDs {
            defer { counter.step() }
            let relative = StoreLayout.workStreamPath(id, schemaVersion: Self.inverse.to)
            guard ids.contains(id) else {
                result.failures.append("\(relative): in the backup but not in the store")
                continue
            }
            let stored: WorkStreamV3
            do throws(StoreError) {
                let bytes = try FileReader.read(file(relative), system: system)
                do throws(SchemaError) {
                    guard case .v3(let document) = try WorkStreamDocument(bytes: bytes, frozenVersion: Self.inverse.to) else {
                        throw SchemaError(
                            code: .unsupportedVersion, keyPath: "schema_version", detail: "not a work stream of the version before the breaking step")
                    }
                    stored = document
                } catch { throw StoreError.document(error, path: file(relative)) }
            } catch {
                result.unreadable.append(error)
                continue
            }
            result.checked += 1
            let original: WorkStreamV5
            // Read now, as the backup has it; an error of the backup's is thrown, not a finding.
            switch try backup.workStream(id) {
            case .v5(let document)?: original = document
            case _?: result.failures.append("\(relative): not in the backup as a v\(Self.step.to) work stream"); continue
            case nil: result.failures.append("\(relative): the backup's document can't be read: \(Self.notInBackup(id).message)"); continue
            }
            do throws(SchemaError) {
                let (back, _) = try Self.inverse.migrate(.v5(original), context: context)
                if back.encoded != stored.encoded { result.failures.append("\(relative): is not the inverse applied to the backup's document") }
                let (again, changes) = try Self.step.migrate(.v3(stored), context: context)
                if again.encoded != original.encoded || changes.contains(where: { if case .staleMirrorKey = $0 { true } else { false } }) {
                    result.failures.append("\(relative): the step does not give back the backup's document")
                }
            } catch {
                result.failures.append("\(relative): \(error)")
            }
        }
        for id in ids.subtracting(backupIDs).sorted(by: { $0.lowercased < $1.lowercased }) {
            result.failures.append("\(StoreLayout.workStreamPath(id, schemaVersion: Self.inverse.to)): in the store but not in the backup")
        }
        return result
    }

    /// Why the backup's work stream `id` is missing (reported as a failed check, never hidden).
    private static func notInBackup(_ id: UUID) -> StoreError {
        StoreError(.notFound, "the work stream is not in the backup", path: StoreLayout.workStreamPath(id))
    }

    /// The document's JSON without `keys` (the values the step normalised).
    private static func withoutKeys(_ keys: [String], _ document: WorkStreamDocument) -> JSONValue {
        guard case .object(var object) = document.json else { return document.json }
        for key in keys { object[key] = nil }
        return .object(object)
    }

    private func file(_ relative: String) -> String {
        relative.split(separator: "/").reduce(path) { joinPath($0, String($1)) }
    }

    /// `store.json` of a v4 or v5 store, whatever its `min_reader_version`.
    private func readManifest() throws(StoreError) -> ManifestV2 {
        let bytes = try FileReader.read(file(StoreLayout.manifest), system: system)
        do { return try ManifestV2(json: try DocumentVersion.parse(bytes), acceptingNewerVersions: true) } catch {
            throw StoreError.document(error, path: file(StoreLayout.manifest))
        }
    }

    /// `queue.json`, or nil when the store has none.
    private func readQueue() throws(StoreError) -> QueueV2? {
        let bytes: [UInt8]
        do { bytes = try FileReader.read(file(StoreLayout.queue), system: system) } catch  where error.code == .notFound { return nil }
        do { return try QueueV2(bytes: bytes, acceptingNewerVersions: true) } catch { throw StoreError.document(error, path: file(StoreLayout.queue)) }
    }
}
