import Foundation
import StoreJSON

// What `print(change)` shows for the values `Store.changes(...)` delivers: the document's file or
// id and how it changed, instead of the synthesised `DocumentChange(document: …, kind: …)`.

extension StoreChange: CustomStringConvertible {
    /// `modified queue.json, created work stream 555a622d-…` (`no documents` for an empty list),
    /// or `re-read everything`.
    public var description: String {
        switch self {
        case .documents(let changes): changes.isEmpty ? "no documents" : changes.map(\.description).joined(separator: ", ")
        case .reread: "re-read everything"
        }
    }
}

extension DocumentChange: CustomStringConvertible {
    /// `modified queue.json`, `deleted customisation 0f0e…`.
    public var description: String { "\(kind) \(document)" }
}

extension DocumentChange.Kind: CustomStringConvertible {
    /// `created`, `modified` or `deleted`.
    public var description: String {
        switch self {
        case .created: "created"
        case .modified: "modified"
        case .deleted: "deleted"
        }
    }
}

extension StoreDocument: CustomStringConvertible {
    /// `store.json`, `settings.json`, `queue.json`, `work stream <lowercase id>` or
    /// `customisation <lowercase id>` (the work-stream folder's name depends on the store's
    /// version, so a work stream is named by its id).
    public var description: String {
        switch self {
        case .manifest: StoreLayout.manifest
        case .settings: StoreLayout.settings
        case .queue: StoreLayout.queue
        case .workStream(let id): "work stream \(UUIDText.lowercase(id))"
        case .customisation(let id): "customisation \(UUIDText.lowercase(id))"
        }
    }
}
