import Foundation
import StoreJSON

/// Reads each of the app's preferences into the store's types the way the app reads it (spec
/// §11), reporting every value that is not of its type (`PreferenceFinding`):
///
/// - a boolean (`object(forKey:) as? Bool ?? default`): `<true/>` or `<false/>`; the integer 0 or
///   1 is read as false or true, as Foundation's bridging does, and reported; anything else keeps
///   the default;
/// - an integer (`as? Int ?? default`): an integer, or a whole real; outside the store's 32-bit
///   range it is clamped, reported; anything else keeps the default;
/// - text (`string(forKey:)`, which also returns a number as its text): text, or a number taken
///   as its text, reported; anything else keeps the default (nil for an optional one);
/// - a list of text (`stringArray(forKey:)`): all text, or the default (empty);
/// - `commandMRU` (`CommandSorter`): data holding the JSON of `[String: Double]`, seconds since
///   1970 by command id (`JSONEncoder`), or the default (empty), as the app decodes it;
/// - `sessionDrafts` (`DraftManager`): a dictionary of text by work-stream id (the app writes
///   lower-case UUIDs); an empty draft is no draft, as in the app; an entry whose key is not a
///   UUID, or whose value is not text, is left out and reported, the other drafts are kept.
struct PreferenceReader {
    var settings = Settings(schemaVersion: CoreDataImport.schemaVersion)
    var drafts: [UUID: String] = [:]
    var backfill: Bool?
    private(set) var findings: [PreferenceFinding] = []

    /// Reads `key` into ``settings`` or ``drafts``; true when its value was taken (even in part).
    mutating func take(_ key: String, _ value: PreferenceValue) -> Bool {
        var s = settings
        defer { settings = s }
        switch key {
        case "queueEnabled": return set(&s.queueEnabled, flag(key, value, kept: "the default, false, is kept"))
        case "priorityQueueEnabled": return set(&s.priorityQueueEnabled, flag(key, value, kept: "the default, false, is kept"))
        case "notifyOnResponse": return set(&s.notifyOnResponse, flag(key, value, kept: "the default, true, is kept"))
        case "voiceOutputMuted": return set(&s.voiceOutputMuted, flag(key, value, kept: "the default, false, is kept"))
        case "continuePlaybackWhenLocked": return set(&s.continuePlaybackWhenLocked, flag(key, value, kept: "the default, true, is kept"))
        case "respectSilentMode": return set(&s.respectSilentMode, flag(key, value, kept: "the default, true, is kept"))
        case "recentSessionsLimit": return set(&s.recentSessionsLimit, integer(key, value, default: s.recentSessionsLimit))
        case "maxMessageSizeKB": return set(&s.maxMessageSizeKB, integer(key, value, default: s.maxMessageSizeKB))
        case "defaultProvider": return set(&s.defaultProvider, text(key, value, kept: "the default, 'claude', is kept"))
        case "systemPrompt": return set(&s.systemPrompt, text(key, value, kept: "the default, \"\", is kept"))
        case "serverURL": return set(&s.serverURL, text(key, value, kept: "the default, \"\", is kept"))
        case "serverPort": return set(&s.serverPort, text(key, value, kept: "the default, \"\", is kept"))
        case "resourceStorageLocation": return set(&s.resourceStorageLocation, text(key, value, kept: "the default, '~/Downloads', is kept"))
        case "selectedVoiceIdentifier": return setOptional(&s.selectedVoiceIdentifier, text(key, value, kept: "taken as none (null)"))
        case "lastUsedDirectory": return setOptional(&s.lastUsedDirectory, text(key, value, kept: "taken as none (null)"))
        case "recentDirectories": return set(&s.recentDirectories, texts(key, value))
        case AppPreferences.mruKey: return set(&s.commandMRU, mru(key, value))
        case AppPreferences.draftsKey: return takeDrafts(key, value)
        default: preconditionFailure("PreferenceReader: '\(key)' is not a preference the store carries")
        }
    }

    private func set<T>(_ property: inout T, _ value: T?) -> Bool {
        guard let value else { return false }
        property = value
        return true
    }

    private func setOptional(_ property: inout String?, _ value: String?) -> Bool {
        guard let value else { return false }
        property = value
        return true
    }

    private mutating func report(_ kind: PreferenceFinding.Kind, _ key: String, _ detail: String) {
        findings.append(PreferenceFinding(kind, key: key, detail))
    }

