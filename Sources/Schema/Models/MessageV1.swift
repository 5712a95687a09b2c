import Foundation
import StoreJSON

/// One message of a work stream, schema v1 (unchanged in v2). Frozen: never edit a shipped
/// schema type; v3's message is ``MessageV3``.
///
/// Keys it does not know are kept in `unknown` and written back unchanged: in a v3 document
/// read by this type (as a v1 or v2 reader does), `seq` and `offset` are such keys.
public struct MessageV1: Sendable, Hashable {
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
    /// Every key this type does not know, with its value unchanged.
    public var unknown: JSONObject

    public init(
        id: UUID, sessionID: UUID, role: String, text: String, timestamp: Date,
        serverTimestamp: Date? = nil, status: String = "confirmed", unknown: JSONObject = [:]
    ) {
        self.id = id; self.sessionID = sessionID; self.role = role; self.text = text
        self.timestamp = timestamp; self.serverTimestamp = serverTimestamp; self.status = status
        self.unknown = unknown
    }

    static let knownKeys: Set<String> = ["id", "session_id", "role", "text", "timestamp", "server_timestamp", "status"]

    /// Reads a message object; `path` is its key path in the document (`messages[3]`) or, with
    /// `index`, the path of the array holding it (`messages` and 3).
    package init(json: JSONValue, path: String, index: Int? = nil) throws(SchemaError) {
        var r = try ObjectReader(json, path: path, index: index, keys: MessageV1.readerKeys)
        // Read into locals, then one initializer call: assigning each property of `self` in
        // turn makes the compiler copy the whole message once more.
        let id = try r.uuid("id")
        let sessionID = try r.uuid("session_id")
        let role = try r.string("role")
        let text = try r.string("text")
        let timestamp = try r.date("timestamp")
        let serverTimestamp = try r.optionalDate("server_timestamp")
        let status = try r.string("status", default: "confirmed")
        self.init(
            id: id, sessionID: sessionID, role: role, text: text, timestamp: timestamp,
            serverTimestamp: serverTimestamp, status: status, unknown: r.unknownKeys())
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
        return w.value
    }
}
