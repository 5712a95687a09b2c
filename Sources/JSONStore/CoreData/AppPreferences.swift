import Foundation

/// The app's queue switches, read from its preferences (a binary or XML property list: the
/// `UserDefaults` file), for `settings.json` (spec §13: settings are not in SQLite); whether the
/// app already derived the model-7 offsets; and every other key, listed as not carried. The API
/// key is in the keychain, which is never read.
public struct AppPreferences: Sendable, Equatable {
    /// The two switches; a key the file lacks keeps the default (false).
    public var settings: Settings
    /// The keys of the two the file had (`queueEnabled`, `priorityQueueEnabled`).
    public var keysFound: [String]
    /// `VoiceCode.v6ToV7BackfillComplete`: true once the app derived the offsets (nil: absent).
    public var backfillComplete: Bool?
    /// Every other key of the file, by name, sorted: the import does not carry them.
    public var keysNotCarried: [String]

    static let queueKey = "queueEnabled", priorityKey = "priorityQueueEnabled"
    static let backfillKey = "VoiceCode.v6ToV7BackfillComplete"

    /// Reads `path`.
    ///
    /// - Throws: `StoreError` `.invalidDocument` when the file is not a property list holding a
    ///   dictionary, or a key holds something other than a boolean; or the code of a failed read.
    static func read(_ path: String, system: SystemCalls) throws(StoreError) -> AppPreferences {
        let bytes = try FileReader.read(path, limit: 64 * 1024 * 1024, system: system)
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw StoreError(
                .invalidDocument,
                "Can't read the preferences '\(path)': it is not a property list (\(error.localizedDescription)). "
                    + "Give the app's preferences file, or leave out --preferences.", path: path)
        }
        guard let dictionary = value as? [String: Any] else {
            throw StoreError(.invalidDocument, "Can't read the preferences '\(path)': it holds no dictionary of settings.", path: path)
        }
        var settings = Settings(schemaVersion: CoreDataImport.schemaVersion)
        var found: [String] = []
        for key in [queueKey, priorityKey] {
            guard let raw = dictionary[key] else { continue }
            guard let flag = boolean(raw) else {
                throw StoreError(.invalidDocument, "Can't read the preferences '\(path)': '\(key)' is \(raw), not a boolean.", path: path)
            }
            found.append(key)
            if key == queueKey { settings.queueEnabled = flag } else { settings.priorityQueueEnabled = flag }
        }
        var backfillComplete: Bool?
        if let raw = dictionary[backfillKey] {
            guard let flag = boolean(raw) else {
                throw StoreError(.invalidDocument, "Can't read the preferences '\(path)': '\(backfillKey)' is \(raw), not a boolean.", path: path)
            }
            backfillComplete = flag
        }
        let notCarried = dictionary.keys.filter { ![queueKey, priorityKey, backfillKey].contains($0) }.sorted()
        return AppPreferences(settings: settings, keysFound: found, backfillComplete: backfillComplete, keysNotCarried: notCarried)
    }

    /// A property-list boolean (`<true/>`, `<false/>`).
    private static func boolean(_ raw: Any) -> Bool? { raw as? Bool }
}
