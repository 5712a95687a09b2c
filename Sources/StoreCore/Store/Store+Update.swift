import Foundation

extension Store {
    /// Reads a work stream under the lock, lets `body` change it, and writes it back durably
    /// (only if a byte changed). A document a v1 writer left is upgraded (spec §6 rules 1–4).
    ///
    /// The file is always read in full. When its messages are byte for byte those this store
    /// wrote last for the work stream (`RecentMessages`), they are compared rather than parsed,
    /// and, unchanged by `body`, copied rather than encoded: the result and the bytes written
    /// are the same as with a full decode and encode.
    ///
    /// `body` may change neither `id` nor the seven queue keys: the queue is changed through the
    /// queue methods, which keep `queue.json` and its mirror in step.
    ///
    /// With `Options.messageRetention` set, the messages are then pruned to the newest ones by its
    /// rule (the prune leaves `message_count` as it is; `appendMessages` sets it).
    ///
    /// ```swift
    /// try store.updateWorkStream(id) { $0.fields.preview = "Deploy the fix" }
    /// ```
    ///
    /// - Throws: `StoreError`: `.invalidArgument` when `body` changed the id or a queue key (nothing
    ///   is written); `.notFound` without such a work stream; a document or system-call error;
    ///   whatever `body` throws.
    @discardableResult
    public func updateWorkStream(_ id: UUID, _ body: (inout WorkStream) throws(StoreError) -> Void) throws(StoreError) -> WorkStream {
        try requireV3Layout("update work stream '\(id.lowercased)'", use: "updateRenamedWorkStream(_:_:)")
        return try groupWriting { (after) throws(StoreError) in try updateHoldingLock(id, after: after, body) }
    }

    /// `updateWorkStream`'s work, for a caller that holds the lock.
    ///
    /// - Parameters:
    ///   - after: The group commit's `AfterLock` (`groupWriting`), or nil to `fsync` the folder
    ///     before returning (`writing`, when the caller writes other documents too).
    ///   - mirror: Given the work stream after `body` (checked), the queue keys its document is to
    ///     have: for a caller that changed `queue.json` in the same hold of the lock (it writes
    ///     `queue.json` first, then this document with its mirror). Nil keeps the keys.
    func updateHoldingLock(
        _ id: UUID, after: AfterLock?, mirror: ((WorkStreamV3) throws(StoreError) -> QueueKeys)? = nil,
        _ body: (inout WorkStreamV3) throws(StoreError) -> Void
    ) throws(StoreError) -> WorkStreamV3 {
        let relative = workStreamFile(id)
        var original = try FileReader.read(file(relative), system: system)
        var read = try decodeForUpdate(original, id, relative)
        if try reconcilingOlderWrite(read.document) {
            original = try FileReader.read(file(relative), system: system)
            read = try decodeForUpdate(original, id, relative)
        }
        var session = try upgraded(read.document, relative)
        let before = session
        try body(&session)
        try checkUpdate(id, before: before, after: session)
        if let mirror { session.fields.queueKeys = try mirror(session) }
        options.messageRetention?.prune(&session.fields.messages)
        session.schemaVersion = writtenVersion
        let (bytes, messages) = session.encoded(after: read)
        if !sameBytes(bytes, original) { try write(relative, bytes, after: after) }  // compared with the file as read: no second encode
        recentMessages.remember(messages, for: id)
        return session
    }

    private func decodeForUpdate(_ bytes: [UInt8], _ id: UUID, _ relative: String) throws(StoreError) -> DecodedWorkStreamDocument<Message> {
        let read: DecodedWorkStreamDocument<Message>
        do throws(SchemaError) {
            read = try WorkStreamDocument.decode(bytes, acceptingNewerVersions: acceptsNewerDocuments, reusing: recentMessages.messages(of: id))
        } catch {
            throw StoreError.document(error, path: file(relative))
        }
        try checkID(read.document.fields.id, id, relative)
        return read
    }

    /// Runs the §7 reconcile, under the lock the caller holds, when `document` is at a schema
    /// version below the one this code writes, and then returns true: an older writer (or a hand
    /// edit, by rename or in place) changed it since the last reconcile, and its queue keys must
    /// win (spec §7) before anything writes this document or the queue. The constant-time open
    /// (`WriteRecord`) cannot see a write in place; this check, made on the bytes every
    /// read-modify-write reads anyway, sees every one.
    func reconcilingOlderWrite(_ document: WorkStreamDocument) throws(StoreError) -> Bool {
        guard !hasRenamedLayout, document.schemaVersion < writtenVersion else { return false }
        try maintenance.reconcile(self)
        return true
    }

    /// A work stream as this code writes it: a document an older writer left goes through the
    /// chain (spec §6, §10: its cursors are reset, they can't be trusted).
    private func upgraded(_ document: WorkStreamDocument, _ relative: String) throws(StoreError) -> WorkStreamV3 {
        if case .v3(let session) = document { return session }
        do throws(SchemaError) {
            let (migrated, _) = try MigrationChain.migrateWorkStream(
                document, storeVersion: compatibility.storeSchemaVersion,
                to: writtenVersion)
            guard case .v3(let session) = migrated else {
                throw SchemaError(
                    code: .unsupportedVersion, keyPath: "schema_version",
                    detail: "the migration chain did not reach version \(writtenVersion)")
            }
            return session
        } catch {
            throw StoreError.document(error, path: file(relative))
        }
    }
}
