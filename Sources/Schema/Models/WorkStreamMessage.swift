import Foundation
import StoreJSON

/// What the messages of every schema version have (``MessageV1``, ``MessageV3``): the v1 keys,
/// the unknown keys, and the readers and writers of a document's `messages`. Code that handles
/// the messages of any version (the work-stream keys, the encoders, validation, display) is
/// written once over it.
package protocol WorkStreamMessage: Sendable, Hashable {
    var id: UUID { get set }
    var sessionID: UUID { get set }
    var role: String { get set }
    var text: String { get set }
    var timestamp: Date { get set }
    var serverTimestamp: Date? { get set }
    var status: String { get set }
    var unknown: JSONObject { get set }

    /// Reads a message object of a document's `messages`; `path` is its key path or, with
    /// `index`, the path of the array holding it.
    init(json: JSONValue, path: String, index: Int?) throws(SchemaError)
    /// The message as a JSON object: every known key written explicitly, unknown keys kept.
    var json: JSONValue { get }
    /// About the size of the canonical bytes, to reserve the buffer.
    var estimatedSize: Int { get }
    /// Writes the canonical bytes of the message as an element of `messages`.
    func write(to w: inout CanonicalWriter)
    /// True when the two messages are written with the same bytes (see `EncodedMessages`).
    func isWrittenAlike(_ other: Self) -> Bool

    /// The messages of `document`, when its type holds messages of this type; nil otherwise.
    static func messages(of document: WorkStreamDocument) -> [Self]?
    /// Sets the messages of `document` and returns true, when its type holds messages of this
    /// type; returns false (and changes nothing) otherwise.
    static func replaceMessages(of document: inout WorkStreamDocument, with messages: [Self]) -> Bool
}

extension MessageV1: WorkStreamMessage {
    /// The messages of a v1 or v2 document.
    package static func messages(of document: WorkStreamDocument) -> [MessageV1]? {
        switch document {
        case .v1(let s): s.fields.messages
        case .v2(let s): s.fields.messages
        case .v3, .v5: nil
        }
    }

    package static func replaceMessages(of document: inout WorkStreamDocument, with messages: [MessageV1]) -> Bool {
        switch document {
        case .v1(var s): s.fields.messages = messages; document = .v1(s)
        case .v2(var s): s.fields.messages = messages; document = .v2(s)
        case .v3, .v5: return false
        }
        return true
    }
}

extension MessageV3: WorkStreamMessage {
    /// The messages of a v3 (or v4) or v5 document.
    package static func messages(of document: WorkStreamDocument) -> [MessageV3]? {
        switch document {
        case .v1, .v2: nil
        case .v3(let s): s.fields.messages
        case .v5(let s): s.messages
        }
    }

    package static func replaceMessages(of document: inout WorkStreamDocument, with messages: [MessageV3]) -> Bool {
        switch document {
        case .v1, .v2: return false
        case .v3(var s): s.fields.messages = messages; document = .v3(s)
        case .v5(var s): s.messages = messages; document = .v5(s)
        }
        return true
    }
}
