import Foundation

/// The app's rows as the store's documents (spec §12's attribute-to-key table). Each function
/// reads one row of the SELECT `CoreDataModel` builds, in its column order.
enum CoreDataRows {
    /// A work-stream row (`CDBackendSession`) without its messages; nil when it has no id.
    static func workStream(_ v: CoreDataValues, _ f: inout CoreDataFindings) -> SessionV3? {
        let table = CoreDataModel.workStreamTable
        let pk = v.row.int64(0) ?? 0, id = v.uuid(1)
        f.row(table, pk, id)
        guard let id else {
            f.add(.missingValue, "id is empty or not a UUID; the work stream has no file name, so it is left out")
            return nil
        }
        let positive = 0...Int32.max, any = Int32.min...Int32.max
        let fields = SessionFieldsV1(
            id: id, backendName: v.string(2, "backendName", default: "", &f),
            workingDirectory: v.string(3, "workingDirectory", default: "", &f),
            lastModified: v.requiredDate(5, "lastModified", &f),
            isLocallyCreated: v.bool(4, "isLocallyCreated", &f),
            messageCount: v.int32(6, "messageCount", in: positive, default: 0, &f),
            preview: v.string(7, "preview", default: "", &f),
            unreadCount: v.int32(8, "unreadCount", in: positive, default: 0, &f),
            isInQueue: v.bool(9, "isInQueue", &f), queuePosition: v.int32(10, "queuePosition", in: any, default: 0, &f),
            queuedAt: v.date(11, "queuedAt", &f),
            isInPriorityQueue: v.bool(12, "isInPriorityQueue", &f),
            priority: v.int32(13, "priority", in: any, default: QueueV2.defaultPriority, &f),
            priorityOrder: v.double(14, "priorityOrder", &f),
            priorityQueuedAt: v.date(15, "priorityQueuedAt", &f))
        let cursors = SyncCursors(nextSeq: v.counter(17, "nextSeq", &f), liveFromSeq: v.counter(18, "liveFromSeq", &f),
                                  lastOffsetMerged: v.counter(19, "lastOffsetMerged", &f),
                                  liveFromOffset: v.counter(20, "liveFromOffset", &f), lastFileSignature: v.row.text(21))
        // Spec §4: a work stream's provider session is its own id until compaction replaces it,
        // which the app's model does not record; the provider is `provider` (version 3 on), else "claude".
        let provider = v.string(16, "provider", default: "claude", &f)
        return SessionV3(fields: fields, providerSessionID: id.lowercased, provider: provider, cursors: cursors,
                         schemaVersion: CoreDataImport.schemaVersion)
    }

    /// A message row (`CDMessage`): the message, its `sessionId`, and the `Z_PK` its relationship
    /// names; nil when it has no id.
    static func message(_ v: CoreDataValues, _ f: inout CoreDataFindings) -> (message: MessageV1?, sessionID: UUID?, relationship: Int64?) {
        let pk = v.row.int64(0) ?? 0, id = v.uuid(1), sessionID = v.uuid(2), relationship = v.row.int64(3)
        f.row(CoreDataModel.messageTable, pk, id)
        guard let id else {
            f.add(.missingValue, "id is empty or not a UUID; left out")
            return (nil, sessionID, relationship)
        }
        guard let sessionID else { return (nil, nil, relationship) }
        let message = MessageV1(id: id, sessionID: sessionID, role: v.string(4, "role", default: "", &f),
                                text: v.string(5, "text", default: "", &f), timestamp: v.requiredDate(6, "timestamp", &f),
                                serverTimestamp: v.date(7, "serverTimestamp", &f),
                                status: v.string(8, "status", default: "confirmed", &f),
                                sync: MessageSync(seq: v.counter(9, "seq", &f), offset: v.counter(10, "offset", &f)))
        return (message, sessionID, relationship)
    }

    /// A customisation row (`CDUserSession`); nil when it has no id.
    static func customization(_ v: CoreDataValues, _ f: inout CoreDataFindings) -> UserSessionV1? {
        let pk = v.row.int64(0) ?? 0, id = v.uuid(1)
        f.row(CoreDataModel.customizationTable, pk, id)
        guard let id else {
            f.add(.missingValue, "id is empty or not a UUID; the customisation has no file name, so it is left out")
            return nil
        }
        return UserSessionV1(id: id, createdAt: v.requiredDate(4, "createdAt", &f), customName: v.row.text(2),
                             isUserDeleted: v.bool(3, "isUserDeleted", &f), schemaVersion: CoreDataImport.schemaVersion)
    }
}
