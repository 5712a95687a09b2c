import Foundation

/// The work-stream API of a store at schema v5 (spec §12): `WorkStreamV5` documents in
/// `work-streams/`, with `name` for `backend_name` and no queue keys (the queue lives in
/// `queue.json` only, changed by the queue methods, which work on v4 and v5 stores alike).
///
/// The `sessions/`-layout calls (`createWorkStream`, `updateWorkStream`, `appendMessages`) refuse a v5
/// store with a `StoreError` naming these; these refuse a store below v5 the same way. Reading
/// (`workStream`, `listWorkStreams`, `summary`), deleting, customisations, settings and the
/// queue work on both.
///
/// ```swift
/// let stream = try store.createRenamedWorkStream(workingDirectory: "/Users/ana/app")
/// try store.appendMessagesToRenamedWorkStream(stream.id, [message])
/// try store.updateRenamedWorkStream(stream.id) { $0.name = "Deploy the fix" }
/// ```
extension Store {
    /// Creates a work stream as v5 code writes it: `name` `""`, `provider_session_id` = its id,
    /// `provider` as given (`"claude"` by default), the cursors at their defaults, no queue keys.
    ///
    /// - Throws: `.alreadyExists` when a work stream with this id exists; `.unsupportedVersion`
    ///   on a store below v5 (use `createWorkStream`).
    @discardableResult
    public func createRenamedWorkStream(
        id: UUID = UUID(), workingDirectory: String, provider: String = WorkStreamRules.defaultProvider,
        at date: Date = Date()
    ) throws(StoreError) -> WorkStreamV5 {
        try requireRenamedLayout("create work stream '\(id.lowercased)'", use: "createWorkStream(id:workingDirectory:provider:at:)")
        return try writing { () throws(StoreError) in
            let relative = workStreamFile(id)
            if try system.linkStatus(file(relative), context: ErrorContext("create", file(relative))) != nil {
                throw StoreError(.alreadyExists, "Can't create work stream '\(id.lowercased)': '\(file(relative))' already exists.", path: file(relative))
            }
            var session = WorkStreamRules.newRenamedWorkStream(id: id, workingDirectory: workingDirectory, createdAt: date, provider: provider)
            session.schemaVersion = writtenVersion
            try write(relative, session.encoded)
            return session
        }
    }

    /// One work stream of a v5 store.
    /// - Throws: `.notFound` without such a work stream; `.unsupportedVersion` on a store below v5.
    public func renamedWorkStream(_ id: UUID) throws(StoreError) -> RenamedWorkStream {
        try requireRenamedLayout("read work stream '\(id.lowercased)'", use: "workStream(_:)", writing: false)
        guard case .v5(let session) = try workStream(id) else {
            preconditionFailure("Store.workStream: a store at v5 or later decoded a work stream below v5")
        }
        return session
    }

    /// Reads a work stream under the lock, lets `body` change it, and writes it back durably
    /// (only if a byte changed). `body` may not change `id` (it is the file name). There are no
    /// queue keys to protect: the queue is changed with the queue methods, in `queue.json` only.
    ///
    /// With `Options.messageRetention` set, the messages are then pruned to the newest ones by its
    /// rule (the prune leaves `message_count` as it is; `appendMessagesToRenamedWorkStream` sets it).
    ///
    /// - Throws: `StoreError`: `.invalidArgument` when `body` changed the id (nothing is written);
    ///   `.notFound` without such a work stream; `.unsupportedVersion` on a store below v5; a
    ///   document or system-call error; whatever `body` throws.
    @discardableResult
    public func updateRenamedWorkStream(_ id: UUID, _ body: (inout RenamedWorkStream) throws(StoreError) -> Void) throws(StoreError) -> RenamedWorkStream {
        try requireRenamedLayout("update work stream '\(id.lowercased)'", use: "updateWorkStream(_:_:)")
        return try writing { () throws(StoreError) in try updateV4HoldingLock(id, body) }
    }

    /// `updateRenamedWorkStream`'s work, for a caller that holds the lock.
    func updateV4HoldingLock(_ id: UUID, _ body: (inout WorkStreamV5) throws(StoreError) -> Void) throws(StoreError) -> WorkStreamV5 {
        let relative = workStreamFile(id)
        let original = try FileReader.read(file(relative), system: system)
        guard case .v5(var session) = try decodeWorkStream(id, bytes: original) else {
            preconditionFailure("Store.decodeWorkStream: a store at v5 or later decoded a work stream below v5")
        }
        try body(&session)
        if session.id != id {
            let fix = "Leave 'id' as it is; to use another id, create a new work stream with createRenamedWorkStream(id:workingDirectory:)."
            throw StoreError(
                .invalidArgument,
                "Can't update work stream '\(id.lowercased)' in '\(path)': the change sets its id "
                    + "to '\(session.id.lowercased)', but a work stream's id is its file name. \(fix) Nothing was written.",
                path: file(relative), recovery: .advice(fix))
        }
        options.messageRetention?.prune(&session.messages)
        session.schemaVersion = max(session.schemaVersion, writtenVersion)
        let bytes = session.encoded
        if !sameBytes(bytes, original) { try write(relative, bytes) }
        return session
    }

    /// Refuses a call typed for the renamed layout (v5) on a store below it: `api` names the call
    /// of the `sessions/` layout to use instead.
    func requireRenamedLayout(_ call: String, use api: String, writing: Bool = true) throws(StoreError) {
        if writing { try requireWritable() }
        guard !hasRenamedLayout else { return }
        let renamed = StoreLayout.renamedFolderVersion
        let ways = StoreError.Recovery.runCommand(
            .migrate(store: path, to: renamed, allowBreaking: true),
            advice: "Use \(api), or move the store to v\(renamed) first (a migration that takes the breaking step).",
            before: "Use \(api), or move the store to v\(renamed) first with ", after: ".")
        throw StoreError(
            .unsupportedVersion,
            text: .init(
                "Can't \(call) in '\(path)' as a v\(renamed) work stream: it is a schema v\(compatibility.storeSchemaVersion) store, whose work streams are in \(workStreamsFolderName)/. ",
                ways),
            path: path, recovery: .advice("Use \(api)."))
    }
}