    /// A boolean, or nil (reported, `kept` saying what holds instead).
    mutating func flag(_ key: String, _ value: PreferenceValue, kept: String) -> Bool? {
        switch value {
        case .bool(let flag): return flag
        case .integer(let number) where number == 0 || number == 1:
            report(.wrongType, key, "is \(value.shown), not a boolean; taken as \(number == 1), as the app reads it")
            return number == 1
        default:
            report(.wrongType, key, "is \(value.shown), not a boolean; \(kept), as the app reads it")
            return nil
        }
    }

    /// An integer within 32 bits, or nil (reported: the default is kept).
    private mutating func integer(_ key: String, _ value: PreferenceValue, default fallback: Int) -> Int? {
        let whole: Int64
        switch value {
        case .integer(let number): whole = number
        case .real(let number) where number.rounded() == number && abs(number) < 9.2e18: whole = Int64(number)
        default:
            report(.wrongType, key, "is \(value.shown), not an integer; the default, \(fallback), is kept, as the app reads it")
            return nil
        }
        let clamped = min(max(whole, Int64(Int32.min)), Int64(Int32.max))
        if clamped != whole { report(.outOfRange, key, "is \(whole), outside \(Int32.min)…\(Int32.max); taken as \(clamped)") }
        return Int(clamped)
    }

    /// Text, a number taken as its text (reported), or nil (reported, `kept` saying what holds instead).
    private mutating func text(_ key: String, _ value: PreferenceValue, kept: String) -> String? {
        let number: String
        switch value {
        case .string(let text): return text
        case .integer(let integer): number = String(integer)
        case .real(let real): number = "\(real)"
        default:
            report(.wrongType, key, "is \(value.shown), not text; \(kept), as the app reads it")
            return nil
        }
        report(.wrongType, key, "is \(value.shown), not text; taken as '\(number)', as the app reads it")
        return number
    }

    /// A list of text, or nil (reported: the default, empty, is kept).
    private mutating func texts(_ key: String, _ value: PreferenceValue) -> [String]? {
        if case .array(let items) = value {
            let strings = items.compactMap { item -> String? in if case .string(let text) = item { return text } else { return nil } }
            if strings.count == items.count { return strings }
        }
        report(.wrongType, key, "is \(value.shown), not a list of text; the default, empty, is kept, as the app reads it")
        return nil
    }

    /// `CommandSorter`'s data: `JSONEncoder`'s `[String: Double]`, seconds since 1970 by command id.
    private mutating func mru(_ key: String, _ value: PreferenceValue) -> [String: Date]? {
        if case .data(let bytes) = value, let dates = Self.commandDates(bytes) { return dates }
        report(
            .wrongType, key,
            "is \(value.shown), not the JSON of seconds since 1970 by command id that the app writes; "
                + "the default, empty, is kept, as the app reads it")
        return nil
    }

    /// The dates of `CommandSorter`'s JSON, or nil when it is not that JSON (the caller reports it).
    private static func commandDates(_ bytes: [UInt8]) -> [String: Date]? {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { return nil }
        guard case .object(let members) = json else { return nil }
        var dates: [String: Date] = [:]
        for (command, seconds) in members {
            guard case .number(let number) = seconds, let seconds = number.doubleValue,
                CoreDataValues.writable.contains((seconds * 1000).rounded())
            else { return nil }
            dates[command] = Date(timeIntervalSince1970: seconds)
        }
        return dates
    }

    /// `DraftManager`'s drafts: each non-empty text by its work stream's id.
    private mutating func takeDrafts(_ key: String, _ value: PreferenceValue) -> Bool {
        guard case .dictionary(let members) = value else {
            report(.wrongType, key, "is \(value.shown), not a dictionary of drafts by work-stream id; no draft is taken")
            return false
        }
        // The app writes and looks up lower-case ids: where two keys name one work stream, the
        // lower-case one is the draft the app shows.
        let keys = members.keys.sorted { ($0 == $0.lowercased() ? 0 : 1, $0) < ($1 == $1.lowercased() ? 0 : 1, $1) }
        for entry in keys {
            guard case .string(let text)? = members[entry] else {
                report(.wrongType, key, "the draft of '\(entry)' is \(members[entry].map(\.shown) ?? "empty"), not text; left out")
                continue
            }
            guard let id = UUID(uuidString: entry) else {
                report(.notAWorkStreamID, key, "the draft of '\(entry)' (\(text.count) characters): '\(entry)' is not a work stream's id (a UUID); left out")
                continue
            }
            guard !text.isEmpty else { continue }
            guard drafts[id] == nil else {
                report(
                    .duplicateID, key,
                    "the draft of '\(entry)' is a second one for work stream \(id.lowercased); the lower-case key's is kept, this one left out")
                continue
            }
            drafts[id] = text
        }
        return true
    }
}
