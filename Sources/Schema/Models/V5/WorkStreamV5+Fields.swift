import Foundation

extension WorkStreamV5 {
    /// The v1 keys of this work stream other than `messages`, for code that works on the keys
    /// of any version (listing, display, checks): `backend_name` is `name` (verbatim), and the
    /// seven queue keys are the defaults of §3, since a v5 work stream has no mirror (its queue
    /// state is in `queue.json`).
    ///
    /// Setting it changes `name` and the other v1 keys; its queue keys are not stored.
    public var keys: WorkStreamKeys {
        get {
            WorkStreamKeys(
                id: id, backendName: name, workingDirectory: workingDirectory, lastModified: lastModified,
                isLocallyCreated: isLocallyCreated, messageCount: messageCount, preview: preview,
                unreadCount: unreadCount)
        }
        set {
            id = newValue.id; name = newValue.backendName; workingDirectory = newValue.workingDirectory
            lastModified = newValue.lastModified; isLocallyCreated = newValue.isLocallyCreated
            messageCount = newValue.messageCount; preview = newValue.preview; unreadCount = newValue.unreadCount
        }
    }
}
