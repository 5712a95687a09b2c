import Foundation
import StoreJSON

/// A whole store's documents in memory: for tests, samples and small stores. The store engine
/// streams large stores with the same building blocks instead.
package struct StoreSnapshot: Sendable, Hashable {
    package var manifest: ManifestDocument
    package var sessions: [UUID: SessionDocument]
    package var userSessions: [UUID: UserSessionV1]
    package var settings: SettingsV1?
    package var queue: QueueV2?

    package init(manifest: ManifestDocument, sessions: [UUID: SessionDocument] = [:], userSessions: [UUID: UserSessionV1] = [:],
                settings: SettingsV1? = nil, queue: QueueV2? = nil) {
        self.manifest = manifest; self.sessions = sessions; self.userSessions = userSessions
        self.settings = settings; self.queue = queue
    }

    /// Reads a store given as file path (relative to the store) → bytes.
    ///
    /// Names starting with a dot are ignored (spec §1). Each error carries its file.
    /// - Throws: the first `SchemaError`, including `.invalidValue` for a file name that is not
    ///   `<lowercase uuid>.json`, an `id` that differs from the file name, or an unexpected file.
    package init(files: [String: [UInt8]]) throws(SchemaError) {
        guard let manifestBytes = files["store.json"] else {
            throw SchemaError(code: .notAStore, file: "store.json", detail: "the store has no store.json")
        }
        let manifest = try StoreSnapshot.decode("store.json") { () throws(SchemaError) in try ManifestDocument(bytes: manifestBytes) }
        let newer = manifest.schemaVersion > DocumentVersion.current
        self.init(manifest: manifest)
        for path in files.keys.sorted() {
            let bytes = files[path]!
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if parts.contains(where: { $0.hasPrefix(".") }) { continue }
            switch (parts.count, parts.first) {
            case (1, "store.json"): continue
            case (1, "settings.json"):
                settings = try StoreSnapshot.decode(path) { () throws(SchemaError) in try SettingsV1(bytes: bytes, acceptingNewerVersions: newer) }
            case (1, "queue.json"):
                queue = try StoreSnapshot.decode(path) { () throws(SchemaError) in try QueueV2(bytes: bytes, acceptingNewerVersions: newer) }
            case (2, "sessions"):
                let id = try StoreSnapshot.documentID(path, parts[1])
                let doc = try StoreSnapshot.decode(path) { () throws(SchemaError) in try SessionDocument(bytes: bytes, acceptingNewerVersions: newer) }
                try StoreSnapshot.checkID(doc.fields.id, id, path)
                sessions[id] = doc
            case (2, "user-sessions"):
                let id = try StoreSnapshot.documentID(path, parts[1])
                let doc = try StoreSnapshot.decode(path) { () throws(SchemaError) in try UserSessionV1(bytes: bytes, acceptingNewerVersions: newer) }
                try StoreSnapshot.checkID(doc.id, id, path)
                userSessions[id] = doc
            default:
                throw SchemaError(code: .invalidValue, file: path, detail: "this file does not belong in a store (spec §1); move it out of the store")
            }
        }
    }

    /// The canonical bytes of every document, by path relative to the store.
    package var files: [String: [UInt8]] {
        var out: [String: [UInt8]] = ["store.json": manifest.encoded]
        for (id, doc) in sessions { out["sessions/\(id.lowercased).json"] = doc.encoded }
        for (id, doc) in userSessions { out["user-sessions/\(id.lowercased).json"] = doc.encoded }
        if let settings { out["settings.json"] = settings.encoded }
        if let queue { out["queue.json"] = queue.encoded }
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
            throw SchemaError(code: .invalidValue, file: path, keyPath: "id", expected: "'\(fromName.lowercased)' (the file name)",
                              found: "'\(inside.lowercased)'")
        }
    }
}
