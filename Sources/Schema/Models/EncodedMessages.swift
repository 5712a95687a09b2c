import Foundation

/// A work stream's messages together with the exact bytes that hold them in its document: the
/// canonical `messages` array (nesting level 1, `[` to `]`). Two facts hold for every value,
/// checked when it is made (only ``SessionV2/encoded(after:)`` makes one):
///
/// 1. decoding `bytes` as a document's `messages` gives exactly `messages`, and
/// 2. `bytes` are what the canonical writer writes for `messages`.
///
/// A store keeps the value of the last document it wrote; the next read of that document
/// (``SessionDocument/decode(_:acceptingNewerVersions:reusing:)``) then compares the bytes
/// instead of parsing and decoding them (fact 1), and the next write of unchanged messages
/// copies the bytes instead of encoding them (fact 2). The file is still read and compared in
/// full, so a change by another writer is always seen: bytes that differ are parsed as usual.
public struct EncodedMessages: Sendable {
    public let bytes: [UInt8]
    public let messages: [MessageV1]

    fileprivate init(bytes: [UInt8], messages: [MessageV1]) {
        self.bytes = bytes; self.messages = messages
    }

    /// True when `a` and `b` are the same array storage: nobody changed either since one was
    /// copied from the other. (`==` would not do: it compares strings by canonical
    /// equivalence, so a message changed from a decomposed "é" to a precomposed one compares
    /// equal, yet must be written with its new bytes.)
    static func sameStorage(_ a: [MessageV1], _ b: [MessageV1]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}

/// A decoded work-stream document and what an update needs to rewrite it: the bytes it was read
/// from and where its messages lie in them.
public struct DecodedSessionDocument: Sendable {
    public var document: SessionDocument
    /// The bytes decoded.
    let source: [UInt8]
    /// Where the `messages` value lies in `source`; nil when the document has none.
    let messagesRange: Range<Int>?
    /// The messages taken as known (their bytes in `source` were `reused.bytes`), or nil when
    /// they were parsed and decoded from `source`.
    let reused: EncodedMessages?
}

extension SessionDocument {
    /// Decodes `bytes` exactly as ``init(bytes:acceptingNewerVersions:)`` does: the same
    /// document, the same errors. When the root's `messages` value is exactly `known.bytes`, it
    /// is compared instead of parsed, and the messages are `known.messages` (which decoding
    /// those bytes gives, see ``EncodedMessages``).
    public static func decode(_ bytes: [UInt8], acceptingNewerVersions: Bool = false,
                              reusing known: EncodedMessages?) throws(SchemaError) -> DecodedSessionDocument {
        let parsed: (value: JSONValue, member: Range<Int>?, tookKnown: Bool)
        do {
            parsed = try JSONParser.parse(bytes, watching: "messages", known: known?.bytes, placeholder: .array([]))
        } catch {
            throw SchemaError(code: .syntax, syntax: error)
        }
        var document = try SessionDocument(json: parsed.value, acceptingNewerVersions: acceptingNewerVersions)
        var reused: EncodedMessages?
        if parsed.tookKnown, let known {
            // The placeholder decoded as no messages; the real ones are the known ones.
            document.fields.messages = known.messages
            reused = known
        }
        return DecodedSessionDocument(document: document, source: bytes, messagesRange: parsed.member, reused: reused)
    }
}

extension SessionV2 {
    /// The canonical bytes (``encoded``, byte for byte), for a work stream decoded as `read`
    /// (and then changed, or not), and the messages with their bytes to keep for the next read
    /// of the file written, or nil when they can't be vouched for.
    ///
    /// Unchanged messages that `read` took as known are copied as their bytes, not encoded. The
    /// messages are returned as ``EncodedMessages`` when they are unchanged and either were
    /// known, or were decoded from bytes equal to the bytes written for them (the source was
    /// canonical). Messages that were changed, or decoded from other bytes (another writer's
    /// formatting, dates without milliseconds), give nil: they are parsed on the next read.
    public func encoded(after read: DecodedSessionDocument) -> (bytes: [UInt8], messages: EncodedMessages?) {
        let messages = fields.messages
        let known = read.reused.flatMap { EncodedMessages.sameStorage(messages, $0.messages) ? $0 : nil }
        var range = 0..<0
        let bytes = SessionEncoding.document(
            SessionEncoding.v2, schemaVersion: schemaVersion, fields: fields,
            provider: .init(sessionID: providerSessionID, name: provider), unknown: unknown,
            messagesBytes: known?.bytes, messagesRange: &range)
        if let known { return (bytes, known) }
        guard read.reused == nil, let readRange = read.messagesRange,
              EncodedMessages.sameStorage(messages, read.document.fields.messages),
              readRange.count == range.count else { return (bytes, nil) }
        let same = read.source.withUnsafeBufferPointer { source in
            bytes.withUnsafeBufferPointer { written in
                memcmp(source.baseAddress! + readRange.lowerBound, written.baseAddress! + range.lowerBound, range.count) == 0
            }
        }
        return (bytes, same ? EncodedMessages(bytes: Array(bytes[range]), messages: messages) : nil)
    }
}
