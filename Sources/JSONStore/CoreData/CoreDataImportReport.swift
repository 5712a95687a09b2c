import Foundation

/// What `CoreDataImport.run` read and wrote (or, in a dry run, would write).
public struct CoreDataImportReport: Sendable {
    /// The Core Data file read, and the store folder written.
    public var source: String
    public var target: String
    /// The app's model version the file holds (1–7).
    public var modelVersion: Int
    /// Whether the file had a `-wal` file; its rows were read like the others.
    public var hadWAL: Bool
    /// Documents written: work streams, messages in them, customisations.
    public var workStreams: Int
    public var messages: Int
    public var customizations: Int
    /// The queues of `queue.json`, in the app's order (work-stream ids).
    public var fifo: [UUID]
    public var priority: [UUID]
    /// The settings written, and the preferences file they came from (nil: the defaults hold).
    public var settings: SettingsV1
    public var preferences: String?
    /// The preference keys the file had; a missing one keeps its default.
    public var preferenceKeysFound: [String]
    /// Every row not taken exactly as it is, or left out, with what was done.
    public var findings: [CoreDataFinding]
    /// Files written (or that would be) and their total size.
    public var files: Int
    public var bytes: Int64
    /// True when nothing was written.
    public var dryRun: Bool
    /// The schema version of the new store (3).
    public var storeSchemaVersion: Int
}
