import Foundation
import StoreJSON

extension Store {
    /// Reads and decodes one document; errors name the file.
    func read<T>(_ relative: String, _ decode: ([UInt8]) throws(SchemaError) -> T) throws(StoreError) -> T {
        let bytes = try FileReader.read(file(relative), system: system)
        do { return try decode(bytes) } catch { throw StoreError.document(error, path: file(relative)) }
    }

    /// Reads a document that may be absent.
    package func readIfPresent<T>(_ relative: String, _ decode: ([UInt8]) throws(SchemaError) -> T) throws(StoreError) -> T? {
        do { return try read(relative, decode) } catch  where error.code == .notFound { return nil }
    }

    /// `store.json`.
    public func manifest() throws(StoreError) -> ManifestDocument {
        try read(StoreLayout.manifest) { (b) throws(SchemaError) in try ManifestDocument(bytes: b) }
    }

    /// One work stream, whichever version its file has: in a v4 store always `.v5` (from `work-streams/`).
    /// - Throws: `.notFound` when there is no such work stream; a document error naming the file.
    public func workStream(_ id: UUID) throws(StoreError) -> WorkStreamDocument {
        try decodeWorkStream(id, bytes: try FileReader.read(file(workStreamFile(id)), system: system))
    }

    /// Decodes a work stream's file content already read (as `workStream` would), without reading it again.
    package func decodeWorkStream(_ id: UUID, bytes: [UInt8]) throws(StoreError) -> WorkStreamDocument {
        let relative = workStreamFile(id)
        let document: WorkStreamDocument
        do {
            document = try WorkStreamDocument(bytes: bytes, acceptingNewerVersions: acceptsNewerDocuments, renamedFolder: hasRenamedLayout)
        } catch {
            throw StoreError.document(error, path: file(relative))
        }
        try checkID(document.fields.id, id, relative)
        return document
    }

    func checkID(_ inside: UUID, _ id: UUID, _ relative: String) throws(StoreError) {
        guard inside == id else {
            throw StoreError(
                .invalidDocument,
                "Can't use '\(file(relative))': its id is '\(inside.lowercased)' but its file name says '\(id.lowercased)'. Rename the file or fix the id by hand.",
                path: file(relative))
        }
    }

    /// The user customisation of a work stream, or nil when there is none.
    public func customisation(_ id: UUID) throws(StoreError) -> Customisation? {
        let relative = StoreLayout.customisationPath(id)
        let newer = acceptsNewerDocuments
        guard let doc = try readIfPresent(relative, { (b) throws(SchemaError) in try Customisation(bytes: b, acceptingNewerVersions: newer) }) else {
            return nil
        }
        try checkID(doc.id, id, relative)
        return doc
    }

    /// Every user customisation, and every one that could not be read. An absent `user-sessions/`
    /// is an empty one.
    public func customisations() throws(StoreError) -> ScanResult<Customisation> {
        // Straight into UUIDs, like `workStreamIDs`: a `String` per name (and the listing's
        // entries) took ~2.7 MB at once at the end of migrate's staging at 50,000 work streams
        // (15,000 customisations), pages that stayed in its peak RSS.
        let listing = try DocumentIDListing.listDocumentFolder(customisationsDirectory, system: system)
        var result = ScanResult<Customisation>(problems: listing.invalid.map(\.error))
        result.items.reserveCapacity(listing.ids.count)
        // On every core, as listWorkStreams reads: one by one, the 15,921 customisations of a
        // 50,000 work-stream store were a phase of `ls` that used one core of two.
        try ParallelBatches.run(
            listing.ids, system: system,
            work: { (id) -> Result<Customisation?, StoreError> in
                do throws(StoreError) { return .success(try customisation(id)) } catch { return .failure(error) }
            },
            consume: { (_, outcome) throws(StoreError) in
                switch outcome {
                case .success(let document): if let document { result.items.append(document) }
                case .failure(let error): result.problems.append(error)
                }
            })
        return result
    }

    /// The settings as this code writes them: `settings.json` (the defaults when the file is
    /// absent) through the chain, as a write would take it. A file an older app wrote (below v4)
    /// gives the preferences it kept as unknown keys, when of the right type, and the defaults for
    /// the rest (spec §11); ``settingsDocument()`` gives the file as it is.
    public func settings() throws(StoreError) -> Settings {
        guard let found = try settingsDocument() else { return .defaults }
        do {
            return try MigrationChain.migrateSettings(found, to: max(writtenVersion, found.schemaVersion)).0
        } catch {
            throw StoreError.document(error, path: file(StoreLayout.settings))
        }
    }

    /// `settings.json` as the file has it, or nil when the store has none.
    public func settingsDocument() throws(StoreError) -> Settings? {
        try settingsFile()?.document
    }

    /// `settings.json` as the file has it, and the keys the file itself holds (a reader takes the
    /// defaults for the others), from one read; nil when the store has none.
    package func settingsFile() throws(StoreError) -> (document: Settings, keys: Set<String>)? {
        let newer = acceptsNewerDocuments
        return try readIfPresent(StoreLayout.settings) { (b) throws(SchemaError) in
            let json = try DocumentVersion.parse(b)
            let document = try Settings(json: json, acceptingNewerVersions: newer)
            guard case .object(let members) = json else { return (document, []) }
            return (document, Set(members.keys))
        }
    }

    /// `queue.json`; nil in a v1 store (or a v2 store whose `queue.json` is missing).
    public func queueDocument() throws(StoreError) -> Queue? {
        let newer = acceptsNewerDocuments
        return try readIfPresent(StoreLayout.queue) { (b) throws(SchemaError) in try QueueV2(bytes: b, acceptingNewerVersions: newer) }
    }

    /// The work-stream ids of the store, and every entry of its work-stream folder (`sessions/`,
    /// or `work-streams/` from v4) that is not a document. An absent folder is an empty one.
    public func workStreamIDs() throws(StoreError) -> ScanResult<UUID> {
        // Straight into UUIDs: a `String` per entry was 11.5 MB of migrate's peak at 50,000 work streams.
        let listing = try DocumentIDListing.listDocumentFolder(workStreamsDirectory, system: system)
        return ScanResult(items: listing.ids, problems: listing.invalid.map(\.error))
    }

    /// A summary of every work stream, and every document that could not be read.
    public func listWorkStreams() throws(StoreError) -> ScanResult<WorkStreamSummary> {
        let ids = try workStreamIDs()
        var result = ScanResult<WorkStreamSummary>(problems: ids.problems)
        result.items.reserveCapacity(ids.items.count)
        // Skimming is CPU-bound: the files are read on every core, the results kept in id order.
        try ParallelBatches.run(
            ids.items, system: system,
            work: { (id) -> Result<WorkStreamSummary, StoreError> in
                do throws(StoreError) { return .success(try summary(id)) } catch { return .failure(error) }
            },
            consume: { (_, outcome) throws(StoreError) in
                switch outcome {
                case .success(let summary): result.items.append(summary)
                case .failure(let error): result.problems.append(error)
                }
            })
        return result
    }

    /// The summary of one work stream.
    public func summary(_ id: UUID) throws(StoreError) -> WorkStreamSummary {
        let relative = workStreamFile(id)
        let bytes = try FileReader.read(file(relative), system: system)
        let summary: WorkStreamSummary
        do { summary = try WorkStreamSummary(bytes: bytes, acceptingNewerVersions: acceptsNewerDocuments, renamedFolder: hasRenamedLayout) } catch {
            throw StoreError.document(error, path: file(relative))
        }
        try checkID(summary.id, id, relative)
        return summary
    }
}
