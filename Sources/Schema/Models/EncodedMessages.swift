import Foundation
import StoreJSON

/// A work stream's messages together with the exact bytes that hold them in its document: the
/// canonical `messages` array (nesting level 1, `[` to `]`). Two facts hold for every value,
/// checked when it is made (only ``WorkStreamV2/encoded(after:)`` and
/// ``WorkStreamV3/encoded(after:)`` make one):
///
/// 1. decoding `bytes` as a document's `messages` gives exactly `messages`, and
/// 2. `bytes` are what the canonical writer writes for `messages`.
///
/// A store keeps the value of the last document it wrote; the next read of that document
/// (``WorkStreamDocument/decode(_:acceptingNewerVersions:reusing:)``) then compares the bytes
/// instead of parsing and decoding them (fact 1), and the next write of unchanged messages
/// copies the bytes instead of encoding them (fact 2). The file is still read and compared in
/// full, so a change by another writer is always seen: bytes that differ are parsed as usual.
///
/// `Message` is the message type of the document's version: bytes that hold v3 messages read as
/// other messages by a v2 reader (`seq` and `offset` are unknown keys to it).
package struct EncodedMessages<Message: WorkStreamMessage>: Sendable {
    package let bytes: [UInt8]
    package let messages: [Message]

    fileprivate init(bytes: [UInt8], messages: [Message]) {
        self.bytes = bytes; self.messages = messages
    }

    /// True when `a` and `b` are the same array storage: nobody changed either since one was
    /// copied from the other. (`==` would not do: it compares strings by canonical
    /// equivalence, so a message changed from a decomposed "é" to a precomposed one compares
    /// equal, yet must be written with its new bytes.)
    static func sameStorage(_ a: [Message], _ b: [Message]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}

/// A decoded work-stream document and what an update needs to rewrite it: the bytes it was read
/// from and where its messages lie in them. `Message` is the message type of the known messages
/// the decoder was given (see ``EncodedMessages``).
package struct DecodedWorkStreamDocument<Message: WorkStreamMessage>: Sendable {
    package var document: WorkStreamDocument
    /// The bytes decoded.
    let source: [UInt8]
    /// Where the `messages` value lies in `source`; nil when the document has none.
    let messagesRange: Range<Int>?
    /// The messages taken as known (their bytes in `source` were `reused.bytes`), or nil when
    /// they were parsed and decoded from `source`.
    let reused: EncodedMessages<Message>?
}

extension WorkStreamDocument {
    /// Decodes `bytes` exactly as ``init(bytes:acceptingNewerVersions:)`` does: the same
    /// document, the same errors. When the root's `messages` value is exactly `known.bytes` and
    /// the document's type holds messages of `known`'s type, it is compared instead of parsed,
    /// and the messages are `known.messages` (which decoding those bytes gives, see
    /// ``EncodedMessages``).
    package static func decode<Message>(
        _ bytes: [UInt8], acceptingNewerVersions: Bool = false,
        reusing known: EncodedMessages<Message>?
    ) throws(SchemaError) -> DecodedWorkStreamDocument<Message> {
        let parsed: (value: JSONValue, member: Range<Int>?, tookKnown: Bool)
        do {
            parsed = try JSONParser.parse(bytes, watching: "messages", known: known?.bytes, placeholder: .array([]))
        } catch {
            throw SchemaError(code: .syntax, syntax: error)
        }
        var document = try WorkStreamDocument(json: parsed.value, acceptingNewerVersions: acceptingNewerVersions)
        var reused: EncodedMessages<Message>?
        if parsed.tookKnown, let known {
            // The placeholder decoded as no messages; the real ones are the known ones, when this
            // document's type reads those bytes as `Message`s. An older writer's document (v2,
            // say) with the same bytes reads them as its own messages: decoded in full.
            guard Message.replaceMessages(of: &document, with: known.messages) else {
                return try decode(bytes, acceptingNewerVersions: acceptingNewerVersions, reusing: EncodedMessages<Message>?.none)
            }
            reused = known
        }
        return DecodedWorkStreamDocument(document: document, source: bytes, messagesRange: parsed.member, reused: reused)
    }
}

extension WorkStreamV2 {
    /// The canonical bytes (``encoded``, byte for byte), for a work stream decoded as `read`
    /// (and then changed, or not), and the messages with their bytes to keep for the next read;
    /// see ``WorkStreamEncoding/encoded(after:)``.
    package func encoded(after read: DecodedWorkStreamDocument<MessageV1>) -> (bytes: [UInt8], messages: EncodedMessages<MessageV1>?) {
        WorkStreamEncoding.encoded(
            WorkStreamEncoding.v2, schemaVersion: schemaVersion, fields: fields,
            provider: .init(sessionID: providerSessionID, name: provider, cursors: nil),
            unknown: unknown, after: read)
    }
}

extension WorkStreamV2 {
    /// The canonical bytes with `messages` (the canonical bytes of the whole `messages` value at
    /// level 1) copied in instead of this value's own messages, which are not looked at: the
    /// migration's fast path (`MigrationChain.migrateCanonicalWorkStream`).
    package func encoded(copyingMessages messages: [UInt8]) -> [UInt8] {
        var range = 0..<0, appended: [Range<Int>] = []
        return WorkStreamEncoding.document(
            WorkStreamEncoding.v2, schemaVersion: schemaVersion, fields: fields,
            provider: .init(sessionID: providerSessionID, name: provider), unknown: unknown,
            messages: .copy(messages), messagesRange: &range, appendedRanges: &appended)
    }
}

extension WorkStreamV3 {
    /// As ``WorkStreamV2/encoded(copyingMessages:)``, for a v3 document.
    package func encoded(copyingMessages messages: [UInt8]) -> [UInt8] {
        var range = 0..<0, appended: [Range<Int>] = []
        return WorkStreamEncoding.document(
            WorkStreamEncoding.v3, schemaVersion: schemaVersion, fields: fields,
            provider: .init(sessionID: providerSessionID, name: provider, cursors: cursors),
            unknown: unknown, messages: .copy(messages), messagesRange: &range, appendedRanges: &appended)
    }

    /// As ``WorkStreamV2/encoded(after:)``, for a v3 document.
    package func encoded(after read: DecodedWorkStreamDocument<MessageV3>) -> (bytes: [UInt8], messages: EncodedMessages<MessageV3>?) {
        WorkStreamEncoding.encoded(
            WorkStreamEncoding.v3, schemaVersion: schemaVersion, fields: fields,
            provider: .init(sessionID: providerSessionID, name: provider, cursors: cursors),
            unknown: unknown, after: read)
    }
}

extension WorkStreamEncoding {
    /// The canonical bytes for a work stream decoded as `read` (and then changed, or not), and the
    /// messages with their bytes to keep for the next read of the file written, or nil when they
    /// can't be vouched for.
    ///
    /// Messages that `read` took as known are copied as their bytes when unchanged (the same
    /// array), or, when messages were only appended after them, copied up to their end with the
    /// new ones encoded after. The messages are returned as ``EncodedMessages`` when
    /// - they are the known ones, unchanged; or
    /// - they are the known ones plus appended messages, each of which decodes from the bytes
    ///   written for it to exactly itself (a date with more precision than milliseconds does
    ///   not); or
    /// - they were decoded from bytes equal to the bytes written for them (the source was
    ///   canonical) and not changed.
    /// Otherwise (changed messages, another writer's formatting) nil: they are parsed on the next read.
    static func encoded<Message>(
        _ layout: KeyLayout<Field>, schemaVersion: Int, fields: WorkStreamFields<Message>, provider: Provider,
        unknown: JSONObject, after read: DecodedWorkStreamDocument<Message>
    ) -> (bytes: [UInt8], messages: EncodedMessages<Message>?) {
        let messages = fields.messages
        var source = WorkStreamEncoding.MessagesSource.encode
        if let known = read.reused {
            if EncodedMessages.sameStorage(messages, known.messages) {
                source = .copy(known.bytes)
            } else if known.isPrefix(of: messages) {
                source = .append(known: known.bytes, count: known.messages.count)
            }
        }
        var range = 0..<0, appended: [Range<Int>] = []
        let bytes = WorkStreamEncoding.document(
            layout, schemaVersion: schemaVersion, fields: fields, provider: provider,
            unknown: unknown, messages: source, messagesRange: &range, appendedRanges: &appended)
        switch source {
        case .copy: return (bytes, read.reused)
        case .append(_, let count):
            return (
                bytes,
                decodeExactly(bytes, appended, as: messages[count...])
                    ? EncodedMessages(bytes: Array(bytes[range]), messages: messages) : nil
            )
        case .encode: break
        }
        guard read.reused == nil, let readRange = read.messagesRange,
            let readMessages = Message.messages(of: read.document), EncodedMessages.sameStorage(messages, readMessages),
            readRange.count == range.count
        else { return (bytes, nil) }
        let same = read.source.withUnsafeBufferPointer { source in
            bytes.withUnsafeBufferPointer { written in
                memcmp(source.baseAddress! + readRange.lowerBound, written.baseAddress! + range.lowerBound, range.count) == 0
            }
        }
        return (bytes, same ? EncodedMessages(bytes: Array(bytes[range]), messages: messages) : nil)
    }

    /// True when the message written at each of `ranges` of `bytes` decodes to exactly the
    /// message of `messages` at the same place. Parsed on its own at the depth limit the element
    /// of a document's `messages` has (two levels in), so that what decodes here decodes there.
    /// A message that does not parse or decode back only means no vouching: it is parsed on the
    /// next read, which reports whatever is wrong with it.
    private static func decodeExactly<Message: WorkStreamMessage>(
        _ bytes: [UInt8], _ ranges: [Range<Int>], as messages: ArraySlice<Message>
    ) -> Bool {
        guard ranges.count == messages.count else { return false }
        for (range, message) in zip(ranges, messages) {
            guard let json = try? JSONParser.parse(Array(bytes[range]), maxDepth: JSONParser.defaultMaxDepth - 2),
                let decoded = try? Message(json: json, path: "messages", index: nil), decoded == message
            else { return false }
        }
        return true
    }
}

extension EncodedMessages {
    /// True when `messages` are these messages, unchanged, followed by at least one more.
    func isPrefix(of messages: [Message]) -> Bool {
        guard !self.messages.isEmpty, messages.count > self.messages.count else { return false }
        return self.messages.withUnsafeBufferPointer { known in
            messages.withUnsafeBufferPointer { now in
                (0..<known.count).allSatisfy { known[$0].isWrittenAlike(now[$0]) }
            }
        }
    }
}

extension MessageV1 {
    /// True when the two messages are written with the same bytes: every field equal, strings
    /// byte for byte (not `==`, which compares strings by canonical equivalence), and neither
    /// has unknown keys (their values would compare by `==`). Cheap for a message copied from
    /// the other: its strings share their storage.
    package func isWrittenAlike(_ other: MessageV1) -> Bool {
        id == other.id && sessionID == other.sessionID && timestamp == other.timestamp
            && serverTimestamp == other.serverTimestamp && unknown.isEmpty && other.unknown.isEmpty
            && Self.sameUTF8(role, other.role) && Self.sameUTF8(text, other.text) && Self.sameUTF8(status, other.status)
    }
}

extension MessageV3 {
    /// As ``MessageV1/isWrittenAlike(_:)``, with `seq` and `offset`.
    package func isWrittenAlike(_ other: MessageV3) -> Bool {
        id == other.id && sessionID == other.sessionID && timestamp == other.timestamp
            && serverTimestamp == other.serverTimestamp && seq == other.seq && offset == other.offset
            && unknown.isEmpty && other.unknown.isEmpty && MessageV1.sameUTF8(role, other.role)
            && MessageV1.sameUTF8(text, other.text) && MessageV1.sameUTF8(status, other.status)
    }
}

extension MessageV1 {
    static func sameUTF8(_ a: String, _ b: String) -> Bool {
        let a = a.utf8, b = b.utf8
        guard a.count == b.count else { return false }
        guard a.count > 0 else { return true }
        let compared = a.withContiguousStorageIfAvailable { x in
            b.withContiguousStorageIfAvailable { y in
                x.baseAddress == y.baseAddress || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
            }
        }
        return (compared ?? nil) ?? a.elementsEqual(b)
    }
}
