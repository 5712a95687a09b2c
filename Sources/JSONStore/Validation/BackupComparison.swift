import Foundation
import StoreJSON

/// `verify --against` (spec §7 (b), §9): every document of the store (work streams,
/// customisations, `settings.json`, `queue.json`, and `store.json`'s `created_at`) against the
/// backup taken through the chain to the store's version (`BackupChain`), one document at a time.
/// Any difference is one finding per document, naming it and the values that differ.
package struct BackupComparison: Sendable {
    /// One document that differs.
    package struct Difference: Sendable, Hashable {
        /// The document's path in the store (`user-sessions/<id>.json`, `queue.json`).
        package var file: String
        package var reason: String
    }

    /// What the comparison covered and found.
    package struct Result: Sendable {
        /// The backup's version and the store's, which the chain joined.
        package var backupVersion: Int
        package var storeVersion: Int
        /// Documents compared by kind (present on either side).
        package var workStreams = 0
        package var customisations = 0
        package var settings = false
        package var queue = false
        package var differences: [Difference] = []
        package var passed: Bool { differences.isEmpty }
    }

    /// Compares `store` with `expected`, the backup taken to the store's version, one document at
    /// a time: each work stream (the union of the store's ids and the backup's, in id order) is
    /// read from the store and from the backup, the backup's taken through the chain, compared
    /// and dropped, on every core (one pair of documents per worker); then each customisation,
    /// `settings.json` and `queue.json` likewise. Memory holds the two id lists, the findings and
    /// what `expected` holds (see `BackupChain`), never every document.
    ///
    /// - Throws: a failed listing or `store.json` read of the store; any error of `expected` (a
    ///   failed read of the backup, or a `BackupChain.ChainFailure` as the `underlying` of a
    ///   `StoreError`). A document of the store that can't be read is a difference, not an error.
    package static func compare(_ store: Store, expected: BackupChain) throws(StoreError) -> Result {
        let version = store.compatibility.storeSchemaVersion
        var result = Result(backupVersion: expected.version, storeVersion: version)
        let side = "the backup taken to v\(version)"
        if case .object(let manifest) = try store.manifest().json, case .object(let wanted) = expected.manifest.json,
            manifest["created_at"] != wanted["created_at"]
        {
            result.differences.append(
                Difference(
                    file: StoreLayout.manifest,
                    reason: "created_at is \(manifest["created_at"]?.briefDescription ?? "absent") "
                        + "in the store, \(wanted["created_at"]?.briefDescription ?? "absent") in the backup: a backup of another store"))
        }
        let ids = try store.workStreamIDs()
        for problem in ids.problems { result.differences.append(unreadable(problem.path ?? store.path, problem)) }
        let present = Set(ids.items)
        let inBackup = Set(expected.workStreamIDs)
        let all = Self.sorted(present.union(inBackup))
        result.workStreams = all.count
        try ParallelBatches.run(
            all, system: store.system,
            work: { (id) -> Swift.Result<Difference?, StoreError> in
                let file = StoreLayout.workStreamPath(id, schemaVersion: version)
                let wanted: JSONValue?
                do throws(StoreError) { wanted = inBackup.contains(id) ? try expected.workStream(id)?.json : nil } catch { return .failure(error) }
                guard present.contains(id) else { return .success(difference(file, nil, wanted, side: side)) }
                do throws(StoreError) { return .success(difference(file, try store.workStream(id).json, wanted, side: side)) } catch {
                    return .success(unreadable(file, error))
                }
            },
            consume: { (_, outcome) throws(StoreError) in
                if let difference = try outcome.get() { result.differences.append(difference) }
            })
        // The store's customisations that can't be read come first, in the order of their names
        // (as the listing gives them), then the differences in id order: the same order as one
        // list of every readable customisation would give.
        let listing = try DocumentIDListing.listDocumentFolder(store.customisationsDirectory, system: store.system)
        var customisationProblems = listing.invalid.map { unreadable($0.error.path ?? store.path, $0.error) }
        var customisationDifferences: [Difference] = []
        let storedCustomisations = Set(listing.ids)
        let backupCustomisations = Set(expected.customisationIDs)
        for id in Self.sorted(storedCustomisations.union(backupCustomisations)) {
            let file = StoreLayout.customisationPath(id)
            var stored: Customisation?
            if storedCustomisations.contains(id) {
                do throws(StoreError) { stored = try store.customisation(id) } catch {
                    customisationProblems.append(unreadable(error.path ?? store.path, error))
                }
            }
            guard stored != nil || backupCustomisations.contains(id) else { continue }
            result.customisations += 1
            let wanted = backupCustomisations.contains(id) ? try expected.customisation(id) : nil
            if let difference = difference(file, stored?.json, wanted?.json, side: side) { customisationDifferences.append(difference) }
        }
        result.differences += customisationProblems + customisationDifferences
        let newer = store.acceptsNewerDocuments
        let wantedSettings = try expected.settings()
        do throws(StoreError) {
            let settings = try store.readIfPresent(StoreLayout.settings) { (b) throws(SchemaError) in try Settings(bytes: b, acceptingNewerVersions: newer) }
            result.settings = settings != nil || wantedSettings != nil
            if let difference = difference(StoreLayout.settings, settings?.json, wantedSettings?.json, side: side) { result.differences.append(difference) }
        } catch { result.differences.append(unreadable(StoreLayout.settings, error)) }
        do throws(StoreError) {
            let queue = try store.queueDocument()
            result.queue = queue != nil || expected.queue != nil
            if let difference = difference(StoreLayout.queue, queue?.json, expected.queue?.json, side: side) { result.differences.append(difference) }
        } catch { result.differences.append(unreadable(StoreLayout.queue, error)) }
        return result
    }

    /// The finding for `file` when `actual` (the store's document) and `wanted` (the backup's,
    /// taken to the store's version) differ, nil when they are equal; nil stands for an absent
    /// document. At most three values are named, then how many more differ.
    package static func difference(_ file: String, _ actual: JSONValue?, _ wanted: JSONValue?, side: String) -> Difference? {
        switch (actual, wanted) {
        case (nil, nil): return nil
        case (nil, _?): return Difference(file: file, reason: "in the backup but not in the store")
        case (_?, nil): return Difference(file: file, reason: "in the store but not in the backup")
        case (let actual?, let wanted?):
            var reasons: [String] = []
            describe(actual, wanted, at: "", side: side, into: &reasons)
            guard !reasons.isEmpty else { return nil }
            let shown = reasons.prefix(3).joined(separator: "; ") + (reasons.count > 3 ? "; and \(reasons.count - 3) more" : "")
            return Difference(file: file, reason: shown)
        }
    }

    /// The finding for a document of the store that can't be read.
    package static func unreadable(_ file: String, _ error: StoreError) -> Difference {
        Difference(file: file, reason: "can't be read, so it can't be compared: \(error.message)")
    }

    package static func sorted(_ ids: Set<UUID>) -> [UUID] { ids.sorted { $0.lowercased < $1.lowercased } }

    /// Each value that differs between `actual` (the store's) and `wanted` (the backup's), by key
    /// path (`custom_name`, `fifo[0].work_stream_id`), with both values.
    static func describe(_ actual: JSONValue, _ wanted: JSONValue, at path: String, side: String, into out: inout [String]) {
        guard actual != wanted else { return }
        let name = path.isEmpty ? "the document" : path
        switch (actual, wanted) {
        case (.object(let a), .object(let w)):
            for key in Set(a.keys).union(w.keys).sorted() {
                let child = path.isEmpty ? key : path + "." + key
                switch (a[key], w[key]) {
                case (let x?, let y?): describe(x, y, at: child, side: side, into: &out)
                case (nil, let y?): out.append("\(child) is absent in the store, \(y.briefDescription) in \(side)")
                case (let x?, nil): out.append("\(child) is \(x.briefDescription) in the store, absent in \(side)")
                case (nil, nil): continue
                }
            }
        case (.array(let a), .array(let w)) where a.count == w.count:
            for index in a.indices { describe(a[index], w[index], at: "\(path)[\(index)]", side: side, into: &out) }
        case (.array(let a), .array(let w)):
            out.append("\(name) has \(a.count) entries in the store, \(w.count) in \(side)")
        default:
            out.append("\(name) is \(actual.briefDescription) in the store, \(wanted.briefDescription) in \(side)")
        }
    }
}
