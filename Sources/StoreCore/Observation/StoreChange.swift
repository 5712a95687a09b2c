import Foundation
import StoreJSON

/// What `Store.changes(...)` delivers: the documents that changed since the last event, or
/// "re-read everything".
public enum StoreChange: Sendable, Hashable {
    /// These documents changed, each once, with the net kind of its changes since the last event
    /// (created then modified is `.created`; modified then deleted is `.deleted`; created then
    /// deleted is left out). Sorted: manifest, settings, queue, work streams, customisations.
    case documents([DocumentChange])
    /// More changed than is worth listing: the consumer fell behind by more than
    /// `StoreChanges.Options.maximumPending` documents, or the store's folders could not be listed.
    /// Re-read what you show.
    case reread
}

/// One document that changed.
public struct DocumentChange: Sendable, Hashable {
    /// How it changed.
    public enum Kind: Sendable, Hashable {
        case created, modified, deleted
    }

    public var document: StoreDocument
    public var kind: Kind

    public init(_ document: StoreDocument, _ kind: Kind) {
        self.document = document
        self.kind = kind
    }
}

/// A document of a store, as observation names it.
public enum StoreDocument: Sendable, Hashable, Comparable {
    /// `store.json`.
    case manifest
    /// `settings.json`.
    case settings
    /// `queue.json`.
    case queue
    /// `sessions/<id>.json`.
    case workStream(UUID)
    /// `user-sessions/<id>.json`.
    case customisation(UUID)

    public static func < (a: StoreDocument, b: StoreDocument) -> Bool {
        switch (a, b) {
        case (.workStream(let x), .workStream(let y)), (.customisation(let x), .customisation(let y)):
            return x.lowercased < y.lowercased
        default:
            return a.rank < b.rank
        }
    }

    private var rank: Int {
        switch self {
        case .manifest: return 0
        case .settings: return 1
        case .queue: return 2
        case .workStream: return 3
        case .customisation: return 4
        }
    }

    /// The document a file of the store is, given its folder (`""` for the store folder itself,
    /// or a document folder: the watcher watches only the work-stream folder of the store's
    /// version, `sessions` or `work-streams`) and name; nil for anything else (temp files, the lock, ...).
    static func named(_ name: String, inFolder folder: String) -> StoreDocument? {
        switch folder {
        case "":
            switch name {
            case StoreLayout.manifest: return .manifest
            case StoreLayout.settings: return .settings
            case StoreLayout.queue: return .queue
            default: return nil
            }
        case StoreLayout.workStreamsFolder, StoreLayout.renamedWorkStreamsFolder:
            return documentID(name).map { .workStream($0) }
        case StoreLayout.customisationsFolder:
            return documentID(name).map { .customisation($0) }
        default:
            return nil
        }
    }

    /// The id of `<lowercase uuid>.json`, nil for any other name.
    private static func documentID(_ name: String) -> UUID? {
        guard name.hasSuffix(StoreLayout.documentExtension), !name.hasPrefix(".") else { return nil }
        guard let id = UUIDText.parse(String(name.dropLast(StoreLayout.documentExtension.count))),
            StoreLayout.documentFileName(id) == name
        else { return nil }
        return id
    }
}

extension DocumentChange.Kind {
    /// The net kind of `self` followed by `next`; nil when they cancel out (created, then deleted).
    func then(_ next: DocumentChange.Kind) -> DocumentChange.Kind? {
        switch (self, next) {
        case (.created, .deleted): return nil
        case (.created, _): return .created
        case (.deleted, .created), (.deleted, .modified): return .modified
        case (_, let next): return next
        }
    }
}
