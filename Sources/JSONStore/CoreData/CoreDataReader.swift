import Foundation

/// The two passes over the app's rows: the queue from every work stream's queue keys, then each
/// work stream with its messages, streamed (one work stream's messages in memory at a time).
///
/// Messages belong to the work stream their `sessionId` names (the app fetches them by it, spec
/// §13). Both queries are ordered by id bytes, so the messages are merged into their work streams
/// in one pass over each table.
struct CoreDataReader {
    let source: CoreDataSource
    let model: CoreDataModel
    /// The time of the import: the new store's `created_at`, and what an empty required date becomes.
    let now: Date
    /// Whether the offsets are derived from the sequence numbers, as the app does once on model 7.
    let backfill: Bool
    private(set) var findings = CoreDataFindings()
    /// The early build's customisations, met in its work-stream rows, for `writeCustomisations`.
    private var earlyCustomisations: [Customisation] = []
    /// Every work stream's `Z_PK` → id, to check each message's relationship against its `sessionId`.
    private var idByPrimaryKey: [Int64: UUID] = [:]
    /// The number of work streams pass 2 writes (one per distinct id), known after pass 1.
    private(set) var workStreamCount = 0

    init(source: CoreDataSource, model: CoreDataModel, backfill: Bool, now: Date) {
        self.source = source; self.model = model; self.backfill = backfill
        findings.source = source.path
        // Whole milliseconds: what the store writes, so that the report and the files agree.
        self.now = Date(timeIntervalSince1970: (now.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    /// Pass 1: the queue (spec §6 rules 5–6) from the work streams' queue keys, as the app shows it.
    mutating func buildQueue() throws(StoreError) -> QueueV2 {
        var summaries: [WorkStreamQueueSummary] = []
        var previous: UUID?
        var ignored = CoreDataFindings()
        ignored.source = source.path
        let now = self.now, table = model.workStreamTable, early = model.build == .early
        var ids: [Int64: UUID] = [:]
        var customisations: [Customisation] = []
        try source.database.query(model.workStreamQuery) { (row: SQLiteRow) throws(StoreError) in
            let values = CoreDataValues(row: row, now: now)
            guard let session = try CoreDataRows.workStream(values, &ignored, table: table, backfill: false) else { return }
            ids[ignored.primaryKey] = session.fields.id
            guard session.fields.id != previous else { return }
            previous = session.fields.id
            summaries.append(WorkStreamQueueSummary(id: session.fields.id, schemaVersion: CoreDataImport.schemaVersion, keys: session.fields.queueKeys))
            // Known before pass 2 so that the documents can be counted first; pass 2 reports them.
            if early, let customisation = try CoreDataRows.earlyCustomisation(values, &ignored, of: session) { customisations.append(customisation) }
        }
        idByPrimaryKey = ids
        workStreamCount = summaries.count
        earlyCustomisations = customisations
        var queue = QueueBuilder.build(from: summaries)
        queue.schemaVersion = CoreDataImport.schemaVersion
        return queue
    }

    /// Pass 2: every work stream with its messages, its queue keys mirrored from `queue`.
    mutating func writeWorkStreams(queue: QueueV2, to output: DocumentOutput) throws(StoreError) -> (workStreams: Int, messages: Int) {
        let duplicates = try duplicateIDs(CoreDataModel.messageTable)
        let index = QueueIndex(queue)
        let messages = try source.database.prepare(model.messageQuery)
        var cursor = MessageCursor(statement: messages, duplicates: duplicates, now: now, backfill: backfill)
        try cursor.advance(&findings)
        var previous: UUID?
        var counts = (workStreams: 0, messages: 0)
        var f = findings
        let now = self.now, ids = idByPrimaryKey, table = model.workStreamTable, backfill = self.backfill, early = model.build == .early
        try source.database.query(model.workStreamQuery) { (row: SQLiteRow) throws(StoreError) in
            let values = CoreDataValues(row: row, now: now)
            guard var session = try CoreDataRows.workStream(values, &f, table: table, backfill: backfill) else { return }
            let id = session.fields.id
            if id == previous {
                f.add(.duplicateID, "a second work stream with this id; the first (lowest Z_PK) is imported, this row is left out")
                return
            }
            previous = id
            if early { _ = try CoreDataRows.earlyCustomisation(values, &f, of: session) }  // its finding; pass 1 kept it
            let (table, pk) = (f.table, f.primaryKey)
            session.fields.messages = try cursor.take(id, ids: ids, &f)
            f.row(table, pk, id)
            let mirrored = index.mirror(for: id, current: session.fields.queueKeys)
            if mirrored.queuePosition != session.fields.queuePosition {
                f.add(
                    .queueRenumbered,
                    "queue_position \(session.fields.queuePosition) → \(mirrored.queuePosition) (the FIFO queue is numbered 1…n in the app's order)")
            }
            session.fields.queueKeys = mirrored
            try output.add(StoreLayout.workStreamPath(id), session.encoded)
            counts.workStreams += 1
            counts.messages += session.fields.messages.count
        }
        try cursor.drain(&f)
        findings = f
        return counts
    }

    /// Every customisation (`CDUserSession`), including those of work streams that do not exist
    /// (in the early build, those its work-stream rows held), each with its draft from `drafts`;
    /// then a new customisation (`created_at` the time of the import) for each draft whose work
    /// stream has none (spec §11).
    ///
    /// - Returns: The documents, the number of drafts they hold, and how many were created for one.
    mutating func readCustomisations(drafts: [UUID: String]) throws(StoreError) -> (documents: [Customisation], drafts: Int, created: Int) {
        var documents = earlyCustomisations
        if let query = model.customisationQuery {
            var previous: UUID?
            var f = findings
            let now = self.now
            try source.database.query(query) { (row: SQLiteRow) throws(StoreError) in
                guard let customisation = try CoreDataRows.customisation(CoreDataValues(row: row, now: now), &f) else { return }
                if customisation.id == previous {
                    f.add(.duplicateID, "a second customisation with this id; the first (lowest Z_PK) is imported, this row is left out")
                    return
                }
                previous = customisation.id
                documents.append(customisation)
            }
            findings = f
        }
        var left = drafts
        for index in documents.indices {
            documents[index].draft = left.removeValue(forKey: documents[index].id)
        }
        let created = left.sorted { $0.key.lowercased < $1.key.lowercased }.map {
            Customisation(id: $0.key, createdAt: now, draft: $0.value, schemaVersion: CoreDataImport.schemaVersion)
        }
        return (documents + created, drafts.count, created.count)
    }

    /// The ids that more than one row of `table` has (normally none: the app's model makes ids unique).
    private func duplicateIDs(_ table: String) throws(StoreError) -> Set<[UInt8]> {
        var ids: Set<[UInt8]> = []
        try source.database.query("SELECT ZID FROM \(table) WHERE ZID IS NOT NULL GROUP BY ZID HAVING COUNT(*) > 1") { row in
            if let id = row.blob(0) { ids.insert(id) }
        }
        return ids
    }
}

/// The message query, read ahead by one row: ordered by `sessionId`, so each work stream takes
/// the run of messages that name it, and messages before it name no work stream.
private struct MessageCursor {
    let statement: SQLiteStatement
    let duplicates: Set<[UInt8]>
    let now: Date
    let backfill: Bool
    private var seenDuplicates: Set<[UInt8]> = []
    /// The message read ahead, with its `sessionId` and relationship; nil at the end.
    private var pending: (message: Message?, sessionID: UUID?, relationship: Int64?, table: String, pk: Int64, id: String?)?

    init(statement: SQLiteStatement, duplicates: Set<[UInt8]>, now: Date, backfill: Bool) {
        self.statement = statement; self.duplicates = duplicates; self.now = now; self.backfill = backfill
    }

    mutating func advance(_ f: inout CoreDataFindings) throws(StoreError) {
        pending = nil
        while try statement.step() {
            let row = statement.row
            let values = CoreDataValues(row: row, now: now)
            let read = CoreDataRows.message(values, &f, backfill: backfill)
            if read.message != nil, read.sessionID != nil, let raw = row.blob(1), duplicates.contains(raw) {
                guard seenDuplicates.insert(raw).inserted else {
                    f.add(.duplicateID, "a second message with this id; the first (by sessionId, timestamp, Z_PK) is imported, this row is left out")
                    continue
                }
            }
            if read.sessionID == nil {
                // A row without an id was reported as such already.
                if values.uuid(1) != nil { f.add(.orphanMessage, "sessionId is empty or not a UUID, so it names no work stream; left out") }
                continue
            }
            if read.message == nil { continue }
            pending = (read.message, read.sessionID, read.relationship, f.table, f.primaryKey, f.id)
            return
        }
    }

    /// The messages that name `id`, in the order the app shows them: `timestamp`, then `offset`
    /// (after the backfill), then `Z_PK`. Those before it name no work stream.
    mutating func take(_ id: UUID, ids: [Int64: UUID], _ f: inout CoreDataFindings) throws(StoreError) -> [Message] {
        var taken: [(message: Message, pk: Int64)] = []
        while let current = pending, let sessionID = current.sessionID {
            let order = compare(sessionID, id)
            if order > 0 { break }
            f.table = current.table; f.primaryKey = current.pk; f.id = current.id
            if order < 0 {
                f.add(.orphanMessage, "sessionId \(sessionID.lowercased) names no work stream; left out")
            } else if let message = current.message {
                if let pk = current.relationship, ids[pk] != id {
                    let other = ids[pk].map { "work stream \($0.lowercased)" } ?? "no work stream"
                    f.add(
                        .relationshipDisagrees,
                        "its relationship (session Z_PK \(pk)) names \(other), its sessionId \(id.lowercased); kept in \(id.lowercased), as the app shows it")
                }
                taken.append((message, current.pk))
            }
            try advance(&f)
        }
        taken.sort { ($0.message.timestamp, $0.message.offset, $0.pk) < ($1.message.timestamp, $1.message.offset, $1.pk) }
        return taken.map(\.message)
    }

    /// The messages after the last work stream: they name none.
    mutating func drain(_ f: inout CoreDataFindings) throws(StoreError) {
        while let current = pending, let sessionID = current.sessionID {
            f.table = current.table; f.primaryKey = current.pk; f.id = current.id
            f.add(.orphanMessage, "sessionId \(sessionID.lowercased) names no work stream; left out")
            try advance(&f)
        }
    }

    /// SQLite's order of 16-byte blobs: `memcmp` of the UUID bytes.
    private func compare(_ a: UUID, _ b: UUID) -> Int {
        withUnsafeBytes(of: a.uuid) { x in
            withUnsafeBytes(of: b.uuid) { y in
                for i in 0..<16 where x[i] != y[i] { return x[i] < y[i] ? -1 : 1 }
                return 0
            }
        }
    }
}
