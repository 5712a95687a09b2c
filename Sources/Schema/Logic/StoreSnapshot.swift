import Foundation
import StoreJSON

/// A whole store's documents in memory: for tests, samples and small stores. The store engine
/// streams large stores with the same building blocks instead.
package struct StoreSnapshot: Sendable, Hashable {
    package var manifest: ManifestDocument
    package var sessions: [UUID: WorkStreamDocument]
    package var userSessions: [UUID: Customisation]
    package var settings: Settings?
    package var queue: QueueV2?

    package init(
        manifest: ManifestDocument, sessions: [UUID: WorkStreamDocument] = [:], userSessions: [UUID: Customisation] = [:],
        settings: Settings? = nil, queue: QueueV2? = nil
    ) {
        self.manifest = manifest; self.sessions = sessions; self.userSessions = userSessions
        self.settings = settings; self.queue = queue
    }

    /// Reads a store given as file path (relative to the store) → bytes.
    ///
    /// Names starting with a dot are ignored (spec §1). Each error carries its file.
    /// - Throws: the first `SchemaError`, including `.invalidValue` for a file name that is not
    ///   `<lowercase uuid>.json`, an `id` that differs from the file name, or an unexpected file.
    package init(files: [String: [UInt8]]) throws(SchemaError) {
        guard let manifestBytes = files[StoreLayout.manifest] else {
            throw SchemaError(code: .notAStore, file: StoreLayout.manifest, detail: "the store has no \(StoreLayout.manifest)")
        }
        let manifest = try StoreSnapshot.decode(StoreLayout.manifest) { () throws(SchemaError) in try ManifestDocument(bytes: manifestBytes) }
        let newer = manifest.schemaVersion > DocumentVersion.current
        self.init(manifest: manifest)
        for path in files.keys.sorted() {
            let bytes = files[path]!
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if parts.contains(where: { $0.hasPrefix(".") }) { continue }
            switch (parts.count, parts.first) {
            case (1, StoreLayout.manifest): continue
            case (1, StoreLayout.settings):
                settings = try StoreSnapshot.decode(path) { () throws(SchemaError) in try Settings(bytes: bytes, acceptingNewerVersions: newer) }
            case (1, StoreLayout.queue):
                queue = try StoreSnapshot.decode(path) { () throws(SchemaError) in try QueueV2(bytes: bytes, acceptingNewerVersions: newer) }
            case (2, StoreLayout.workStreamsFolder):
                let id = try StoreSnapshot.documentID(path, parts[1])
                let doc = try StoreSnapshot.decode(path) { () throws(SchemaError) in try WorkStreamDocument(bytes: bytes, acceptingNewerVersions: newer) }
                try StoreSnapshot.checkID(doc.fields.id, id, path)
                sessions[id] = doc
            case (2, StoreLayout.customisationsFolder):
                let id = try StoreSnapshot.documentID(path, parts[1])
                let doc = try StoreSnapshot.decode(path) { () throws(SchemaError) in try Customisation(bytes: bytes, acceptingNewerVersions: newer) }
                try StoreSnapshot.checkID(doc.id, id, path)
                userSessions[id] = doc
            default:
                throw SchemaError(code: .invalidValue, file: path, detail: "this file does not belong in a store (spec §1); move it out of the store")
            }
        }
    }

    /// The canonical bytes of every document, by path relative to the store.
    package var files: [String: [UInt8]] {
        var out: [String: [UInt8]] = [StoreLayout.manifest: manifest.encoded]
        for (id, doc) in sessions { out[StoreLayout.workStreamPath(id)] = doc.encoded }
        for (id, doc) in userSessions { out[StoreLayout.customisationPath(id)] = doc.encoded }
        if let settings { out[StoreLayout.settings] = settings.encoded }
        if let queue { out[StoreLayout.queue] = queue.encoded }
        return out
    }

    static func decode<T>(_ file: String, _ body: () throws(SchemaError) -> T) throws(SchemaError) -> T {
        do { return try body() } catch { throw error.inFile(file) }
    }

    /// The id a document file name stands for: `<lowercase uuid>.json` only.
    package static func documentID(_ path: String, _ name: String) throws(SchemaError) -> UUID {
        guard name.hasSuffix(".json"), let id = UUIDText.parse(String(name.dropLast(5))), id.lowercased + ".json" == name else {
            throw SchemaError(code: .invalidValue, file: path, detail: "the file name is not a lowercase UUID followed by '.json'; rename or remove it")
        }
        return id
    }

    static func checkID(_ inside: UUID, _ fromName: UUID, _ path: String) throws(SchemaError) {
        guard inside == fromName else {
            throw SchemaError(
                code: .invalidValue, file: path, keyPath: "id", expected: "'\(fromName.lowercased)' (the file name)",
                found: "'\(inside.lowercased)'")
        }
    }
}
