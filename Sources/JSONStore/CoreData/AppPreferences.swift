import Foundation

/// The app's queue switches, read from its preferences (a binary or XML property list: the
/// `UserDefaults` file), for `settings.json` (spec §12: settings are not in SQLite).
public struct AppPreferences: Sendable, Equatable {
    /// The two switches; a key the file lacks keeps the default (false).
    public var settings: SettingsV1
    /// The keys of the two the file had (`queueEnabled`, `priorityQueueEnabled`).
    public var keysFound: [String]

    static let queueKey = "queueEnabled", priorityKey = "priorityQueueEnabled"

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
            throw StoreError(.invalidDocument, "Can't read the preferences '\(path)': it is not a property list (\(error.localizedDescription)). "
                                + "Give the app's preferences file, or leave out --preferences.", path: path)
        }
        guard let dictionary = value as? [String: Any] else {
            throw StoreError(.invalidDocument, "Can't read the preferences '\(path)': it holds no dictionary of settings.", path: path)
        }
        var settings = SettingsV1(schemaVersion: CoreDataImport.schemaVersion)
        var found: [String] = []
        for key in [queueKey, priorityKey] {
            guard let raw = dictionary[key] else { continue }
            guard let flag = boolean(raw) else {
                throw StoreError(.invalidDocument, "Can't read the preferences '\(path)': '\(key)' is \(raw), not a boolean.", path: path)
            }
            found.append(key)
            if key == queueKey { settings.queueEnabled = flag } else { settings.priorityQueueEnabled = flag }
        }
        return AppPreferences(settings: settings, keysFound: found)
    }

    /// A property-list boolean (`<true/>`, `<false/>`).
    private static func boolean(_ raw: Any) -> Bool? { raw as? Bool }
}
