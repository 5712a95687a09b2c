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

    init(_ summary: WorkStreamSummary, customization: UserSessionV1?, queue: QueueLookup) {
        self.summary = summary
        displayName = WorkStreamRules.displayName(backendName: summary.backendName, customization: customization)
        displayNameSource = WorkStreamRules.displayNameSource(backendName: summary.backendName, customization: customization)
        isUserDeleted = customization?.isUserDeleted ?? false
        fifoPosition = queue.fifoPosition[summary.id]
        priorityEntry = queue.priorityEntry[summary.id]?.entry
        priorityPosition = queue.priorityEntry[summary.id]?.position
    }

    /// `local`, `deleted`, `hidden`, as the FLAGS column shows them.
    var flags: [String] {
        var flags: [String] = []
        if summary.isLocallyCreated { flags.append("local") }
        if isUserDeleted { flags.append("deleted") }
        if isHidden { flags.append("hidden") }
        return flags
    }

    /// The `--json` object of `ls`.
    var json: JSONOutputValue {
        [
            "id": .string(id.lowercased),
            "display_name": .string(displayName),
            "display_name_source": .string(displayNameSource.rawValue),
            "backend_name": .string(summary.backendName),
            "provider": .string(summary.effectiveProvider),
            "provider_session_id": .string(summary.effectiveProviderSessionID),
            "message_count": .int(Int(summary.messageCount)),
            "stored_messages": .int(summary.storedMessages),
            "unread_count": .int(Int(summary.unreadCount)),
            "last_modified": .string(RFC3339.format(summary.lastModified)),
            "working_directory": .string(summary.workingDirectory),
            "fifo_position": fifoPosition.map { .int($0) } ?? .null,
            "priority": priorityEntry.map { .int(Int($0.priority)) } ?? .null,
            "priority_order": priorityEntry.map { .double($0.priorityOrder) } ?? .null,
            "priority_position": priorityPosition.map { .int($0) } ?? .null,
            "is_user_deleted": .bool(isUserDeleted),
            "is_locally_created": .bool(summary.isLocallyCreated),
            "is_hidden": .bool(isHidden),
            "hidden_reasons": .array(hiddenReasons.map(JSONOutputValue.string)),
            "schema_version": .int(summary.schemaVersion),
            "file_size": .int(summary.fileSize),
        ]
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
