import Foundation
import StoreJSON

/// What listing a work stream needs: every top-level value, without keeping its messages.
public struct WorkStreamSummary: Sendable, Hashable {
    public var id: UUID
    public var schemaVersion: Int
    /// `backend_name`, or a v5 work stream's `name` (same value, spec §12).
    public var backendName: String
    public var workingDirectory: String
    public var lastModified: Date
    public var isLocallyCreated: Bool
    /// As reported by the backend (`message_count`).
    public var messageCount: Int32
    /// How many messages the file keeps locally.
    public var storedMessages: Int
    public var preview: String
    public var unreadCount: Int32
    /// The mirror keys; the defaults for a v5 work stream (it has none: see `queue.json`).
    public var queueKeys: QueueKeys
    /// `provider_session_id` if present, else the id (spec §4).
    public var effectiveProviderSessionID: String
    /// `provider` if present, else `"claude"`.
    public var effectiveProvider: String
    /// The file's size in bytes.
    public var fileSize: Int

    /// Decodes every top-level key of the document but not its messages, which are only
    /// counted (`JSONSkimmer`): listing a large store does not decode every message. A document
    /// the fast path cannot read is decoded in full, so its error is the exact one.
    /// `renamedFolder`: the document lives in `work-streams/` (see `WorkStreamDocument.init(json:acceptingNewerVersions:renamedFolder:)`).
    package init(bytes: [UInt8], acceptingNewerVersions: Bool, renamedFolder: Bool = false) throws(SchemaError) {
        if let (members, skipped) = JSONSkimmer.topLevel(bytes, skipping: ["messages"]), let stored = skipped["messages"] ?? 0 {
            let document = try WorkStreamDocument(
                json: .object(members), acceptingNewerVersions: acceptingNewerVersions,
                renamedFolder: renamedFolder)
            self.init(document, fileSize: bytes.count)
            storedMessages = stored
            return
        }
        let document = try WorkStreamDocument(bytes: bytes, acceptingNewerVersions: acceptingNewerVersions, renamedFolder: renamedFolder)
        self.init(document, fileSize: bytes.count)
    }

    package init(_ document: WorkStreamDocument, fileSize: Int) {
        let f = document.fields
        id = f.id; schemaVersion = document.schemaVersion; backendName = f.backendName
        workingDirectory = f.workingDirectory; lastModified = f.lastModified; isLocallyCreated = f.isLocallyCreated
        messageCount = f.messageCount; storedMessages = document.storedMessageCount; preview = f.preview
        unreadCount = f.unreadCount; queueKeys = f.queueKeys
        effectiveProviderSessionID = WorkStreamRules.effectiveProviderSessionID(document)
        effectiveProvider = WorkStreamRules.effectiveProvider(document)
        self.fileSize = fileSize
    }

    /// The queue-relevant part, for the queue logic.
    package var queueSummary: WorkStreamQueueSummary { WorkStreamQueueSummary(id: id, schemaVersion: schemaVersion, keys: queueKeys) }
}
