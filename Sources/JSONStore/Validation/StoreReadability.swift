import Foundation

/// Whether this tool can read a store as a store before it claims anything about it (spec §4,
/// §11): `store.json` through the library's open (the reader rule and the folder decision of
/// `Store.checkWorkStreamFolders`), and a version this tool knows.
///
/// `verify` and `backup` ask this first: a store they can't read would otherwise be reported as
/// verified with nothing checked, or backed up without its documents.
package enum StoreReadability {
    /// Refuses a store this tool can't read as a store; returns its schema version otherwise.
    ///
    /// - Parameter action: what the caller was about to do, for the message ("verify", "back up").
    /// - Throws: `StoreError` `.unsupportedVersion` for a version past ``MigrationChain/newest``
    ///   (or one whose `min_reader_version` refuses this tool); the open's own errors (no
    ///   `store.json`, a folder that is a link, `.conflict` for work streams outside the folder
    ///   `store.json` names).
    package static func require(_ path: String, action: String) throws(StoreError) -> Int {
        try require(path, action: action, system: .real)
    }

    static func require(_ path: String, action: String, system: SystemCalls) throws(StoreError) -> Int {
        let store = try Store.open(at: path, options: .readOnly, system: system)
        let version = store.compatibility.storeSchemaVersion
        guard version <= MigrationChain.newest else {
            throw StoreError(
                .unsupportedVersion,
                "Can't \(action) '\(path)': its store.json says schema_version \(version), and this tool knows versions "
                    + "\(MigrationChain.oldest) to \(MigrationChain.newest) only, so it can't read the store's documents as "
                    + "they are meant. Use a newer version of the tool. Nothing was checked or written.",
                path: joinPath(path, StoreLayout.manifest))
        }
        return version
    }
}
