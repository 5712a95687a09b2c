import Foundation

/// One row of the app's store that was not taken exactly as it is, or not taken: reported by
/// table, primary key and id, with what the import did (spec §13: none silently dropped).
public struct CoreDataFinding: Sendable, Hashable, CustomStringConvertible {
    /// What kind of oddity this is; stable names for `--json`.
    public enum Kind: String, Sendable, Hashable {
        /// A message whose `sessionId` names no work stream (or is empty): left out.
        case orphanMessage = "orphan_message"
        /// A message whose relationship names another work stream than its `sessionId`: kept by `sessionId`.
        case relationshipDisagrees = "relationship_disagrees"
        /// A required date is empty (`createdAt`, `lastModified`, `timestamp`): set as said.
        case missingDate = "missing_date"
        /// A required value is empty or not of its type: the default was taken, or the row left out.
        case missingValue = "missing_value"
        /// A second row with an id already taken: left out.
        case duplicateID = "duplicate_id"
        /// A number outside its type's range: clamped as said.
        case outOfRange = "out_of_range"
        /// A queue position renumbered by the queue rules (spec §6 rule 5).
        case queueRenumbered = "queue_renumbered"
        /// A value stored as another SQLite type than its attribute's (text in a date, a fraction
        /// in an integer): not converted; the default was taken, as said.
        case wrongType = "wrong_type"
        /// Text with bytes that are not UTF-8: each invalid sequence taken as U+FFFD.
        case invalidText = "invalid_text"
        /// A sync offset counted from the message sequence, as the app does once on model 7 (spec §13).
        case offsetBackfilled = "offset_backfilled"
        /// An early build's `localName` or `markedDeleted`, taken as the work stream's customisation.
        case customisationFromSession = "customization_from_session"
    }

    public var kind: Kind
    /// The SQLite table (`ZCDMESSAGE`).
    public var table: String
    /// The row's `Z_PK`.
    public var primaryKey: Int64
    /// The row's id (lowercase UUID), or nil when it has none that reads as a UUID.
    public var id: String?
    /// What was found and what the import did, as a sentence.
    public var detail: String

    public init(_ kind: Kind, table: String, primaryKey: Int64, id: String?, _ detail: String) {
        self.kind = kind; self.table = table; self.primaryKey = primaryKey; self.id = id; self.detail = detail
    }

    /// `ZCDMESSAGE Z_PK 12 (id 1c…): sessionId names no work stream; left out.`
    public var description: String {
        "\(table) Z_PK \(primaryKey)\(id.map { " (id \($0))" } ?? ""): \(detail)"
    }
}

/// The findings of one import, in the order they were met.
struct CoreDataFindings {
    private(set) var all: [CoreDataFinding] = []
    /// The file as the user named it, for a refusal.
    var source = ""
    var table = ""
    var primaryKey: Int64 = 0
    var id: String?

    /// Starts a new row: the findings that follow are about it.
    mutating func row(_ table: String, _ primaryKey: Int64, _ id: UUID?) {
        self.table = table; self.primaryKey = primaryKey; self.id = id?.lowercased
    }

    mutating func add(_ kind: CoreDataFinding.Kind, _ detail: String) {
        all.append(CoreDataFinding(kind, table: table, primaryKey: primaryKey, id: id, detail))
    }
}
