import Foundation
import StoreJSON

/// The app's rows as the store's documents (spec §13's attribute-to-key table). Each function
/// reads one row of the SELECT `CoreDataSchema` builds, in its column order.
enum CoreDataRows {
    /// A work-stream row (`CDBackendSession`, or `CDSession` in the early build) without its
    /// messages; nil when it has no id. With `backfill`, the offsets the app derives once from the
    /// sequence numbers on its first launch on model 7 are derived the same way (max(0, seq − 1)
    /// where the offset is 0), each value that changes reported (a seq of 1 gives 0: no change).
    static func workStream(_ v: CoreDataValues, _ f: inout CoreDataFindings, table: String, backfill: Bool) throws(StoreError) -> WorkStreamV3? {
        let pk = v.row.int64(0) ?? 0, id = v.uuid(1)
        f.row(table, pk, id)
        guard let id else {
            f.add(.missingValue, "id is empty or not a UUID; the work stream has no file name, so it is left out")
            return nil
        }
        let positive = 0...Int32.max, any = Int32.min...Int32.max
        let fields = WorkStreamFieldsV3(
            WorkStreamKeys(
                id: id, backendName: v.string(2, "backendName", default: "", &f),
                workingDirectory: v.string(3, "workingDirectory", default: "", &f),
                lastModified: v.requiredDate(5, "lastModified", &f),
                isLocallyCreated: try v.bool(4, "isLocallyCreated", &f),
                messageCount: v.int32(6, "messageCount", in: positive, default: 0, &f),
                preview: v.string(7, "preview", default: "", &f),
                unreadCount: v.int32(8, "unreadCount", in: positive, default: 0, &f),
                isInQueue: try v.bool(9, "isInQueue", &f), queuePosition: v.int32(10, "queuePosition", in: any, default: 0, &f),
                queuedAt: v.date(11, "queuedAt", &f),
                isInPriorityQueue: try v.bool(12, "isInPriorityQueue", &f),
                priority: v.int32(13, "priority", in: any, default: QueueV2.defaultPriority, &f),
                priorityOrder: v.double(14, "priorityOrder", &f),
                priorityQueuedAt: v.date(15, "priorityQueuedAt", &f)))
        var cursors = SyncCursors(
            nextSeq: v.counter(17, "nextSeq", &f), liveFromSeq: v.counter(18, "liveFromSeq", &f),
            lastOffsetMerged: v.counter(19, "lastOffsetMerged", &f),
            liveFromOffset: v.counter(20, "liveFromOffset", &f),
            lastFileSignature: v.optionalString(21, "lastFileSignature", &f))
        if backfill {
            if cursors.lastOffsetMerged == 0 && cursors.nextSeq > 1 {
                cursors.lastOffsetMerged = cursors.nextSeq - 1
                f.add(
                    .offsetBackfilled,
                    "last_offset_merged 0 → \(cursors.lastOffsetMerged): max(0, next_seq \(cursors.nextSeq) − 1), as the app does once on model 7")
            }
            if cursors.liveFromOffset == 0 && cursors.liveFromSeq > 1 {
                cursors.liveFromOffset = cursors.liveFromSeq - 1
                f.add(
                    .offsetBackfilled,
                    "live_from_offset 0 → \(cursors.liveFromOffset): max(0, live_from_seq \(cursors.liveFromSeq) − 1), as the app does once on model 7")
            }
        }
        // Spec §4: a work stream's provider session is its own id until compaction replaces it,
        // which the app's model does not record; the provider is `provider` (version 3 on), else "claude".
        let provider = v.string(16, "provider", default: "claude", &f)
        return WorkStreamV3(
            fields: fields, providerSessionID: id.lowercased, provider: provider, cursors: cursors,
            schemaVersion: CoreDataImport.schemaVersion)
    }

    /// The early build's customisation, kept in the work-stream row (`localName`, `markedDeleted`):
    /// nil when the name is empty and the work stream is not deleted. Reported when taken.
    static func earlyCustomisation(_ v: CoreDataValues, _ f: inout CoreDataFindings, of session: WorkStreamV3) throws(StoreError) -> Customisation? {
        let name = v.optionalString(22, "localName", &f).flatMap { $0.isEmpty ? nil : $0 }
        let deleted = v.row.isNull(23) ? false : try v.bool(23, "markedDeleted", &f)
        guard name != nil || deleted else { return nil }
        let lastModified = RFC3339.format(session.fields.lastModified)
        f.add(
            .customisationFromSession,
            "localName \(name.map { "'\($0)'" } ?? "empty") and markedDeleted \(deleted ? 1 : 0) taken as "
                + "the customisation: custom_name \(name.map { "'\($0)'" } ?? "none"), is_user_deleted \(deleted), created_at \(lastModified) (lastModified)")
        return Customisation(
            id: session.fields.id, createdAt: session.fields.lastModified, customName: name, isUserDeleted: deleted,
            schemaVersion: CoreDataImport.schemaVersion)
    }

    /// A message row (`CDMessage`): the message, its `sessionId`, and the `Z_PK` its relationship
    /// names; nil when it has no id. With `backfill`, `offset` := `seq` − 1 where it is 0 and `seq` > 0.
    static func message(_ v: CoreDataValues, _ f: inout CoreDataFindings, backfill: Bool) -> (message: Message?, sessionID: UUID?, relationship: Int64?) {
        let pk = v.row.int64(0) ?? 0, id = v.uuid(1), sessionID = v.uuid(2), relationship = v.row.int64(3)
        f.row(CoreDataModel.messageTable, pk, id)
        guard let id else {
            f.add(.missingValue, "id is empty or not a UUID; left out")
            return (nil, sessionID, relationship)
        }
        guard let sessionID else { return (nil, nil, relationship) }
        let seq = v.counter(9, "seq", &f)
        var offset = v.counter(10, "offset", &f)
        if backfill && offset == 0 && seq > 1 {
            offset = seq - 1
            f.add(.offsetBackfilled, "offset 0 → \(offset): max(0, seq \(seq) − 1), as the app does once on model 7")
        }
        let message = Message(
            id: id, sessionID: sessionID, role: v.string(4, "role", default: "", &f),
            text: v.string(5, "text", default: "", &f), timestamp: v.requiredDate(6, "timestamp", &f),
            serverTimestamp: v.date(7, "serverTimestamp", &f),
            status: v.string(8, "status", default: "confirmed", &f), seq: seq, offset: offset)
        return (message, sessionID, relationship)
    }

    /// A customisation row (`CDUserSession`); nil when it has no id.
    static func customisation(_ v: CoreDataValues, _ f: inout CoreDataFindings) throws(StoreError) -> Customisation? {
        let pk = v.row.int64(0) ?? 0, id = v.uuid(1)
        f.row(CoreDataModel.customisationTable, pk, id)
        guard let id else {
            f.add(.missingValue, "id is empty or not a UUID; the customisation has no file name, so it is left out")
            return nil
        }
        return Customisation(
            id: id, createdAt: v.requiredDate(4, "createdAt", &f), customName: v.optionalString(2, "customName", &f),
            isUserDeleted: try v.bool(3, "isUserDeleted", &f), schemaVersion: CoreDataImport.schemaVersion)
    }
}
