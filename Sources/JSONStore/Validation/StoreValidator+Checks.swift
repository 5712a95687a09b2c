import Foundation

/// The checks of `validate`, each adding problems or notes to the scan.
extension StoreValidator {
    /// The top-level documents a store may hold (spec §1).
    public static let documentFiles = Set(StoreLayout.topLevelDocuments.keys)
    /// The document folders of this store's version (`work-streams` replaces `sessions` from v4).
    var documentFolders: [String] { StoreLayout.documentFolderNames(schemaVersion: schemaVersion) }

    /// Spec §1: nothing but the listed names (and dot names) may live in a store. The work-stream
    /// folder of the other side of the v3 ↔ v4 layout change is a warning (a note): an interrupted
    /// `migrate` left it, and it is never read.
    mutating func scanEntries() throws(StoreError) {
        entries = try store.topLevelEntries()
        let leftover = StoreLayout.otherWorkStreamsFolder(schemaVersion: schemaVersion)
        let allowed = ([StoreLayout.manifest] + documentFolders.map { $0 + "/" } + [StoreLayout.settings, StoreLayout.queue]).joined(separator: ", ")
        for entry in entries {
            if entry.name == leftover && schemaVersion >= DocumentVersion.current {
                notes.append(
                    StoreProblem(
                        file: entry.name, code: "interrupted_layout_change",
                        message:
                            "left by an interrupted \(Store.layoutChangeDescription); this v\(schemaVersion) store keeps its work streams in \(store.workStreamsFolderName)/ and never reads it",
                        recovery: .run(.migrate(store: store.path), plainly: "Migrate the store", " to finish it.")))
            } else if documentFolders.contains(entry.name) {
                guard entry.kind != .folder else { continue }
                problems.append(
                    StoreProblem(
                        file: entry.name, code: "not_a_folder",
                        message:
                            "a \(entry.kind == .file ? "file" : entry.kind == .symbolicLink ? "symbolic link" : "special file") where the store keeps a folder of documents, so its documents can't be read",
                        fix: "Move it out of the store and restore the folder from a backup."))
            } else if !Self.documentFiles.contains(entry.name) {
                problems.append(
                    StoreProblem(
                        file: entry.name, code: "unexpected_entry",
                        message: "not part of a store: spec §1 allows only \(allowed) and names starting with a dot",
                        fix: "Move it out of the store."))
            }
        }
        // An absent document folder is an empty one for every reader and command; the store creates
        // it with the first document it writes there. Worth a note (a folder deleted by mistake
        // loses its documents), not a problem.
        for name in documentFolders where !entries.contains(where: { $0.name == name }) {
            notes.append(
                StoreProblem(
                    file: name, code: "missing_folder", message: "absent, so it is read as an empty folder",
                    fix: "Nothing to do: the store creates it with its first document. If it held documents, restore it from a backup."))
        }
    }

    /// The id inside a document equals its file name (spec §1); a mismatch may also mean two
    /// documents claim the same id.
    mutating func checkID(_ inside: UUID, _ id: UUID, folder: String) -> Bool {
        guard inside != id else { return true }
        let other = "\(folder)/\(inside.lowercased).json"
        let duplicate = folder == store.workStreamsFolderName ? sessionFiles.contains(inside) : false
        problems.append(
            StoreProblem(
                file: "\(folder)/\(id.lowercased).json", keyPath: "id",
                code: duplicate ? "duplicate_id" : "id_mismatch",
                message: "the id inside is '\(inside.lowercased)' but the file name says '\(id.lowercased)'"
                    + (duplicate ? ", and \(other) exists too: two documents claim the same id" : "; readers refuse the document"),
                fix: duplicate
                    ? "Keep the right one of the two documents and move the other out of the store."
                    : "Rename the file to '\(inside.lowercased).json' if the id is right, or set id to '\(id.lowercased)'."))
        return false
    }

    /// One work stream: its version in this store, what migration would refuse, and its messages.
    mutating func checkWorkStream(_ document: WorkStreamDocument, file: String) {
        let storeVersion = store.compatibility.storeSchemaVersion
        if document.schemaVersion < 2 && !isV1 {
            problems.append(
                StoreProblem(
                    file: file, keyPath: "schema_version", code: "v1_document_in_v2_store",
                    message: "schema_version \(document.schemaVersion) in a v\(storeVersion) store: a v1 writer (the app after a rollback) wrote it",
                    recovery: .run(
                        .migrate(store: store.path), plainly: "Migrate the store", ": it upgrades the document and keeps what either version wrote (spec §7)."))
            )
        } else if document.schemaVersion < min(storeVersion, DocumentVersion.current) && !isV1 {
            problems.append(
                StoreProblem(
                    file: file, keyPath: "schema_version", code: "older_document_in_store",
                    message:
                        "schema_version \(document.schemaVersion) in a v\(storeVersion) store: an older app (after a rollback) wrote it, so its sync cursors can't be trusted",
                    recovery: .run(
                        .migrate(store: store.path), plainly: "Migrate the store",
                        ": it upgrades the document, resets its cursors (the app re-syncs it) and keeps what either version wrote (spec §7, §10).")))
        }
        // A v4 work stream goes through no step (the inverse is the engine's, with its own checks).
        let target = min(MigrationChain.newest, DocumentVersion.current)
        if document.hasQueueMirror && document.schemaVersion < target {
            // What the migration would refuse (a newer key of the wrong type that it must keep).
            do throws(SchemaError) {
                _ = try MigrationChain.migrateWorkStream(document, storeVersion: store.compatibility.storeSchemaVersion, to: target)
            } catch {
                problems.append(StoreProblem(error, file: file))
            }
        }
        switch document {
        case .v1(let s): checkMessages(s.fields.messages, of: document, file: file)
        case .v2(let s): checkMessages(s.fields.messages, of: document, file: file)
        case .v3(let s): checkMessages(s.fields.messages, of: document, file: file)
        case .v5(let s): checkMessages(s.messages, of: document, file: file)
        }
    }

