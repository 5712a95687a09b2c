import Foundation
import Schema

/// A schema v5 store (spec §12) made from a v4 store without the store engine, for tests: every
/// work stream through `RenameStep.forward` (with the store's `queue.json`) into
/// `work-streams/`, the small documents at `schema_version` 5 with no other change, and
/// `store.json` at `schema_version` 5, `min_reader_version` 5 with one more migration record
/// (from 4 to 5). The engine's `migrate --to 5 --allow-breaking` of the same store is meant to
/// give the same bytes (`Samples/v5-store`).
///
/// ```swift
/// try V5Fixture.make(from: Samples.v4Store, to: dir("v5-store"))
/// ```
public enum V5Fixture {
    /// The migration record's times: those of the sample's earlier records (2025-11-20 09:00:00.000
    /// and .250 UTC).
    public static let startedAt = Date(timeIntervalSince1970: 1_763_629_200)
    public static let finishedAt = Date(timeIntervalSince1970: 1_763_629_200.25)
    public static let toolVersion = "0.1.0"

    /// The v5 store's files for a v4 store's files, by relative path (`store.json`,
    /// `sessions/<id>.json`, ...). Pure.
    /// - Throws: `StoreGeneratorError` when the store is not at v4, a work stream is not a v4
    ///   document, or a document can't be read; `SchemaError` from the rename.
    public static func convert(
        _ files: [String: [UInt8]], startedAt: Date = startedAt, finishedAt: Date = finishedAt,
        toolVersion: String = toolVersion
    ) throws -> [String: [UInt8]] {
        let v5 = StoreLayout.renamedFolderVersion, v4 = v5 - 1
        var manifest = try ManifestV2(bytes: try required(files, StoreLayout.manifest))
        guard manifest.schemaVersion == v4 else {
            throw StoreGeneratorError(message: "Can't make a v5 store: store.json has schema_version \(manifest.schemaVersion), not \(v4).")
        }
        var queue = try files[StoreLayout.queue].map { (b) throws(SchemaError) in try QueueV2(bytes: b) } ?? QueueV2(schemaVersion: v4)
        let index = QueueIndex(queue)
        var out: [String: [UInt8]] = [:]
        var workStreams = 0, customisations = 0
        for (relative, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let parts = relative.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case StoreLayout.workStreamsFolder:
                guard case .v3(let document) = try WorkStreamDocument(bytes: bytes, frozenVersion: v4) else {
                    throw StoreGeneratorError(message: "Can't make a v5 store: '\(relative)' is not a v4 work stream.")
                }
                let (session, _) = try RenameStep.forward(document, queue: index)
                out[StoreLayout.renamedWorkStreamsFolder + "/" + parts[1]] = session.encoded
                workStreams += 1
            case StoreLayout.customisationsFolder:
                var customisation = try CustomisationV4(bytes: bytes)
                customisation.schemaVersion = v5
                out[relative] = customisation.encoded
                customisations += 1
            default:
                continue
            }
        }
        if let bytes = files[StoreLayout.settings] {
            var settings = try SettingsV4(bytes: bytes)
            settings.schemaVersion = v5
            out[StoreLayout.settings] = settings.encoded
        }
        // The counts the engine records for a change of version (`StoreMigration.counts`).
        let counts = StoreMigration.counts(
            manifestVersion: v4, target: v5, sessions: workStreams, userSessions: customisations,
            settings: files[StoreLayout.settings] != nil, queue: queue, report: MigrationReport())
        queue.schemaVersion = v5
        out[StoreLayout.queue] = queue.encoded
        manifest.schemaVersion = v5
        manifest.minReaderVersion = v5
        manifest.migrations.append(
            MigrationRecord(
                from: v4, to: v5, startedAt: startedAt, finishedAt: finishedAt,
                toolVersion: toolVersion, counts: counts))
        out[StoreLayout.manifest] = manifest.encoded
        return out
    }

    /// Reads the v4 store at `source` (its documents; dot names are skipped), and writes the v5
    /// store into `path`, which must not exist yet. Files are written whole (`Data.write`,
    /// `.atomic`) without fsync: a fixture is scratch data for a test.
    public static func make(from source: String, to path: String) throws {
        let fm = FileManager.default
        guard !fm.fileExists(atPath: path) else {
            throw StoreGeneratorError(message: "Can't make a v5 store in '\(path)': it exists. Give a new path.")
        }
        var files: [String: [UInt8]] = [:]
        for name in [StoreLayout.manifest, StoreLayout.settings, StoreLayout.queue] where fm.fileExists(atPath: source + "/" + name) {
            files[name] = Array(try Data(contentsOf: URL(fileURLWithPath: source + "/" + name)))
        }
        for folder in StoreLayout.documentFolderNames {
            // An absent document folder is an empty one (spec §1); any other listing error is thrown.
            guard fm.fileExists(atPath: source + "/" + folder) else { continue }
            let names = try fm.contentsOfDirectory(atPath: source + "/" + folder)
            for name in names where !StoreLayout.isBookkeeping(name) {
                files[folder + "/" + name] = Array(try Data(contentsOf: URL(fileURLWithPath: source + "/" + folder + "/" + name)))
            }
        }
        let converted = try convert(files)
        for folder in StoreLayout.documentFolderNames(schemaVersion: StoreLayout.renamedFolderVersion) {
            try fm.createDirectory(atPath: path + "/" + folder, withIntermediateDirectories: true)
        }
        for (relative, bytes) in converted {
            try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + relative), options: .atomic)
        }
    }

    private static func required(_ files: [String: [UInt8]], _ name: String) throws -> [UInt8] {
        guard let bytes = files[name] else { throw StoreGeneratorError(message: "Can't make a v5 store: there is no \(name).") }
        return bytes
    }
}
