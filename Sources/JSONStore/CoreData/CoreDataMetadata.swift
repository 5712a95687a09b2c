import Foundation

/// What Core Data recorded about the model that wrote a store: `Z_METADATA.Z_PLIST`, a binary
/// property list whose `NSStoreModelVersionHashes` maps each entity's name to its 32-byte version
/// hash (spec §13). The app's version identifiers are empty, so the entity names and hashes are
/// what tells its models apart.
struct CoreDataMetadata: Sendable, Equatable {
    /// Entity name → version hash (32 bytes in every store Core Data writes).
    let entityHashes: [String: [UInt8]]
    /// `NSStoreModelVersionIdentifiers`, as strings (the app's are all empty).
    let versionIdentifiers: [String]

    static let hashesKey = "NSStoreModelVersionHashes", identifiersKey = "NSStoreModelVersionIdentifiers"

    var entityNames: Set<String> { Set(entityHashes.keys) }

    /// Reads the one `Z_METADATA` row of `database`.
    ///
    /// - Throws: `StoreError` `.invalidDocument` naming the file when the table has no row, the
    ///   blob is not a property list, or it lacks the entity hashes: Core Data always writes them,
    ///   so such a file was not written by Core Data and is refused rather than guessed at.
    static func read(_ database: SQLiteDatabase) throws(StoreError) -> CoreDataMetadata {
        let file = database.name
        var blob: [UInt8]?
        var rows = 0
        try database.query("SELECT Z_PLIST FROM Z_METADATA") { row in
            rows += 1
            if blob == nil { blob = row.blob(0) }
        }
        func refuse(_ what: String) -> StoreError {
            StoreError(
                .invalidDocument,
                "Can't import '\(file)': its Z_METADATA \(what), so the model that wrote it is unknown "
                    + "(Core Data records it there as a property list with NSStoreModelVersionHashes). Give the path of the "
                    + "app's VoiceCode.sqlite. Nothing was written.", path: file)
        }
        guard rows > 0 else { throw refuse("table has no row") }
        guard let blob, !blob.isEmpty else { throw refuse("row holds no Z_PLIST") }
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: Data(blob), options: [], format: nil)
        } catch {
            throw refuse("Z_PLIST (\(blob.count) bytes) is not a property list (\(error.localizedDescription))")
        }
        guard let plist = value as? [String: Any], let hashes = plist[hashesKey] as? [String: Any] else {
            throw refuse("Z_PLIST has no \(hashesKey) dictionary")
        }
        var entityHashes: [String: [UInt8]] = [:]
        for (name, raw) in hashes {
            guard let data = raw as? Data else { throw refuse("Z_PLIST's hash of entity '\(name)' is not data") }
            entityHashes[name] = Array(data)
        }
        let identifiers = (plist[identifiersKey] as? [Any] ?? []).map { "\($0)" }
        return CoreDataMetadata(entityHashes: entityHashes, versionIdentifiers: identifiers)
    }

    /// The hashes as base64 (how a property list's XML form writes data), for the migration record.
    var base64Hashes: [String: String] { entityHashes.mapValues { Data($0).base64EncodedString() } }
}
