import Foundation
import StoreJSON

/// One message of a work stream, schema v3 (spec §10): the keys of ``MessageV1`` plus `seq`
/// and `offset`, where the message sits in the provider's session. Frozen.
///
/// Keys it does not know are kept in `unknown` and written back unchanged.
public struct MessageV3: Sendable, Hashable {
    public var id: UUID
    /// The containing work stream's id. Migration fixes a mismatch (containment wins, spec §6 rule 4).
    public var sessionID: UUID
    /// `"user"` or `"assistant"` in practice; other strings are kept.
    public var role: String
    public var text: String
    public var timestamp: Date
    /// The default is nil.
    public var serverTimestamp: Date?
    /// `"sending"`, `"confirmed"` or `"error"`. The default is `"confirmed"`.
    public var status: String
    /// The backend's sequence number; 0 = unknown (the default).
    public var seq: Int64
    /// The byte offset in the provider's session file. The default is 0.
    public var offset: Int64
    /// Every key this type does not know, with its value unchanged.
    public var unknown: JSONObject

    public init(
        id: UUID, sessionID: UUID, role: String, text: String, timestamp: Date,
        serverTimestamp: Date? = nil, status: String = "confirmed", seq: Int64 = 0, offset: Int64 = 0,
        unknown: JSONObject = [:]
    ) {
        self.id = id; self.sessionID = sessionID; self.role = role; self.text = text
        self.timestamp = timestamp; self.serverTimestamp = serverTimestamp; self.status = status
        self.seq = seq; self.offset = offset; self.unknown = unknown
    }

    /// The keys v3 adds to a message, in spec order.
    public static let addedKeys = ["seq", "offset"]

    /// Reads a message object; `path` is its key path in the document (`messages[3]`) or, with
    /// `index`, the path of the array holding it (`messages` and 3). An absent `seq` or `offset`
    /// is 0.
    package init(json: JSONValue, path: String, index: Int? = nil) throws(SchemaError) {
        var r = try ObjectReader(json, path: path, index: index, keys: MessageV3.readerKeys)
        // Read into locals, then one initializer call: assigning each property of `self` in
        // turn makes the compiler copy the whole message once more.
        let id = try r.uuid("id")
        let sessionID = try r.uuid("session_id")
        let role = try r.string("role")
        let text = try r.string("text")
        let timestamp = try r.date("timestamp")
        let serverTimestamp = try r.optionalDate("server_timestamp")
        let status = try r.string("status", default: "confirmed")
        let seq = try r.int("seq", in: 0...Int64.max, default: 0)
        let offset = try r.int("offset", in: 0...Int64.max, default: 0)
        self.init(
            id: id, sessionID: sessionID, role: role, text: text, timestamp: timestamp,
            serverTimestamp: serverTimestamp, status: status, seq: seq, offset: offset, unknown: r.unknownKeys())
    }

    /// The message as a JSON object: every known key written explicitly, unknown keys kept.
    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("id", id)
        w.set("session_id", sessionID)
        w.set("role", role)
        w.set("text", text)
        w.set("timestamp", timestamp)
        w.set("server_timestamp", serverTimestamp)
        w.set("status", status)
        w.set("seq", seq)
        w.set("offset", offset)
        return w.value
    }
}

// The canonical bytes of a message, written directly (see CanonicalWriter).

extension MessageV3 {
    enum Field: Sendable { case id, sessionID, role, text, timestamp, serverTimestamp, status, seq, offset }

    /// The keys `json` sets, at nesting level 2 (an element of its document's `messages`).
    static let layout = KeyLayout<Field>(
        level: 2,
        [
            (.id, "id"), (.sessionID, "session_id"), (.role, "role"), (.text, "text"),
            (.timestamp, "timestamp"), (.serverTimestamp, "server_timestamp"), (.status, "status"),
            (.seq, "seq"), (.offset, "offset"),
        ])

    /// About the size of the written object, to reserve the buffer.
    package var estimatedSize: Int {
        400 + role.utf8.count + text.utf8.count + status.utf8.count + CanonicalWriter.estimatedSize(of: unknown)
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
            case .seq: w.integer(seq)
            case .offset: w.integer(offset)
            }
        }
    }
}
