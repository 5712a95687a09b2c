import Foundation
import JSONStore
import Schema

/// The `--json` object of `show`.
extension ShowReport {
    var json: [String: JSONOutputValue] {
        var keys: JSONObject = [:]
        if case .object(let object) = document.json { keys = object.filter { $0.key != "messages" } }
        return [
            "store": .string(inspected.path),
            "file": .string(path),
            "file_size": .int(fileSize),
            "work_stream": .document(.object(keys)),
            "derived": derivedJSON,
            "customization": customisation.map { .document($0.json) } ?? .null,
            "stored_messages": .int(document.storedMessageCount),
            "messages": .array(shownMessageList.map { messageJSON($0.message, index: $0.index) }),
            "problems": .array(problems.map(\.json)),
        ]
    }

    /// `reconcile_pending` (why) appears only when a reconcile is pending.
    private var derivedJSON: JSONOutputValue {
        let place = priorityPlace
        var derived: [String: JSONOutputValue] = [
            "display_name": .string(displayName),
            "display_name_source": .string(displayNameSource.rawValue),
            "backend_name_is_valid": .bool(WorkStreamRules.isValidDisplayName(fields.backendName)),
            "provider": .string(provider),
            "provider_is_default": .bool(!hasKey("provider")),
            "provider_session_id": .string(providerSessionID),
            "provider_session_id_is_default": .bool(!hasKey("provider_session_id")),
            "provider_session_differs_from_id": .bool(providerSessionID != id.lowercased),
            "is_hidden": .bool(isUserDeleted),
            "has_draft": .bool(customisation?.hasDraft ?? false),
            "hidden_reasons": isUserDeleted ? [.string(HiddenReason.deleted.rawValue)] : [],
            "fifo_position": fifoPosition.map { .int($0) } ?? .null,
            "priority_position": place.map { .int($0.position) } ?? .null,
            "queue_source": .string(queueSource.code),
        ]
        if let pendingReconcile { derived["reconcile_pending"] = .string(pendingReconcile) }
        return .object(derived)
    }

    /// `{"index": 0-based place in messages, "message": the message with its text maybe cut,
    /// "text_characters": the whole text's length, "cut_characters": how many were left out}`.
    private func messageJSON(_ message: any WorkStreamMessage, index: Int) -> JSONOutputValue {
        var shown = message
        let (text, cut) = shownText(message.text)
        shown.text = text
        return [
            "index": .int(index),
            "message": .document(shown.json),
            "text_characters": .int(message.text.count),
            "cut_characters": .int(cut),
        ]
    }
}
