import Foundation

/// The app's preferences (its `UserDefaults`: a binary or XML property list on disk) as the store
/// holds them (spec §11, §13): every preference of the app's `AppSettings`, `VoiceOutputManager`
/// and `CommandSorter` for `settings.json`, each unsent draft of `DraftManager` for its work
/// stream's customisation, whether the app already derived the model-7 offsets, and every other
/// key, listed as not carried. The API key is in the keychain, which is never read.
///
/// A value of the wrong type is reported by key (``findings``) and the preference keeps the
/// app's default (see `PreferenceFinding`); nothing is refused for it, so that an app moving its
/// data on first launch is never stuck on one odd value.
public struct AppPreferences: Sendable, Equatable {
    /// `settings.json`: a key the preferences lack (or hold with the wrong type) keeps the app's default.
    public var settings: Settings
    /// The drafts (`sessionDrafts`) by work stream; an empty draft is no draft, as in the app.
    public var drafts: [UUID: String]
    /// The app's keys whose value went into the store, sorted (a key whose value was of the wrong
    /// type is not among them: it is in ``findings``).
    public var keysCarried: [String]
    /// `VoiceCode.v6ToV7BackfillComplete`: true once the app derived the offsets (nil: absent or
    /// not a boolean, which the app reads as not done).
    public var backfillComplete: Bool?
    /// Every key that is not one of the app's preferences above, by name, sorted: the import does
    /// not carry them. A whole `UserDefaults` dictionary also holds the system's keys
    /// (`AppleLanguages`, `NSInterfaceStyle`, …): they are listed like any other.
    public var keysNotCarried: [String]
    /// Every value not taken exactly as it is, in key order.
    public var findings: [PreferenceFinding]

    static let queueKey = "queueEnabled", priorityKey = "priorityQueueEnabled"
    static let backfillKey = "VoiceCode.v6ToV7BackfillComplete"
    static let draftsKey = "sessionDrafts", mruKey = "commandMRU"

    /// The app's preference keys the store carries, each with its key in `settings.json` (spec
    /// §11's table), and the app's source file: `AppSettings.swift` (all but the last three),
    /// `VoiceOutputManager.swift` (`voiceOutputMuted`), `CommandSorter.swift` (`commandMRU`).
    static let settingsKeys: [(app: String, store: String)] = [
        (queueKey, "queue_enabled"), (priorityKey, "priority_queue_enabled"), ("defaultProvider", "default_provider"),
        ("recentSessionsLimit", "recent_sessions_limit"), ("notifyOnResponse", "notify_on_response"),
        ("voiceOutputMuted", "voice_output_muted"), ("continuePlaybackWhenLocked", "continue_playback_when_locked"),
        ("respectSilentMode", "respect_silent_mode"), ("selectedVoiceIdentifier", "selected_voice_identifier"),
        ("systemPrompt", "system_prompt"), ("maxMessageSizeKB", "max_message_size_kb"), ("serverURL", "server_url"),
        ("serverPort", "server_port"), ("resourceStorageLocation", "resource_storage_location"),
        ("lastUsedDirectory", "last_used_directory"), ("recentDirectories", "recent_directories"), (mruKey, "command_mru"),
    ]

    /// Maps the preferences' values (pure: no I/O).
    init(values: [String: PreferenceValue]) {
        var reader = PreferenceReader()
        var carried: [String] = []
        let known = Set(Self.settingsKeys.map(\.app) + [Self.draftsKey, Self.backfillKey])
        for key in values.keys.sorted() where known.contains(key) {
            guard let value = values[key] else { continue }
            if key == Self.backfillKey {
                reader.backfill = reader.flag(key, value, kept: "taken as not done")
            } else if reader.take(key, value) {
                carried.append(key)
            }
        }
        settings = reader.settings
        drafts = reader.drafts
        keysCarried = carried
        backfillComplete = reader.backfill
        keysNotCarried = values.keys.filter { !known.contains($0) }.sorted()
        findings = reader.findings
    }

    /// Reads the preferences from where the caller has them.
    ///
    /// - Throws: `StoreError` `.invalidDocument` when a file or data is not a property list
    ///   holding a dictionary; or the code of a failed read.
    static func read(_ source: CoreDataImport.Preferences, system: SystemCalls) throws(StoreError) -> AppPreferences {
        switch source.kind {
        case .values(let values): return AppPreferences(values: values)
        case .data(let bytes): return AppPreferences(values: try parse(bytes, shown: "the preferences data", fix: "Give the app's UserDefaults property list."))
        case .file(let path):
            let bytes = try FileReader.read(path, limit: 64 * 1024 * 1024, system: system)
            return AppPreferences(
                values: try parse(bytes, shown: "the preferences '\(path)'", fix: "Give the app's preferences file, or leave out --preferences.", path: path))
        }
    }

    /// Reads `path` (the command line's `--preferences`).
    static func read(_ path: String, system: SystemCalls) throws(StoreError) -> AppPreferences {
        try read(.file(path), system: system)
    }

    private static func parse(_ bytes: [UInt8], shown: String, fix: String, path: String? = nil) throws(StoreError) -> [String: PreferenceValue] {
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw StoreError(
                .invalidDocument, "Can't read \(shown): it is not a property list (\(error.localizedDescription)). \(fix)", path: path)
        }
        guard let dictionary = value as? [String: Any] else {
            throw StoreError(.invalidDocument, "Can't read \(shown): it holds no dictionary of settings. \(fix)", path: path)
        }
        return dictionary.mapValues { PreferenceValue($0) }
    }
}
