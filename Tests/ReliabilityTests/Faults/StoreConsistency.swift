import Foundation
import Testing

/// What "the store is consistent" means after a failed or interrupted migration of a copy of a
/// v1 store (`Samples/v1-store` by default), checked on a real folder.
struct StoreConsistency {
    /// The v1 store's files, by "/relative/path".
    let original: [String: [UInt8]]
    /// The same store migrated once, without faults, by the built tool; empty if that failed.
    let migrated: [String: [UInt8]]

    init(v1Store: String) {
        original = rootedTree(v1Store)
        let scratch = TemporaryDirectory("reference")
        guard let store = try? scratch.copy(v1Store, as: "store"),
            let run = try? Tool.migrate(["migrate", store, "--no-backup"]), run.code == 0
        else { migrated = [:]; return }
        migrated = rootedTree(store)
    }

    static let sample = StoreConsistency(v1Store: Samples.v1Store)
    static var migrated: [String: [UInt8]] { sample.migrated }
    static func check(_ store: String, allowLeftovers: Bool = false, allowExchangeFolder: Bool = false) -> [String] {
        sample.check(store, allowLeftovers: allowLeftovers, allowExchangeFolder: allowExchangeFolder)
    }
    static func resumes(_ store: String, environment: [String: String] = [:]) throws -> [String] {
        try sample.resumes(store, environment: environment)
    }
    static func equalsMigrated(_ store: String) -> [String] { sample.equalsMigrated(store) }

    /// Every file is the sample's or the migrated one (whole, old or new), a v1 reader reads the
    /// store with the sample's queue, and no temp file is left (unless `allowLeftovers`: a failed
    /// `unlink` may leave one for the next sweep; or `allowExchangeFolder`: a failed fsync right
    /// after a migration's folder exchange must leave the old folder for the next sweep).
    func check(_ store: String, allowLeftovers: Bool = false, allowExchangeFolder: Bool = false) -> [String] {
        let files = rootedTree(store)
        var failures: [String] = []
        for path in Set(files.keys).union(original.keys).union(migrated.keys).sorted() {
            let found = files[path]
            if found == original[path] { continue }
            if path == "/store.json", let found, let after = migrated[path],
                PowerLossWorkloads.withoutTimestamps(found) == PowerLossWorkloads.withoutTimestamps(after)
            {
                continue
            }
            if found == migrated[path] { continue }
            failures.append(found == nil ? "'\(path)' is missing" : "'\(path)' (\(found!.count) bytes) is neither the old nor the new version")
        }
        failures += PowerLossWorkloads.v1ReaderReads(files, original: original)
        if !allowLeftovers, let leftover = temporaryLeftovers(store, allowingExchangeFolder: allowExchangeFolder).first {
            failures.append("temp file left: '\(leftover)'")
        }
        return failures
    }

    /// Runs `migrate` again without faults and checks it ends as the uninterrupted migration, with
    /// no temp file left (a run that finds nothing to migrate still sweeps).
    func resumes(_ store: String, environment: [String: String] = [:]) throws -> [String] {
        let run = try Tool.migrate(["migrate", store, "--no-backup"], environment: environment)
        guard run.code == 0 else { return ["the next migration failed: \(run)"] }
        return equalsMigrated(store)
    }

    func equalsMigrated(_ store: String) -> [String] {
        let files = rootedTree(store)
        var failures: [String] = []
        for path in Set(files.keys).union(migrated.keys).sorted() {
            if path == "/store.json" {
                if files[path].map(PowerLossWorkloads.withoutTimestamps) != migrated[path].map(PowerLossWorkloads.withoutTimestamps) {
                    failures.append("store.json differs from the uninterrupted migration's")
                }
            } else if files[path] != migrated[path] {
                failures.append("'\(path)' differs from the uninterrupted migration's")
            }
        }
        if let leftover = temporaryLeftovers(store).first { failures.append("temp file left after the sweep: '\(leftover)'") }
        return failures
    }
}
