import Foundation
import StoreJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The chain's breaking step that renames the work streams' folder (its `LayoutEffect`; today
/// v3 → v4, spec §11) and its exact inverse, on disk: the work streams move between the step's two
/// folders (`sessions/` and `work-streams/`), and `store.json` says which folder is the store's.
/// The versions, folders and transforms are the step's (``Direction``); the folder is committed
/// by `FolderCommit`.
///
/// The commit order makes every instant readable by a reader of one side or of the other (never
/// neither), and lets the next run finish (`LayoutChange+Run.swift`); with today's chain:
///
/// | forward (4 → 5)                                   | a crash here leaves                         |
/// |---------------------------------------------------|---------------------------------------------|
/// | 1. stage every v5 document in `.staging-work-streams`, make it durable | a v4 store + a dot folder (ignored) |
/// | 2. rename it `work-streams`, fsync the store      | a v4 store + `work-streams/` (ignored by v4 readers) |
/// | 3. `store.json` → 5, `min_reader_version` 5, durable | a v5 store + `sessions/` (ignored by v5 readers) |
/// | 4. customisations, settings, `queue.json` → 5     | a v5 store with older small documents (read by v5 readers) |
/// | 5. `sessions/` renamed `.retired-work-streams`, removed | a v5 store + a dot folder |
///
/// The inverse mirrors it, with the small documents going back to 4 **before** `store.json` does
/// (a v4 reader refuses a version-5 document in a v4 store): stage `.staging-sessions`, rename it
/// `sessions`, small documents → 4, `store.json` → 4 (`min_reader_version` back to the chain's
/// oldest reader), retire `work-streams/`.
///
/// The folder that does not belong to `store.json`'s version is never trusted: a writer of the
/// store's version may have changed the other one since (a v3 app after a crash at step 2). So
/// every run first retires it and stages again from the folder `store.json` names. Staging
/// folders are dot-named leftovers, removed first too. All of this runs under the store's lock.
struct LayoutChange {
    /// One way across the chain's step that renames the work streams' folder
    /// (`MigrationChain.folderRenamingStep`): the step itself, or its inverse.
    enum Direction: Sendable {
        case forward, inverse

        /// The step of the chain this runs (its versions, transforms and folders).
        static var step: MigrationStep { MigrationChain.folderRenamingStep }

        var from: Int { self == .forward ? Self.step.from : Self.step.to }
        var to: Int { self == .forward ? Self.step.to : Self.step.from }
        /// The folder the work streams are read from.
        var sourceFolder: String { StoreLayout.workStreamsFolder(schemaVersion: from) }
        /// The folder the work streams are committed to.
        var targetFolder: String { StoreLayout.workStreamsFolder(schemaVersion: to) }
        /// The bookkeeping folder the documents are staged in.
        var stagingFolder: String { StoreLayout.Bookkeeping.staging(for: targetFolder) }

        /// The step's work-stream transform this way: the step forward, its inverse back.
        func migrate(_ document: WorkStreamDocument, context: StepContext) throws(SchemaError) -> (WorkStreamDocument, [Change]) {
            switch self {
            case .forward: return try Self.step.migrate(document, context: context)
            case .inverse:
                guard let inverse = Self.step.inverse else { preconditionFailure("LayoutChange: the folder-renaming step is breaking and has an inverse") }
                return try inverse.migrate(document, context: context)
            }
        }
    }

    let path: String
    let system: SystemCalls

    /// The layout change a store at `from` takes to reach `target`, when it is at v4 or v5 and
    /// the target is on the other side; nil otherwise (a store below v4 reaches v4 first).
    static func direction(from: Int, to target: Int) -> Direction? {
        if from == Direction.forward.from && target == Direction.forward.to { return .forward }
        if from == Direction.inverse.from && target == Direction.inverse.to { return .inverse }
        return nil
    }

    func file(_ relative: String) -> String {
        relative.split(separator: "/").reduce(path) { joinPath($0, String($1)) }
    }

    /// `store.json` of a v4 or v5 store (read whatever its `min_reader_version`: this is the code
    /// that moves the store between them).
    func manifest() throws(StoreError) -> ManifestV2 {
        let bytes = try FileReader.read(file(StoreLayout.manifest), system: system)
        do { return try ManifestV2(json: try DocumentVersion.parse(bytes), acceptingNewerVersions: true) } catch {
            throw StoreError.document(error, path: file(StoreLayout.manifest))
        }
    }

    /// `queue.json`, as the index the step and its inverse use (an absent one is an empty queue).
    func queue() throws(StoreError) -> QueueV2? {
        try readIfPresent(StoreLayout.queue) { (b) throws(SchemaError) in try QueueV2(bytes: b, acceptingNewerVersions: true) }
    }

    func readIfPresent<T>(_ relative: String, _ decode: ([UInt8]) throws(SchemaError) -> T) throws(StoreError) -> T? {
        let bytes: [UInt8]
        do { bytes = try FileReader.read(file(relative), system: system) } catch  where error.code == .notFound { return nil }
        do { return try decode(bytes) } catch { throw StoreError.document(error, path: file(relative)) }
    }

    /// One work stream, moved one way: read from the folder of `direction.from`, checked, transformed.
    func transform(_ id: UUID, _ direction: Direction, queue: QueueIndex) throws(StoreError) -> (bytes: [UInt8], mode: mode_t, changes: [Change]) {
        let relative = StoreLayout.workStreamPath(id, schemaVersion: direction.from)
        let source = file(relative)
        let context = ErrorContext("read", source)
        guard let status = try system.linkStatus(source, context: context), status.type == .regular else {
            throw StoreError(.invalidDocument, "Can't read '\(source)': it is not a regular file. Move it out of the store.", path: source)
        }
        let bytes = try FileReader.read(source, system: system)
        do throws(SchemaError) {
            let context = StepContext(writtenByOlderWriter: false, queue: queue)
            let document = try WorkStreamDocument(bytes: bytes, frozenVersion: direction.from)
            let (moved, changes) = try direction.migrate(document, context: context)
            guard document.fields.id == id else {
                throw SchemaError(
                    code: .invalidValue, keyPath: "id", expected: id.lowercased, found: document.fields.id.lowercased,
                    detail: "the id inside must equal the file name; rename the file or fix the id by hand")
            }
            return (moved.encoded, status.permissions, changes)
        } catch {
            throw StoreError.document(error, path: source)
        }
    }
}
