import Foundation
import StoreJSON

// The canonical bytes of a work-stream document (WorkStreamV1, WorkStreamV2, WorkStreamV3), written directly
// (see CanonicalWriter) instead of through `json` and `JSONWriter`, which build and sort a
// dictionary per object: the encoding is the largest CPU cost of a migration and of an update.

/// Writes work-stream documents: the keys of `WorkStreamFields` with its messages, `schema_version`,
/// and for v2 and v3 the provider keys (and for v3 the cursors).
enum WorkStreamEncoding {
    enum Field: Sendable {
        case schemaVersion, id, backendName, workingDirectory, isLocallyCreated, lastModified, messageCount
        case preview, unreadCount, isInQueue, queuePosition, queuedAt, isInPriorityQueue, priority
        case priorityOrder, priorityQueuedAt, messages, providerSessionID, provider
        case nextSeq, liveFromSeq, lastOffsetMerged, liveFromOffset, lastFileSignature
    }

    /// The keys `WorkStreamV1.json` sets.
    static let v1 = KeyLayout<Field>(level: 0, v1Keys)

    /// The keys `WorkStreamV2.json` sets.
    static let v2 = KeyLayout<Field>(level: 0, v1Keys + [(.providerSessionID, "provider_session_id"), (.provider, "provider")])

    /// The keys `WorkStreamV3.json` sets.
    static let v3 = KeyLayout<Field>(
        level: 0,
        v1Keys + [
            (.providerSessionID, "provider_session_id"), (.provider, "provider"), (.nextSeq, "next_seq"),
            (.liveFromSeq, "live_from_seq"), (.lastOffsetMerged, "last_offset_merged"),
            (.liveFromOffset, "live_from_offset"), (.lastFileSignature, "last_file_signature"),
        ])

    private static var v1Keys: [(Field, String)] {
        [
            (.schemaVersion, "schema_version"), (.id, "id"), (.backendName, "backend_name"),
            (.workingDirectory, "working_directory"), (.isLocallyCreated, "is_locally_created"),
            (.lastModified, "last_modified"), (.messageCount, "message_count"), (.preview, "preview"),
            (.unreadCount, "unread_count"), (.isInQueue, "is_in_queue"), (.queuePosition, "queue_position"),
            (.queuedAt, "queued_at"), (.isInPriorityQueue, "is_in_priority_queue"), (.priority, "priority"),
            (.priorityOrder, "priority_order"), (.priorityQueuedAt, "priority_queued_at"), (.messages, "messages"),
        ]
    }

    /// The v2 keys beyond the v1 ones, and the v3 cursors (nil for v2).
    struct Provider {
        var sessionID: String
        var name: String
        var cursors: SyncCursors? = nil
    }

    /// The document bytes, equal to `JSONWriter.document(json)` of the model.
    ///
    /// - Parameters:
    ///   - layout: ``v1``, ``v2`` or ``v3``.
    ///   - provider: The v2 keys (and with ``v3`` the cursors); required with ``v2`` and ``v3``, ignored with ``v1``.
    static func document<Message: WorkStreamMessage>(
        _ layout: KeyLayout<Field>, schemaVersion: Int, fields: WorkStreamFields<Message>,
        provider: Provider?, unknown: JSONObject
    ) -> [UInt8] {
        var range = 0..<0, appended: [Range<Int>] = []
        return document(
            layout, schemaVersion: schemaVersion, fields: fields, provider: provider, unknown: unknown,
            messages: .encode, messagesRange: &range, appendedRanges: &appended)
    }

    /// Where the bytes of the `messages` array come from.
    enum MessagesSource {
        /// Each message encoded.
        case encode
        /// These bytes: the canonical bytes of all the messages at level 1 (see `EncodedMessages`).
        case copy([UInt8])
        /// `known`, the canonical bytes of the first `count` messages (at least one), then the
        /// others encoded after them.
        case append(known: [UInt8], count: Int)
    }

