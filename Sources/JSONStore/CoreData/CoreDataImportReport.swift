import Foundation

/// What `CoreDataImport.run` read and wrote (or, in a dry run, would write).
public struct CoreDataImportReport: Sendable {
    /// The Core Data file read, and the store folder written.
    public var source: String
    public var target: String
    /// The app's model version the file holds (1–7).
    public var modelVersion: Int
    /// Whether the file is from the app's builds before 2025-11-15 (`CDSession`, version 1).
    public var earlyBuild: Bool
    /// Why that version: the entity set and the columns that decided it.
    public var modelExplanation: String
    /// `Z_METADATA`'s entity hashes (entity name → base64), as recorded in the migration record.
    public var entityHashes: [String: String]
    /// Tables, columns and entities no model of the app has, left out (only with `allowUnknown`).
    public var unknown: [CoreDataUnknown]
    /// Whether the file had a `-wal` file, how many of its commits SQLite applied (0: none of it
    /// was), and how many bytes after its last applied commit SQLite does not apply (frames of an
    /// unfinished or cut transaction, or older ones a checkpoint already copied to the main file).
    public var hadWAL: Bool
    public var walCommits: Int
    public var walIgnoredBytes: Int64
    /// Whether the offsets were derived from the sequence numbers as the app does once on model 7,
    /// why or why not, and how many values changed (each is an `offset_backfilled` finding).
    public var backfillApplied: Bool
    public var backfillReason: String
    public var offsetsBackfilled: Int
    /// Documents written: work streams, messages in them, customisations.
    public var workStreams: Int
    public var messages: Int
    public var customisations: Int
    /// The queues of `queue.json`, in the app's order (work-stream ids).
    public var fifo: [UUID]
    public var priority: [UUID]
    /// The settings written, and where the preferences came from: the file's path, or what was
    /// given in code (`property-list data (812 bytes)`, `a UserDefaults dictionary (41 keys)`);
    /// nil: none were given, and the defaults hold.
    public var settings: Settings
    public var preferences: String?
    /// The app's preference keys whose value went into the store (`settings.json`, the drafts),
    /// sorted; a key the preferences lack keeps its default.
    public var preferenceKeysCarried: [String]
    /// Every key of the preferences that is not one of the app's preferences the store holds,
    /// by name, sorted: not carried into the store.
    public var preferenceKeysNotCarried: [String]
    /// The drafts carried (`sessionDrafts`), and how many of them needed a new customisation
    /// (their work stream had none).
    public var drafts: Int
    public var customisationsForDrafts: Int
    /// Every preference value not taken exactly as it is, by key, with what was done.
    public var preferenceFindings: [PreferenceFinding]
    /// Every row not taken exactly as it is, or left out, with what was done.
    public var findings: [CoreDataFinding]
    /// Files written (or that would be) and their total size.
    public var files: Int
    public var bytes: Int64
    /// True when nothing was written.
    public var dryRun: Bool
    /// The schema version of the new store (`CoreDataImport.schemaVersion`).
    public var storeSchemaVersion: Int
    /// The time of the import, as recorded in the store's migration record (whole milliseconds).
    public var importedAt: Date
}

/// Whether the import derives the sync offsets from the sequence numbers (spec §13): the app does
/// it once, on its first launch on model 7 (`PersistenceController.backfillV6ToV7Offsets`), and
/// records that in the preference `VoiceCode.v6ToV7BackfillComplete`. The import does the same
/// unless the file is model 7 and the preferences say it was done; only values that are 0 while
/// their sequence number is above 0 change, so a store the app already converted is left as it is.
enum CoreDataBackfill {
    static func decide(model: CoreDataModel, preferences: AppPreferences?) -> (applied: Bool, reason: String) {
        if model.version < 7 {
            return (true, "model version \(model.version) has no offset columns: each is max(0, seq − 1) as the app derives it once on model 7")
        }
        switch preferences?.backfillComplete {
        case true?: return (false, "the preferences say the app already derived the offsets (\(AppPreferences.backfillKey) true)")
        case false?: return (true, "the preferences say the app has not derived the offsets yet (\(AppPreferences.backfillKey) false)")
        case nil:
            return (
                true,
                preferences == nil
                    ? "no --preferences says the app already derived the offsets: any still 0 are derived"
                    : "the preferences hold no boolean \(AppPreferences.backfillKey): any offset still 0 is derived"
            )
        }
    }
}
