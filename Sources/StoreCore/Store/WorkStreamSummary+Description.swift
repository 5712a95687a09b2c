import StoreJSON

extension WorkStreamSummary: CustomStringConvertible {
    /// `work stream 555a622d-… 'Refactor the parser' (schema version 2): 12 messages stored, 3 unread,
    /// modified 2025-11-20T09:00:00.000Z, 4120 bytes`: what identifies it in a log, instead of every field.
    public var description: String {
        "work stream \(UUIDText.lowercase(id)) '\(backendName)' (schema version \(schemaVersion)): \(storedMessages) "
            + "message\(storedMessages == 1 ? "" : "s") stored, \(unreadCount) unread, modified \(RFC3339.format(lastModified)), "
            + "\(fileSize) bytes"
    }
}
