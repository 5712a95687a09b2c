import Foundation
import StoreJSON

// The canonical bytes of a message, written directly (see CanonicalWriter).

extension MessageV1 {
    enum Field: Sendable { case id, sessionID, role, text, timestamp, serverTimestamp, status }

    /// The keys `json` sets. A message is an element of its document's `messages` array, so its
    /// object sits at nesting level 2.
    static let layout = KeyLayout<Field>(
        level: 2,
        [
            (.id, "id"), (.sessionID, "session_id"), (.role, "role"), (.text, "text"),
            (.timestamp, "timestamp"), (.serverTimestamp, "server_timestamp"), (.status, "status"),
        ])

    /// About the size of the written object, to reserve the buffer.
    package var estimatedSize: Int {
        360 + role.utf8.count + text.utf8.count + status.utf8.count + CanonicalWriter.estimatedSize(of: unknown)
    }

    /// Writes exactly what `JSONWriter` writes for `json` as an element of `messages`.
    package func write(to w: inout CanonicalWriter) {
        w.object(Self.layout, unknown: unknown) { w, field in
            switch field {
            case .id: w.uuid(id)
            case .sessionID: w.uuid(sessionID)
            case .role: w.string(role)
            case .text: w.string(text)
            case .timestamp: w.date(timestamp)
            case .serverTimestamp: w.date(serverTimestamp)
            case .status: w.string(status)
            }
        }
    }
}