    /// The document bytes, as above. `messagesRange` is set to where the `messages` array lies in
    /// them, and `appendedRanges` to where each message written after the `.append` known bytes lies.
    static func document<Message: WorkStreamMessage>(
        _ layout: KeyLayout<Field>, schemaVersion: Int, fields: WorkStreamFields<Message>,
        provider: Provider?, unknown: JSONObject, messages source: MessagesSource,
        messagesRange: inout Range<Int>, appendedRanges: inout [Range<Int>]
    ) -> [UInt8] {
        let capacity: Int
        switch source {
        case .encode: capacity = estimatedSize(fields, provider, unknown)
        case .copy(let bytes): capacity = estimatedSize(fields, provider, unknown, messages: false) + bytes.count
        case .append(let known, let count):
            capacity =
                estimatedSize(fields, provider, unknown, messages: false) + known.count
                + fields.messages[count...].reduce(0) { $0 + $1.estimatedSize }
        }
        return CanonicalWriter.document(capacity: capacity) { w in
            w.object(layout, unknown: unknown) { w, field in
                switch field {
                case .schemaVersion: w.integer(schemaVersion)
                case .id: w.uuid(fields.id)
                case .backendName: w.string(fields.backendName)
                case .workingDirectory: w.string(fields.workingDirectory)
                case .isLocallyCreated: w.bool(fields.isLocallyCreated)
                case .lastModified: w.date(fields.lastModified)
                case .messageCount: w.integer(fields.messageCount)
                case .preview: w.string(fields.preview)
                case .unreadCount: w.integer(fields.unreadCount)
                case .isInQueue: w.bool(fields.isInQueue)
                case .queuePosition: w.integer(fields.queuePosition)
                case .queuedAt: w.date(fields.queuedAt)
                case .isInPriorityQueue: w.bool(fields.isInPriorityQueue)
                case .priority: w.integer(fields.priority)
                case .priorityOrder: w.double(fields.priorityOrder)
                case .priorityQueuedAt: w.date(fields.priorityQueuedAt)
                case .messages:
                    let start = w.position
                    switch source {
                    case .encode: w.messages(fields.messages)
                    case .copy(let bytes): w.append(bytes)
                    case .append(let known, let count): w.messages(fields.messages, after: known, count: count, ranges: &appendedRanges)
                    }
                    messagesRange = start..<w.position
                case .providerSessionID, .provider:
                    guard let provider else { preconditionFailure("WorkStreamEncoding: the v2 layout needs the provider keys") }
                    w.string(field == .provider ? provider.name : provider.sessionID)
                case .nextSeq, .liveFromSeq, .lastOffsetMerged, .liveFromOffset, .lastFileSignature:
                    guard let cursors = provider?.cursors else { preconditionFailure("WorkStreamEncoding: the v3 layout needs the cursors") }
                    switch field {
                    case .nextSeq: w.integer(cursors.nextSeq)
                    case .liveFromSeq: w.integer(cursors.liveFromSeq)
                    case .lastOffsetMerged: w.integer(cursors.lastOffsetMerged)
                    case .liveFromOffset: w.integer(cursors.liveFromOffset)
                    default:
                        if let signature = cursors.lastFileSignature { w.string(signature) } else { w.null() }
                    }
                }
            }
        }
    }

    /// The size of the document, estimated on the high side so that it is written straight into
    /// the array returned (see `CanonicalWriter.document(capacity:_:)`).
    /// With `messages` false, the size without the messages.
    static func estimatedSize<Message: WorkStreamMessage>(
        _ fields: WorkStreamFields<Message>, _ provider: Provider?, _ unknown: JSONObject, messages: Bool = true
    ) -> Int {
        var size =
            900 + CanonicalWriter.estimatedSize(of: unknown)
            + fields.backendName.utf8.count + fields.workingDirectory.utf8.count + fields.preview.utf8.count
        if let provider {
            size += provider.sessionID.utf8.count + provider.name.utf8.count
            if let cursors = provider.cursors { size += 200 + (cursors.lastFileSignature?.utf8.count ?? 0) }
        }
        if messages {
            for index in fields.messages.indices { size += fields.messages[index].estimatedSize }  // no copy of each message
        }
        return size + size / 16  // escapes
    }
}

extension CanonicalWriter {
    /// The `messages` array (level 1) whose first `count` messages (at least one) have the
    /// canonical bytes `known`: those bytes up to their closing `\n  ]`, then each later message
    /// as ``messages(_:)`` writes it, its range appended to `ranges`. The same bytes as
    /// ``messages(_:)`` writes for all of them.
    mutating func messages<Message: WorkStreamMessage>(_ messages: [Message], after known: [UInt8], count: Int, ranges: inout [Range<Int>]) {
        precondition(
            count > 0 && known.count > 4 && known.suffix(4).elementsEqual([0x0A, 0x20, 0x20, 0x5D]),
            "CanonicalWriter.messages(after:): the known bytes are not a non-empty level-1 array")
        known.withUnsafeBufferPointer { append(UnsafeBufferPointer(rebasing: $0[0..<($0.count - 4)])) }
        messages.withUnsafeBufferPointer { messages in
            for index in count..<messages.count {
                append(",\n")
                indent(2)
                let start = position
                messages[index].write(to: &self)
                ranges.append(start..<position)
            }
        }
        append("\n  ]")
    }

    /// The `messages` array of a work-stream document (level 1), `[]` when empty.
    mutating func messages<Message: WorkStreamMessage>(_ messages: [Message]) {
        // Each message is written in place (through the buffer pointer), not copied out of the
        // array as `for message in messages` does (a retain and a release of each of its strings).
        messages.withUnsafeBufferPointer { messages in
            array(count: messages.count, level: 1) { w, index in messages[index].write(to: &w) }
        }
    }
}
