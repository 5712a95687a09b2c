import Foundation

extension Store {
    /// Runs `body` holding the store's lock (the caller's writes are then serialised with every
    /// other writer process). Refuses on a read-only or older store.
    public func withLock<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
        try requireWritable()
        let lock = try lockForWriting()
        defer { lock.release() }
        return try body()
    }

    /// The store's lock for a write of this process: its `WriterGate` (threads of this process
    /// queue there instead of polling `flock`), then `StoreLock`, both within `lockTimeout`.
    func lockForWriting() throws(StoreError) -> HeldWriteLock {
        let gate = WriterGate.of(store: path, system: system)
        let clock = ContinuousClock()
        let start = clock.now
        guard gate.enter(timeout: options.lockTimeout) else {
            throw StoreLock.lockedError(store: path, holder: StoreLock.seenHolder(store: path, system: system))
        }
        let remaining = max(.zero, options.lockTimeout - start.duration(to: clock.now))
        do {
            let lock = try StoreLock(store: path, tool: options.tool, version: options.version, timeout: remaining, system: system)
            return HeldWriteLock(gate: gate, lock: lock)
        } catch {
            gate.leave()
            throw error
        }
    }

    /// `withLock` for this library's own writes: also keeps the store's `WriteRecord`.
    ///
    /// The record is checked under the lock before `body` and written again after it only when it
    /// matched before: it then vouches for this library's changes alone, never for another
    /// writer's. When `body` throws, or the record did not match, the record is left as it is:
    /// it disagrees with the folders, and the next open checks in full. Cost: four `lstat`s and a
    /// small read before (no read when the record this process stored last still matches,
    /// `WriterGate.lastStoredRecord`), four `lstat`s (one in `groupWriting`, which writes one
    /// document) and a small unsynced write after (see `WriteRecord`).
    /// Blind spot: a rename by a program that ignores the lock, between the check before and the
    /// one after (the write's few milliseconds), is taken for this write's own change (in
    /// `groupWriting`: only one in the written document's folder).
    func writing<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
        try writing(after: nil, body)
    }

    /// `writing` for a write of one document whose folder `fsync` is shared with other threads
    /// (group commit): `body` writes through `write(_:_:after:)` with the `AfterLock`
    /// it is given, which renames the document into place under the lock; the lock is then
    /// released, and this returns once `FolderSyncGroup` has fsynced the folder after that rename
    /// (the write is durable), then writes the `WriteRecord` taken under the lock.
    ///
    /// Another writer may take the lock, read the renamed document and write its own change before
    /// this folder `fsync` ran: it then waits for an `fsync` of the same folder after its own rename,
    /// which makes both durable, and returns no earlier than this caller could have.
    func groupWriting<R>(_ body: (AfterLock) throws(StoreError) -> R) throws(StoreError) -> R {
        let after = AfterLock()
        let result = try writing(after: after) { () throws(StoreError) in try body(after) }
        try after.complete(store: path, system: system)
        return result
    }

    private func writing<R>(after deferred: AfterLock?, _ body: () throws(StoreError) -> R) throws(StoreError) -> R {
        try requireWritable()
        let lock = try lockForWriting()
        defer { lock.release() }
        let before = try recordBeforeWriting(lock.gate)
        let result = try body()
        if let before {
            let after: WriteRecord
            if let deferred {
                // One document at most was written (`AfterLock.defer`), so this write changed one
                // tracked entry at most: its folder (created, if it was missing). The other
                // entries are kept as taken before: a change another program made to them since
                // (one that ignores the lock) then disagrees with the record, and the next open
                // checks in full, where a capture of every entry would have vouched for it.
                if let entry = deferred.writtenEntry {
                    after = try before.retaking(entry, store: path, system: system)
                } else {
                    after = before
                }
            } else {
                after = try WriteRecord.capture(store: path, system: system)
            }
            if !after.sameEntries(as: before) {
                // Numbered under the lock: a record stored after the lock (group commit) never
                // replaces one taken later (a stale record only costs the next open a full check).
                let number = lock.gate.nextRecordNumber()
                if let deferred {
                    deferred.record = (after, number)
                    deferred.gate = lock.gate
                } else {
                    lock.gate.storeRecord(after, number: number, store: path, system: system)
                }
            }
        }
        return result
    }

    /// The tracked entries now, when they are as this library left them (a trusted record equals
    /// them), else nil. The record this process stored last (`WriterGate.lastStoredRecord`) is
    /// tried first: a single writer then reads no `.writes` at all; when it differs (another
    /// process wrote since, or none was kept), `.writes` is read as before.
    private func recordBeforeWriting(_ gate: WriterGate) throws(StoreError) -> WriteRecord? {
        let own = gate.lastStoredRecord()
        var now: WriteRecord?
        if let own, own.isTrustworthy {
            let entries = try WriteRecord.capture(store: path, system: system)
            if entries.sameEntries(as: own) { return entries }
            now = entries
        }
        guard let record = try WriteRecord.read(store: path, system: system), record.isTrustworthy else { return nil }
        let entries: WriteRecord
        if let now { entries = now } else { entries = try WriteRecord.capture(store: path, system: system) }
        return entries.sameEntries(as: record) ? entries : nil
    }

    func requireWritable() throws(StoreError) {
        if options.readOnly {
            throw StoreError(.permissionDenied, "Can't write to '\(path)': the store was opened read-only.", path: path)
        }
        switch compatibility {
        case .needsMigration(let from):
            let fix =
                "Upgrade it first with StoreUpgrade.run(at:), which takes a verified backup and migrates it to schema v\(DocumentVersion.current); then open it again."
            throw StoreError(
                .unsupportedVersion,
                "Can't write to '\(path)': it is a schema v\(from) store, and this code writes schema v\(DocumentVersion.current) only. \(fix)",
                path: path, recovery: .advice(fix))
        case .refused:
            throw StoreError(.unsupportedVersion, "Can't write to '\(path)': \(compatibility.refusal ?? "this tool can't read it").", path: path)
        case .current, .breakingCurrent, .superseded:
            return
        }
    }

    /// Refuses a write of the `sessions/` layout (`WorkStreamV3` in or out, v3 and v4) on a store
    /// at v5 or later, whose work streams are `WorkStreamV5` documents: `api` names the v5 call to
    /// use instead.
    func requireV3Layout(_ call: String, use api: String) throws(StoreError) {
        guard hasRenamedLayout else { return }
        let renamed = StoreLayout.renamedFolderVersion
        throw StoreError(
            .unsupportedVersion,
            "Can't \(call) in '\(path)' as a v\(renamed - 1) work stream: it is a schema v\(compatibility.storeSchemaVersion) store, whose work streams are v\(renamed) documents in \(workStreamsFolderName)/. Use \(api) instead.",
            path: path, recovery: .advice("Use \(api)."))
    }

    /// Replaces one document durably (temp file, fsync, rename, fsync of the folder).
    ///
    /// An absent `sessions/` or `user-sessions/` reads as empty; the first write into it creates
    /// it (`Directories.create`: mkdir, fsync of the store folder), then writes the document. The
    /// common case costs nothing extra: the folder is created only after the write found it missing
    /// (`ENOENT` opening the folder, before anything was created).
    ///
    /// With `after` (inside `groupWriting`, once per call), the folder's `fsync` is left to
    /// `after`, which runs it, shared with other threads, once the lock is released.
    package func write(_ relative: String, _ bytes: [UInt8], after: AfterLock? = nil) throws(StoreError) {
        let full = file(relative)
        let name = relative.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(relative[relative.index(after: $0)...]) } ?? relative
        let directory = Directories.parent(of: full)
        var replaced: ReplacedFile
        do {
            replaced = try AtomicFile.replace(directory: directory, name: name, bytes: bytes, system: system)
        } catch  where error.errno == ENOENT && directory != path {
            guard try Directories.create(directory, system: system) else { throw error }
            replaced = try AtomicFile.replace(directory: directory, name: name, bytes: bytes, system: system)
        }
        if let after {
            after.defer(consume replaced, relative: relative)
        } else {
            try replaced.directory.sync(context: replaced.context)
        }
        ownWrites.recordWrite(document: full, system: system)
    }

    /// Creates a work stream as current code does (spec §4 dual write, §10): `backend_name` `""`,
    /// `provider_session_id` = its id, `provider` = `"claude"`, every v1 key and cursor with its default.
    ///
    /// - Throws: `.alreadyExists` when a work stream with this id exists.
    @discardableResult
    public func createWorkStream(
        id: UUID = UUID(), workingDirectory: String, provider: String = WorkStreamRules.defaultProvider,
        at date: Date = Date()
    ) throws(StoreError) -> WorkStreamV3 {
        try requireV3Layout("create work stream '\(id.lowercased)'", use: "createRenamedWorkStream(id:workingDirectory:provider:at:)")
        return try groupWriting { (after) throws(StoreError) in
            let relative = workStreamFile(id)
            if try system.linkStatus(file(relative), context: ErrorContext("create", file(relative))) != nil {
                throw StoreError(.alreadyExists, "Can't create work stream '\(id.lowercased)': '\(file(relative))' already exists.", path: file(relative))
            }
            var session = WorkStreamRules.newWorkStream(id: id, workingDirectory: workingDirectory, createdAt: date, provider: provider)
            session.schemaVersion = writtenVersion
            try write(relative, session.encoded, after: after)
            return session
        }
    }

    /// Deletes a work stream's file, after removing it from both queues (`queue.json` first, then
    /// the mirror of the entries that moved up; a v4 store has no mirror). Works on v3 and v4 stores. Its user customisation is kept: an orphan
    /// customisation is valid (spec §3) and keeps the user's name if the stream comes back.
    ///
    /// - Warning: This removes the work stream and its messages from the store. Take a backup first
    ///   if they may be needed (`migrate-store backup`).
    public func deleteWorkStream(_ id: UUID) throws(StoreError) {
        try writing { () throws(StoreError) in
            _ = try workStream(id)
            try mutateQueueHoldingLock { q in q.removeEverywhere(id) }
            let full = file(workStreamFile(id))
            let context = ErrorContext("delete", full)
            try system.unlink(full, context: context)
            // fsync the folder: the unlink is durable only once its directory entry is (man 2 fsync).
            let fd = try AtomicFile.openDirectory(workStreamsDirectory, system: system, context: context)
            try fd.sync(context: context)
            ownWrites.recordDeletion(document: full)
        }
    }

    /// Sets (or clears, with nil) the user's name for a work stream; creates the customisation if needed.
    @discardableResult
    public func setCustomName(_ id: UUID, _ name: String?, at date: Date = Date()) throws(StoreError) -> Customisation {
        try updateCustomisation(id, at: date) { $0.customName = name }
    }

    /// Sets or clears the "user deleted" flag (the user hid the work stream; spec §3).
    @discardableResult
    public func setUserDeleted(_ id: UUID, _ deleted: Bool, at date: Date = Date()) throws(StoreError) -> Customisation {
        try updateCustomisation(id, at: date) { $0.isUserDeleted = deleted }
    }

    /// The unsent text typed in a work stream (its customisation's `draft`, spec §11), or nil
    /// when there is none.
    /// A customisation an older writer left (below v4) is read through the chain, as a write
    /// would take it: the draft it kept as an unknown key counts.
    public func draft(of id: UUID) throws(StoreError) -> String? {
        guard let found = try customisation(id) else { return nil }
        let customisation = try upgradedSmallDocument(StoreLayout.customisationPath(id)) { () throws(SchemaError) in
            try MigrationChain.migrateCustomisation(found, to: max(writtenVersion, found.schemaVersion)).0
        }
        return customisation.hasDraft ? customisation.draft : nil
    }

    /// Keeps the unsent text typed in a work stream, as the app's `DraftManager` does: empty text
    /// clears it (the store writes `draft` null). A draft for a work stream without a
    /// customisation creates one (`created_at` = `date`); clearing one that has none writes nothing.
    /// - Returns: the customisation as written, or nil when there was none and `text` is empty.
    @discardableResult
    public func setDraft(_ text: String, for id: UUID, at date: Date = Date()) throws(StoreError) -> Customisation? {
        try groupWriting { (after) throws(StoreError) in
            let existing = try customisation(id)
            if text.isEmpty && existing == nil { return nil }
            return try writeCustomisation(existing, id, at: date, after: after) { $0.draft = text.isEmpty ? nil : text }
        }
    }

    func updateCustomisation(_ id: UUID, at date: Date, _ body: (inout Customisation) -> Void) throws(StoreError) -> Customisation {
        try groupWriting { (after) throws(StoreError) in
            try writeCustomisation(try customisation(id), id, at: date, after: after, body)
        }
    }

    /// `existing` (or a new customisation created at `date`) changed by `body`, written at this
    /// code's version when it changed.
    private func writeCustomisation(
        _ existing: Customisation?, _ id: UUID, at date: Date, after: AfterLock?, _ body: (inout Customisation) -> Void
    ) throws(StoreError) -> Customisation {
        // A document an older writer left goes through the chain first, so that a v4 key it
        // kept as an unknown key becomes the property this write keeps (spec §11).
        var doc =
            try existing.map { (found) throws(StoreError) in
                try upgradedSmallDocument(StoreLayout.customisationPath(id)) { () throws(SchemaError) in
                    try MigrationChain.migrateCustomisation(found, to: writtenVersion).0
                }
            } ?? Customisation(id: id, createdAt: date)
        body(&doc)
        doc.schemaVersion = writtenVersion
        if doc != existing { try write(StoreLayout.customisationPath(id), doc.encoded, after: after) }
        return doc
    }

    /// Changes `settings.json` under the lock (created with the defaults if absent).
    @discardableResult
    public func updateSettings(_ body: (inout Settings) -> Void) throws(StoreError) -> Settings {
        try writing { () throws(StoreError) in
            // `settings()` takes a file an older app left through the chain (spec §11).
            var doc = try settings()
            body(&doc)
            doc.schemaVersion = writtenVersion
            try write(StoreLayout.settings, doc.encoded)
            return doc
        }
    }

    /// A customisation or `settings.json` through the chain; its error names the file.
    private func upgradedSmallDocument<T>(_ relative: String, _ body: () throws(SchemaError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw StoreError.document(error, path: file(relative)) }
    }
}
