import Foundation

/// Whether this tool can read a store as a store before it claims anything about it (spec §4,
/// §11): `store.json` through the library's open (the reader rule), a version this tool knows,
/// and the work streams in the folder that version names.
///
/// `verify` and `backup` ask this first: a store they can't read would otherwise be reported as
/// verified with nothing checked, or backed up without its documents.
package enum StoreReadability {
    /// Refuses a store this tool can't read as a store; returns its schema version otherwise.
    ///
    /// - Parameter action: what the caller was about to do, for the message ("verify", "back up").
    /// - Throws: `StoreError` `.unsupportedVersion` for a version past ``MigrationChain/newest``
    ///   (or one whose `min_reader_version` refuses this tool); `.invalidDocument` when the folder
    ///   `store.json` names holds no work stream while the other side's folder holds some; the
    ///   open's own errors (no `store.json`, a folder that is a link).
    package static func require(_ path: String, action: String) throws(StoreError) -> Int {
        try require(path, action: action, system: .real)
    }

    static func require(_ path: String, action: String, system: SystemCalls) throws(StoreError) -> Int {
        let store = try Store.open(at: path, options: .readOnly, system: system)
        let version = store.compatibility.storeSchemaVersion
        guard version <= MigrationChain.newest else {
            throw StoreError(.unsupportedVersion,
                             "Can't \(action) '\(path)': its store.json says schema_version \(version), and this tool knows versions "
                                + "\(MigrationChain.oldest) to \(MigrationChain.newest) only, so it can't read the store's documents as "
                                + "they are meant. Use a newer version of the tool. Nothing was checked or written.",
                             path: joinPath(path, StoreLayout.manifest))
        }
        if let misplaced = try misplacedWorkStreams(path, schemaVersion: version, action: action, system: system) { throw misplaced }
        return version
    }

    /// The refusal for a store whose work-stream folder (the one `store.json`'s version names)
    /// holds no document while the other side's folder holds some, or nil. Such a layout is no
    /// state a layout change leaves (it fills the new folder before `store.json` names it), so
    /// nobody can say which folder is the store's.
    static func misplacedWorkStreams(_ path: String, schemaVersion: Int, action: String,
                                     system: SystemCalls) throws(StoreError) -> StoreError? {
        let named = StoreLayout.workStreamsFolder(schemaVersion: schemaVersion)
        let other = StoreLayout.otherWorkStreamsFolder(schemaVersion: schemaVersion)
        guard try DocumentListing.listDocumentFolder(joinPath(path, named), system: system).ids.isEmpty else { return nil }
        let found = try DocumentListing.listDocumentFolder(joinPath(path, other), system: system).ids.count
        guard found > 0 else { return nil }
        return StoreError(.invalidDocument,
                          "Can't \(action) '\(path)': its store.json says schema_version \(schemaVersion), whose work streams are in "
                            + "'\(named)/', but '\(named)/' holds none and '\(other)/' holds \(TextFormat.plural(found, "document")). "
                            + "The tool can't tell which folder is the store's. Put back the store.json that matches '\(other)/' "
                            + "(or restore the store from a backup), then try again. Nothing was checked or written.",
                          path: joinPath(path, other))
    }
}