    /// Each message's `session_id` (its work stream's id) and `id` (unique in the store).
    private mutating func checkMessages<Message: WorkStreamMessage>(_ messages: [Message], of document: WorkStreamDocument, file: String) {
        let id = document.fields.id
        for (index, message) in messages.enumerated() {
            if message.sessionID != id { reportSessionID(message.sessionID, of: document, file: file, index: index) }
            if let first = messageIDs[message.id] {
                problems.append(
                    StoreProblem(
                        file: file, keyPath: "messages[\(index)].id", code: "duplicate_message_id",
                        message:
                            "message id '\(message.id.lowercased)' is also used by \(first.file) messages[\(first.index)]; message ids are unique in a store (spec §3)",
                        fix: "Give one of the two messages a new lowercase UUID by hand."))
            } else {
                messageIDs[message.id] = (file, index)
            }
        }
    }

    /// A message whose `session_id` is not its work stream: migration fixes it in a v1 document
    /// (spec §6 rule 4, a note); in a v2 document nothing will, so it is a problem.
    private mutating func reportSessionID(_ sessionID: UUID, of document: WorkStreamDocument, file: String, index: Int) {
        let id = document.fields.id.lowercased
        let message = "'\(sessionID.lowercased)' is not the containing work stream '\(id)'"
        if case .v1 = document {
            notes.append(
                StoreProblem(
                    file: file, keyPath: "messages[\(index)].session_id", code: "message_session_id_differs",
                    message: message + " (a known v1 bug)",
                    recovery: .runCommand(
                        .migrate(store: nil), advice: "Nothing to do now: migrating the store sets it to '\(id)' (containment wins, spec §6 rule 4).",
                        before: "Nothing to do now: ", after: " sets it to '\(id)' (containment wins, spec §6 rule 4).")))
        } else {
            problems.append(
                StoreProblem(
                    file: file, keyPath: "messages[\(index)].session_id", code: "message_session_id_differs",
                    message: message,
                    fix: "Set it to '\(id)' by hand (containment wins, spec §6 rule 4); migration only fixes v1 documents."))
        }
    }

    /// Every `queue.json` entry names an existing work stream.
    mutating func checkQueueEntries(_ queue: QueueV2) {
        for missing in QueueIntegrity.missingEntries(queue, existing: sessionFiles) {
            let id = missing.workStreamID
            problems.append(
                StoreProblem(
                    file: StoreLayout.queue, keyPath: "\(missing.list.rawValue)[\(missing.index)].work_stream_id", code: "queue_entry_missing",
                    message: "work stream '\(id.lowercased)' does not exist (no \(store.workStreamFile(id))); a client hides the entry",
                    recovery: .run(.migrate(store: store.path), plainly: "Migrate the store", ": it drops entries for missing work streams (spec §7).")))
        }
    }

    /// Check (d) of spec §7: the queue a v1 reader derives from the session keys equals `queue.json`.
    mutating func checkMirror(_ queue: QueueV2) {
        guard sessions.count == sessionFiles.count else {
            notes.append(
                StoreProblem(
                    file: StoreLayout.queue, code: "mirror_not_checked",
                    message:
                        "not compared with the session keys: \(TextFormat.plural(sessionFiles.count - sessions.count, "work-stream document")) can't be used (see the problems above)",
                    fix: "Fix the unreadable documents first, then validate again."))
            return
        }
        guard let failure = RollbackCheck.checkMirror(sessions: sessions.map(\.queueSummary), queue: queue) else { return }
        let v1Written = sessions.filter { $0.schemaVersion < 2 }.count
        problems.append(
            StoreProblem(
                file: StoreLayout.queue, code: "mirror_disagrees",
                message: "it disagrees with the session keys v1 readers use (spec §7 check (d)): \(failure.reason)",
                recovery: .run(
                    .migrate(store: store.path), plainly: "Migrate the store",
                    v1Written > 0
                        ? ": a v1 writer wrote \(TextFormat.plural(v1Written, "work stream")), so the session keys are the truth and queue.json is rebuilt from them (spec §7)."
                        : ": queue.json is the truth and the mirror is rewritten from it (spec §7).")))
    }

    /// A v1 store with v2 documents (or `queue.json`) is a migration that stopped before `store.json`.
    mutating func checkMigrationState() {
        guard isV1 else { return }
        let v2 =
            sessions.filter { $0.schemaVersion >= 2 }.count + customisations.filter { $0.document.schemaVersion >= 2 }.count
            + ((settings?.schemaVersion ?? 1) >= 2 ? 1 : 0)
        let hasQueue = entries.contains { $0.name == StoreLayout.queue }
        let state = StoreStatus.migrationState(store.compatibility, upgradedDocuments: v2 + (hasQueue ? 1 : 0), olderDocuments: 0)
        guard case .interrupted = state else { return }
        var what: [String] = []
        if v2 > 0 { what.append("\(TextFormat.plural(v2, "document")) \(v2 == 1 ? "is" : "are") v2") }
        if hasQueue { what.append("queue.json exists") }
        problems.append(
            StoreProblem(
                file: StoreLayout.manifest, keyPath: "schema_version", code: "migration_incomplete",
                message:
                    "the store says schema_version 1, but \(what.joined(separator: " and ")): a migration stopped before its end (v1 readers still read the store correctly)",
                recovery: .run(.migrate(store: store.path), plainly: "Migrate the store", " to finish it.")))
    }
}
