import Foundation
import JSONStore
import Schema
import StoreJSON

/// One work stream as `ls` shows it: the summary, with the values derived by the rules of
/// spec §4 (display name, effective provider session) and its place in both queues.
struct WorkStreamRow {
    var summary: WorkStreamSummary
    var displayName: String
    var displayNameSource: WorkStreamRules.DisplayNameSource
    var isUserDeleted: Bool
    /// The user has typed text in this work stream and not sent it (spec §11).
    var hasDraft: Bool
    /// 1-based FIFO position, or nil when not in the FIFO queue.
    var fifoPosition: Int?
    /// The priority-queue entry and its 1-based place in the whole priority queue.
    var priorityEntry: PriorityEntry?
    var priorityPosition: Int?

    var id: UUID { summary.id }
    /// A client hides a work stream the user deleted (spec §5); that is all that is knowable offline.
    var isHidden: Bool { isUserDeleted }
    var hiddenReasons: [String] { isUserDeleted ? [HiddenReason.deleted.rawValue] : [] }
    var isQueued: Bool { fifoPosition != nil || priorityEntry != nil }

    init(_ summary: WorkStreamSummary, customisation: Customisation?, queue: QueueLookup) {
        self.summary = summary
        displayName = WorkStreamRules.displayName(backendName: summary.backendName, customisation: customisation)
        displayNameSource = WorkStreamRules.displayNameSource(backendName: summary.backendName, customisation: customisation)
        isUserDeleted = customisation?.isUserDeleted ?? false
        hasDraft = customisation?.hasDraft ?? false
        fifoPosition = queue.fifoPosition[summary.id]
        let priority = queue.priorityEntry[summary.id]
        (priorityEntry, priorityPosition) = (priority?.entry, priority?.position)
    }

    /// `local`, `deleted`, `hidden`, `draft`, as the FLAGS column shows them.
    var flags: [String] {
        var flags: [String] = []
        if summary.isLocallyCreated { flags.append("local") }
        if isUserDeleted { flags.append("deleted") }
        if isHidden { flags.append("hidden") }
        if hasDraft { flags.append("draft") }
        return flags
    }

    /// The `--json` object of `ls`: its members in the order ``JSONOutputValue/object(_:)``
    /// writes them (keys by their UTF-8 bytes), so that no row sorts its keys again.
    var json: JSONOutputValue {
        .sortedObject([
            .init("backend_name", .string(summary.backendName)),
            .init("display_name", .string(displayName)),
            .init("display_name_source", .string(displayNameSource.rawValue)),
            .init("fifo_position", fifoPosition.map { .int($0) } ?? .null),
            .init("file_size", .int(summary.fileSize)),
            .init("has_draft", .bool(hasDraft)),
            .init("hidden_reasons", .array(hiddenReasons.map(JSONOutputValue.string))),
            .init("id", .string(id.lowercased)),
            .init("is_hidden", .bool(isHidden)),
            .init("is_locally_created", .bool(summary.isLocallyCreated)),
            .init("is_user_deleted", .bool(isUserDeleted)),
            .init("last_modified", .string(RFC3339.format(summary.lastModified))),
            .init("message_count", .int(Int(summary.messageCount))),
            .init("priority", priorityEntry.map { .int(Int($0.priority)) } ?? .null),
            .init("priority_order", priorityEntry.map { .double($0.priorityOrder) } ?? .null),
            .init("priority_position", priorityPosition.map { .int($0) } ?? .null),
            .init("provider", .string(summary.effectiveProvider)),
            .init("provider_session_id", .string(summary.effectiveProviderSessionID)),
            .init("schema_version", .int(summary.schemaVersion)),
            .init("stored_messages", .int(summary.storedMessages)),
            .init("unread_count", .int(Int(summary.unreadCount))),
            .init("working_directory", .string(summary.workingDirectory)),
        ])
    }
}

/// The queue indexed by work stream.
struct QueueLookup {
    var fifoPosition: [UUID: Int] = [:]
    var priorityEntry: [UUID: (entry: PriorityEntry, position: Int)] = [:]

    init(_ queue: QueueV2) {
        for (index, entry) in queue.fifo.enumerated() where fifoPosition[entry.workStreamID] == nil {
            fifoPosition[entry.workStreamID] = index + 1
        }
        for (index, entry) in queue.priority.enumerated() where priorityEntry[entry.workStreamID] == nil {
            priorityEntry[entry.workStreamID] = (entry, index + 1)
        }
    }
}

/// Short ids for tables: the shortest prefix of at least 8 characters that tells every listed
/// id apart, like `git log --oneline`.
struct ShortIDs {
    let length: Int

    init(_ ids: [UUID], minimum: Int = 8) {
        let strings = ids.map(\.lowercased).sorted()
        var length = minimum
        for (a, b) in zip(strings, strings.dropFirst()) {
            let common = zip(a, b).prefix { $0 == $1 }.count
            length = max(length, common + 1)
        }
        self.length = min(length, 36)
    }

    func callAsFunction(_ id: UUID) -> String { String(id.lowercased.prefix(length)) }
}

extension UUID {
    /// The id's 16 bytes as two big-endian halves. Tuples compare element by element, so `<` on
    /// these keys orders ids exactly as `<` on their lowercase text: the text spells the bytes
    /// in order, two hex digits each, with the dashes at the same places in every id, and the
    /// digits `0`–`9`, `a`–`f` ascend in ASCII as their values do. No `String` is made.
    var textOrderKey: (UInt64, UInt64) {
        withUnsafeBytes(of: uuid) { bytes in
            (
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
    }
}
