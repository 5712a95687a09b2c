import Foundation
import StoreJSON

/// `verify --against` (spec §7 (b), §9): every document of the store (work streams,
/// customisations, `settings.json`, `queue.json`, and `store.json`'s `created_at`) against the
/// backup taken through the chain to the store's version (`BackupChain`). Any difference is one
/// finding per document, naming it and the values that differ.
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

    /// Compares `store` with `expected`, the backup (at `backupVersion`) taken to the store's version.
    package static func compare(_ store: Store, expected: StoreSnapshot, backupVersion: Int) throws(StoreError) -> Result {
        let version = store.compatibility.storeSchemaVersion
        var result = Result(backupVersion: backupVersion, storeVersion: version)
        let side = "the backup taken to v\(version)"
        func differ(_ file: String, _ actual: JSONValue?, _ wanted: JSONValue?) {
            switch (actual, wanted) {
            case (nil, nil): return
            case (nil, _?): result.differences.append(Difference(file: file, reason: "in the backup but not in the store"))
            case (_?, nil): result.differences.append(Difference(file: file, reason: "in the store but not in the backup"))
            case (let actual?, let wanted?):
                var reasons: [String] = []
                describe(actual, wanted, at: "", side: side, into: &reasons)
                guard !reasons.isEmpty else { return }
                let shown = reasons.prefix(3).joined(separator: "; ") + (reasons.count > 3 ? "; and \(reasons.count - 3) more" : "")
                result.differences.append(Difference(file: file, reason: shown))
            }
        }
        func unreadable(_ file: String, _ error: StoreError) {
            result.differences.append(Difference(file: file, reason: "can't be read, so it can't be compared: \(error.message)"))
        }
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
        for problem in ids.problems { unreadable(problem.path ?? store.path, problem) }
        let present = Set(ids.items)
        for id in Self.sorted(present.union(expected.sessions.keys)) {
            result.workStreams += 1
            let file = StoreLayout.workStreamPath(id, schemaVersion: version)
            guard present.contains(id) else { differ(file, nil, expected.sessions[id]?.json); continue }
            do throws(StoreError) { differ(file, try store.workStream(id).json, expected.sessions[id]?.json) } catch { unreadable(file, error) }
        }
        let customisations = try store.customisations()
        for problem in customisations.problems { unreadable(problem.path ?? store.path, problem) }
        let stored = Dictionary(customisations.items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in Self.sorted(Set(stored.keys).union(expected.userSessions.keys)) {
            result.customisations += 1
            differ(StoreLayout.customisationPath(id), stored[id]?.json, expected.userSessions[id]?.json)
        }
        let newer = store.acceptsNewerDocuments
        do throws(StoreError) {
            let settings = try store.readIfPresent(StoreLayout.settings) { (b) throws(SchemaError) in try Settings(bytes: b, acceptingNewerVersions: newer) }
            result.settings = settings != nil || expected.settings != nil
            differ(StoreLayout.settings, settings?.json, expected.settings?.json)
        } catch { unreadable(StoreLayout.settings, error) }
        do throws(StoreError) {
            let queue = try store.queueDocument()
            result.queue = queue != nil || expected.queue != nil
            differ(StoreLayout.queue, queue?.json, expected.queue?.json)
        } catch { unreadable(StoreLayout.queue, error) }
        return result
    }

    private static func sorted(_ ids: Set<UUID>) -> [UUID] { ids.sorted { $0.lowercased < $1.lowercased } }

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
