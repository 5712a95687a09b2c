/// One preference of the app that was not taken exactly as it is, or not taken: reported by its
/// key, with what the import did (spec §11, §13: none silently dropped).
///
/// The rule is the importer's for wrong values in rows (`CoreDataFinding`): a value that is not of
/// its preference's type is not converted by guessing; the preference keeps the app's default,
/// which is also what the app itself reads from such a value (`object(forKey:) as? Bool ?? true`
/// and the like). Where the app reads a value of another type as its own (a number where text
/// belongs, 0 or 1 where a boolean belongs), the import reads it the same way and says so.
public struct PreferenceFinding: Sendable, Hashable, CustomStringConvertible {
    /// What kind of oddity this is; stable names for `--json`.
    public enum Kind: String, Sendable, Hashable {
        /// A value of another type than its preference's: the default kept, or read as the app reads it.
        case wrongType = "wrong_type"
        /// A number outside what the store holds: clamped as said.
        case outOfRange = "out_of_range"
        /// A draft (`sessionDrafts`) whose key is not a work stream's id (a UUID): left out.
        case notAWorkStreamID = "not_a_work_stream_id"
        /// A second draft for the same work stream (its id in another letter case): left out.
        case duplicateID = "duplicate_id"
    }

    public var kind: Kind
    /// The app's preference key (`serverPort`, `sessionDrafts`).
    public var key: String
    /// What was found and what the import did, as a sentence.
    public var detail: String

    public init(_ kind: Kind, key: String, _ detail: String) {
        self.kind = kind; self.key = key; self.detail = detail
    }

    /// `'serverPort': is the integer 8080, not text; taken as '8080', as the app reads it`.
    public var description: String { "'\(key)': \(detail)" }
}
