import Foundation

extension CoreDataImport {
    /// The app's preferences, as the caller has them: the command line has a file; the app itself
    /// has its `UserDefaults` (spec §11, §13).
    ///
    /// ```swift
    /// let preferences = CoreDataImport.Preferences.userDefaults(UserDefaults.standard.dictionaryRepresentation())
    /// ```
    public struct Preferences: Sendable {
        enum Kind: Sendable {
            case file(String)
            case data([UInt8])
            case values([String: PreferenceValue])
        }

        let kind: Kind

        /// A preferences file: the binary or XML property list `UserDefaults` keeps
        /// (`Library/Preferences/<bundle id>.plist`).
        public static func file(_ path: String) -> Preferences { Preferences(kind: .file(path)) }

        /// The same property list as data.
        public static func data(_ data: Data) -> Preferences { Preferences(kind: .data(Array(data))) }

        /// The app's defaults as a dictionary, as `UserDefaults.dictionaryRepresentation()`
        /// returns them (which also holds the system's keys, such as `AppleLanguages`: they are
        /// listed as not carried, like every key that is not one of the app's preferences). The
        /// values are taken at once, so the dictionary may change afterwards.
        public static func userDefaults(_ dictionary: [String: Any]) -> Preferences {
            Preferences(kind: .values(dictionary.mapValues { PreferenceValue($0) }))
        }

        /// What the report says they came from.
        var shown: String {
            switch kind {
            case .file(let path): return path
            case .data(let bytes): return "property-list data (\(bytes.count) bytes)"
            case .values(let values): return "a UserDefaults dictionary (\(values.count) key\(values.count == 1 ? "" : "s"))"
            }
        }
    }
}
