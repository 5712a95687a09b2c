import Foundation

/// Decodes one document of a backup or an export with the Schema decoders, to prove that it
/// reads: the same check a store reader makes (STORE-FORMAT §8), including that the `id` inside
/// a session or user customisation equals its file name.
enum DocumentCheck {
    /// Reads `store.json` far enough to know the store's schema version and whether this tool may
    /// read it (STORE-FORMAT §4 reader rule).
    ///
    /// - Returns: The schema version, or the problem: `.incompatible` for a store this tool may
    ///   not read, `.corrupt` for anything else.
    static func manifest(_ bytes: [UInt8]) -> Result<Int, ArchiveProblem> {
        do throws(SchemaError) {
            return .success(try ManifestDocument(bytes: bytes).schemaVersion)
        } catch {
            return .failure(problem(error, path: StoreLayout.manifest))
        }
    }

    /// Decodes `bytes` as the document `path` names.
    ///
    /// - Parameter acceptingNewer: the store's schema version is newer than this tool's and its
    ///   `min_reader_version` admits this tool: read newer documents, keeping their new keys.
    ///   - storeSchemaVersion: the archived store's version, when known: a work stream must be in
    ///     its folder (`sessions/` up to v4, `work-streams/` from v5, spec §12).
    /// - Returns: nil when the document reads, else the problem.
    static func check(_ path: StoreFilePath, _ bytes: [UInt8], acceptingNewer: Bool, storeSchemaVersion: Int? = nil) -> ArchiveProblem? {
        if path.kind == .session, let version = storeSchemaVersion, let folder = path.folder,
            folder != StoreLayout.workStreamsFolder(schemaVersion: version)
        {
            return ArchiveProblem(
                .corrupt, entry: path.rawValue,
                "is in \(folder)/, but a schema v\(version) store keeps its work streams in \(StoreLayout.workStreamsFolder(schemaVersion: version))/")
        }
        do throws(SchemaError) {
            switch path.kind {
            case .manifest:
                _ = try ManifestDocument(bytes: bytes)
            case .settings:
                _ = try Settings(bytes: bytes, acceptingNewerVersions: acceptingNewer)
            case .queue:
                _ = try QueueV2(bytes: bytes, acceptingNewerVersions: acceptingNewer)
            case .session:
                let document = try WorkStreamDocument(
                    bytes: bytes, acceptingNewerVersions: acceptingNewer,
                    renamedFolder: path.folder == StoreLayout.renamedWorkStreamsFolder)
                return idProblem(inside: document.fields.id, path: path)
            case .userSession:
                let document = try Customisation(bytes: bytes, acceptingNewerVersions: acceptingNewer)
                return idProblem(inside: document.id, path: path)
            }
            return nil
        } catch {
            return problem(error, path: path.rawValue)
        }
    }

    /// A wrong `id` inside a session or user customisation (it must equal the file name).
    private static func idProblem(inside id: UUID, path: StoreFilePath) -> ArchiveProblem? {
        guard let expected = path.documentID, id.lowercased != expected.rawValue else { return nil }
        return ArchiveProblem(
            .corrupt, entry: path.rawValue,
            "does not read: id: expected '\(expected.rawValue)' (the file name), found '\(id.lowercased)'")
    }

    private static func problem(_ error: SchemaError, path: String) -> ArchiveProblem {
        let kind: ArchiveProblem.Kind = error.code == .unsupportedVersion ? .incompatible : .corrupt
        return ArchiveProblem(kind, entry: path, "does not read: \(error.reason)")
    }
}
