import StoreJSON

/// Which store a backup was taken from: the `created_at` and `format` of its `store.json`.
///
/// A migration keeps `created_at` (it is the store's birth, not the schema's), so a store and
/// the backup taken before its migration share an identity; two stores made separately do not.
/// `Restore.run` compares the backup's identity (`BackupManifest.storeIdentity`) with the
/// target's before it writes anything, so that `rollback` or `restore --force` never replaces
/// one store with another's backup unless asked (`Restore.Options.otherStore`).
public struct StoreIdentity: Sendable, Equatable {
    /// `store.json`'s `created_at`, as written (RFC 3339).
    public var createdAt: String
    /// `store.json`'s `format`: `work-stream-store`.
    public var format: String

    public init(createdAt: String, format: String) {
        self.createdAt = createdAt
        self.format = format
    }

    /// Reads `created_at` and `format` from `store.json`'s bytes; nil when either is missing or
    /// not a string, or the bytes are not a JSON object.
    init?(manifestBytes bytes: [UInt8]) {
        guard case .object(let object)? = try? JSONParser.parse(bytes),
            case .string(let created)? = object["created_at"], case .string(let format)? = object["format"]
        else { return nil }
        self.init(createdAt: created, format: format)
    }

    /// One phrase for messages: `created 2025-10-14T07:52:18.000Z` (and the format when it is not a store's).
    var phrase: String {
        format == ManifestHeader.format ? "created \(createdAt)" : "created \(createdAt), format '\(format)'"
    }
}

extension StoreIdentity {
    /// `store_created_at` and `store_format`, the keys `backup.json` records the identity under.
    var backupManifestFields: JSONObject {
        ["store_created_at": .string(createdAt), "store_format": .string(format)]
    }

    /// Reads the identity from `backup.json`'s object: both keys or neither (nil: an older backup).
    ///
    /// - Throws: `ArchiveProblem` `.corrupt` on `backup.json` when only one is there, or one is not a string.
    init?(backupManifest object: JSONObject) throws(ArchiveProblem) {
        switch (object["store_created_at"], object["store_format"]) {
        case (nil, nil): return nil
        case (.string(let created)?, .string(let format)?): self.init(createdAt: created, format: format)
        default:
            throw ArchiveProblem(
                .corrupt, entry: BackupManifest.fileName,
                "has 'store_created_at' and 'store_format' that are not both strings")
        }
    }
}
