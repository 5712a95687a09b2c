import Foundation

/// An entry at the top of a store folder, as `lstat` sees it (links are never followed).
///
/// Used by tools that report on a store (`migrate-store stats`, `validate`): spec §1 allows
/// only `store.json`, `sessions/`, `user-sessions/`, `settings.json`, `queue.json` and dot names.
package struct StoreFolderEntry: Sendable, Hashable {
    /// What kind of entry it is.
    package enum Kind: String, Sendable, Hashable {
        case file, folder
        case symbolicLink = "symbolic_link"
        case other
    }

    /// The entry's name in the store folder.
    package var name: String
    package var kind: Kind
    /// The size in bytes; 0 for anything but a regular file.
    package var size: Int
}

/// A document decoded as its file holds it, with the file's size in bytes.
///
/// Unlike ``Store/workStream(_:)``, reading one does not compare the id inside with the file
/// name: a tool that reports problems compares them itself, to name both ids.
package struct StoredDocument<Value: Sendable>: Sendable {
    package var value: Value
    /// The file's size in bytes.
    package var size: Int
}

extension Store {
    /// Every entry of the store folder except the dot names readers ignore (spec §1), sorted by name.
    ///
    /// - Throws: `StoreError` when the folder can't be listed.
    package func topLevelEntries() throws(StoreError) -> [StoreFolderEntry] {
        let context = ErrorContext("list", path)
        var entries: [StoreFolderEntry] = []
        for entry in try system.listDirectory(path, context: context) where !entry.name.hasPrefix(".") {
            guard let status = try system.linkStatus(joinPath(path, entry.name), context: context) else { continue }
            let kind: StoreFolderEntry.Kind
            switch status.type {
            case .regular: kind = .file
            case .directory: kind = .folder
            case .symbolicLink: kind = .symbolicLink
            case .other: kind = .other
            }
            entries.append(StoreFolderEntry(name: entry.name, kind: kind, size: kind == .file ? Int(clamping: status.size) : 0))
        }
        return entries.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The work-stream folder of the other side of the v4 ↔ v5 layout change (spec §12) when this
    /// store (v4 or later) has one: `work-streams` in a v4 store, `sessions` in a v5 store. An
    /// interrupted `migrate` left it; readers never read it, backups and exports leave it out.
    package func interruptedLayoutFolder() throws(StoreError) -> String? {
        guard compatibility.storeSchemaVersion >= DocumentVersion.current else { return nil }
        let name = StoreLayout.otherWorkStreamsFolder(schemaVersion: compatibility.layoutVersion)
        let folder = joinPath(path, name)
        return try system.linkStatus(folder, context: ErrorContext("check", folder)) == nil ? nil : name
    }

    /// The sentence `status` and `validate` show for ``interruptedLayoutFolder()``'s folder.
    package func interruptedLayoutMessage(_ folder: String) -> String {
        "\(folder)/ was left by an interrupted \(Self.layoutChangeDescription); this v\(compatibility.storeSchemaVersion) store keeps its work streams in \(workStreamsFolderName)/ and never reads it"
    }

    /// "change of layout between schema v4 and v5 (spec §12)": the step that renames the folder of
    /// the work streams, by the chain's numbers.
    package static var layoutChangeDescription: String {
        "change of layout between schema v\(StoreLayout.renamedFolderVersion - 1) and v\(StoreLayout.renamedFolderVersion) (spec §12)"
    }

    /// One work stream as its file holds it, whichever version, without the id check.
    ///
    /// - Throws: `.notFound`; a document error naming the file (the schema error is its `underlying`).
    package func storedWorkStream(_ id: UUID) throws(StoreError) -> StoredDocument<WorkStreamDocument> {
        let newer = acceptsNewerDocuments, renamed = hasRenamedLayout
        return try readStored(workStreamFile(id)) { (b) throws(SchemaError) in
            try WorkStreamDocument(bytes: b, acceptingNewerVersions: newer, renamedFolder: renamed)
        }
    }

    /// One user customisation as its file holds it, without the id check.
    ///
    /// - Throws: `.notFound`; a document error naming the file.
    package func storedCustomisation(_ id: UUID) throws(StoreError) -> StoredDocument<Customisation> {
        let newer = acceptsNewerDocuments
        return try readStored(StoreLayout.customisationPath(id)) { (b) throws(SchemaError) in try Customisation(bytes: b, acceptingNewerVersions: newer) }
    }

    /// The ids of the user customisations, and every entry of `user-sessions/` that is not a document.
    package func customisationIDs() throws(StoreError) -> ScanResult<UUID> {
        let listing = try DocumentListing.listDocumentFolder(customisationsDirectory, system: system)
        return ScanResult(items: listing.ids.compactMap { UUID(uuidString: $0.rawValue) }, problems: listing.invalid.map(\.error))
    }

    private func readStored<T: Sendable>(_ relative: String, _ decode: ([UInt8]) throws(SchemaError) -> T) throws(StoreError) -> StoredDocument<T> {
        let bytes = try FileReader.read(file(relative), system: system)
        do { return StoredDocument(value: try decode(bytes), size: bytes.count) } catch {
            throw StoreError.document(error, path: file(relative))
        }
    }
}
