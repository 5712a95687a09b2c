import Foundation
import StoreJSON

/// A work stream's messages together with the exact bytes that hold them in its document: the
/// canonical `messages` array (nesting level 1, `[` to `]`). Two facts hold for every value,
/// checked when it is made (only ``WorkStreamV2/encoded(after:)`` makes one):
///
/// 1. decoding `bytes` as a document's `messages` gives exactly `messages`, and
/// 2. `bytes` are what the canonical writer writes for `messages`.
///
/// A store keeps the value of the last document it wrote; the next read of that document
/// (``WorkStreamDocument/decode(_:acceptingNewerVersions:reusing:)``) then compares the bytes
/// instead of parsing and decoding them (fact 1), and the next write of unchanged messages
/// copies the bytes instead of encoding them (fact 2). The file is still read and compared in
/// full, so a change by another writer is always seen: bytes that differ are parsed as usual.
package struct EncodedMessages: Sendable {
    package let bytes: [UInt8]
    package let messages: [MessageV1]

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
package struct DecodedWorkStreamDocument: Sendable {
    package var document: WorkStreamDocument
    /// The bytes decoded.
    let source: [UInt8]
    /// Where the `messages` value lies in `source`; nil when the document has none.
    let messagesRange: Range<Int>?
    /// The messages taken as known (their bytes in `source` were `reused.bytes`), or nil when
    /// they were parsed and decoded from `source`.
    let reused: EncodedMessages?
}

extension WorkStreamDocument {
    /// Decodes `bytes` exactly as ``init(bytes:acceptingNewerVersions:)`` does: the same
    /// document, the same errors. When the root's `messages` value is exactly `known.bytes`, it
    /// is compared instead of parsed, and the messages are `known.messages` (which decoding
    /// those bytes gives, see ``EncodedMessages``).
    package static func decode(
        _ bytes: [UInt8], acceptingNewerVersions: Bool = false,
        reusing known: EncodedMessages?
    ) throws(SchemaError) -> DecodedWorkStreamDocument {
        let parsed: (value: JSONValue, member: Range<Int>?, tookKnown: Bool)
        do {
            parsed = try JSONParser.parse(bytes, watching: "messages", known: known?.bytes, placeholder: .array([]))
        } catch {
            throw SchemaError(code: .syntax, syntax: error)
        }
        var document = try WorkStreamDocument(json: parsed.value, acceptingNewerVersions: acceptingNewerVersions)
        var reused: EncodedMessages?
        if parsed.tookKnown, let known {
            // The placeholder decoded as no messages; the real ones are the known ones.
            document.fields.messages = known.messages
            reused = known
        }
        return DecodedWorkStreamDocument(document: document, source: bytes, messagesRange: parsed.member, reused: reused)
    }
}

extension WorkStreamV2 {
    /// The canonical bytes (``encoded``, byte for byte), for a work stream decoded as `read`
    /// (and then changed, or not), and the messages with their bytes to keep for the next read;
    /// see ``WorkStreamEncoding/encoded(after:)``.
    package func encoded(after read: DecodedWorkStreamDocument) -> (bytes: [UInt8], messages: EncodedMessages?) {
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

    /// As ``WorkStreamV2/encoded(after:)``, for a v3 document (messages without `sync` get the defaults).
    package func encoded(after read: DecodedWorkStreamDocument) -> (bytes: [UInt8], messages: EncodedMessages?) {
        var filled = self
        filled.fillMessageSync()
        return WorkStreamEncoding.encoded(
            WorkStreamEncoding.v3, schemaVersion: schemaVersion, fields: filled.fields,
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
    static func encoded(
        _ layout: KeyLayout<Field>, schemaVersion: Int, fields: WorkStreamFieldsV1, provider: Provider,
        unknown: JSONObject, after read: DecodedWorkStreamDocument
    ) -> (bytes: [UInt8], messages: EncodedMessages?) {
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
                decodeExactly(bytes, appended, as: messages[count...], readingSync: provider.cursors != nil)
                    ? EncodedMessages(bytes: Array(bytes[range]), messages: messages) : nil
            )
        case .encode: break
        }
        guard read.reused == nil, let readRange = read.messagesRange,
            EncodedMessages.sameStorage(messages, read.document.fields.messages),
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
    private static func decodeExactly(
        _ bytes: [UInt8], _ ranges: [Range<Int>], as messages: ArraySlice<MessageV1>,
        readingSync: Bool
    ) -> Bool {
        guard ranges.count == messages.count else { return false }
        for (range, message) in zip(ranges, messages) {
            guard let json = try? JSONParser.parse(Array(bytes[range]), maxDepth: JSONParser.defaultMaxDepth - 2),
                let decoded = try? MessageV1(json: json, path: "messages", readingSync: readingSync), decoded == message
            else { return false }
        }
        return true
    }
}

extension EncodedMessages {
    /// True when `messages` are these messages, unchanged, followed by at least one more.
    func isPrefix(of messages: [MessageV1]) -> Bool {
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
    func isWrittenAlike(_ other: MessageV1) -> Bool {
        id == other.id && sessionID == other.sessionID && timestamp == other.timestamp
            && serverTimestamp == other.serverTimestamp && sync == other.sync && unknown.isEmpty && other.unknown.isEmpty
            && Self.sameUTF8(role, other.role) && Self.sameUTF8(text, other.text) && Self.sameUTF8(status, other.status)
    }

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
