import Foundation
import StoreJSON

/// User settings (`settings.json`) in schema v4 (spec §11): the two queue switches of v1, and the
/// rest of the app's preferences (its `AppSettings` and `VoiceOutputManager`), each with the app's
/// own default. Frozen. A store may lack the file; then ``defaults`` hold.
///
/// It reads every version. Below v4 the preference keys are not keys of the document's version:
/// any that an older writer kept stay among the unknown keys (so the document is written back
/// exactly as it was), and the properties hold the defaults; the v3 → v4 step moves them.
public struct SettingsV4: Sendable, Hashable {
    public static let version = 4

    public var schemaVersion: Int
    /// The default is `false`.
    public var queueEnabled: Bool
    /// The default is `false`.
    public var priorityQueueEnabled: Bool
    /// `defaultProvider`. The default is `"claude"`.
    public var defaultProvider: String
    /// `recentSessionsLimit`. The default is 5.
    public var recentSessionsLimit: Int
    /// `notifyOnResponse`. The default is `true`.
    public var notifyOnResponse: Bool
    /// `voiceOutputMuted`. The default is `false`.
    public var voiceOutputMuted: Bool
    /// `continuePlaybackWhenLocked`. The default is `true`.
    public var continuePlaybackWhenLocked: Bool
    /// `respectSilentMode`. The default is `true`.
    public var respectSilentMode: Bool
    /// `selectedVoiceIdentifier`. The default is nil (the system's voice).
    public var selectedVoiceIdentifier: String?
    /// `systemPrompt`. The default is `""`.
    public var systemPrompt: String
    /// `maxMessageSizeKB`. The default is 200.
    public var maxMessageSizeKB: Int
    /// `serverURL`. The default is `""`.
    public var serverURL: String
    /// `serverPort`, as the app keeps it: a string. The default is `""`.
    public var serverPort: String
    /// `resourceStorageLocation`. The default is `"~/Downloads"`.
    public var resourceStorageLocation: String
    /// `lastUsedDirectory` (macOS). The default is nil.
    public var lastUsedDirectory: String?
    /// `recentDirectories` (macOS), most recent first. The default is empty.
    public var recentDirectories: [String]
    /// `commandMRU`: when each command (by id) was last used. The default is empty.
    public var commandMRU: [String: Date]
    public var unknown: JSONObject

    public init(
        queueEnabled: Bool = false, priorityQueueEnabled: Bool = false, defaultProvider: String = "claude",
        recentSessionsLimit: Int = 5, notifyOnResponse: Bool = true, voiceOutputMuted: Bool = false,
        continuePlaybackWhenLocked: Bool = true, respectSilentMode: Bool = true, selectedVoiceIdentifier: String? = nil,
        systemPrompt: String = "", maxMessageSizeKB: Int = 200, serverURL: String = "", serverPort: String = "",
        resourceStorageLocation: String = "~/Downloads", lastUsedDirectory: String? = nil, recentDirectories: [String] = [],
        commandMRU: [String: Date] = [:], unknown: JSONObject = [:], schemaVersion: Int = DocumentVersion.current
    ) {
        self.queueEnabled = queueEnabled; self.priorityQueueEnabled = priorityQueueEnabled
        self.defaultProvider = defaultProvider; self.recentSessionsLimit = recentSessionsLimit
        self.notifyOnResponse = notifyOnResponse; self.voiceOutputMuted = voiceOutputMuted
        self.continuePlaybackWhenLocked = continuePlaybackWhenLocked; self.respectSilentMode = respectSilentMode
        self.selectedVoiceIdentifier = selectedVoiceIdentifier; self.systemPrompt = systemPrompt
        self.maxMessageSizeKB = maxMessageSizeKB; self.serverURL = serverURL; self.serverPort = serverPort
        self.resourceStorageLocation = resourceStorageLocation; self.lastUsedDirectory = lastUsedDirectory
        self.recentDirectories = recentDirectories; self.commandMRU = commandMRU
        self.unknown = unknown; self.schemaVersion = schemaVersion
    }

    /// What holds when the file is absent.
    public static let defaults = SettingsV4()

    /// The keys v4 adds, in the order of spec §11.
    public static let addedKeys = [
        "default_provider", "recent_sessions_limit", "notify_on_response", "voice_output_muted",
        "continue_playback_when_locked", "respect_silent_mode", "selected_voice_identifier", "system_prompt",
        "max_message_size_kb", "server_url", "server_port", "resource_storage_location", "last_used_directory",
        "recent_directories", "command_mru",
    ]

    /// The keys v4 adds, with their defaults.
    static let defaultAddedKeys: [(key: String, value: JSONValue)] = {
        guard case .object(let members) = SettingsV4(schemaVersion: SettingsV4.version).json else { preconditionFailure("SettingsV4: json is an object") }
        return addedKeys.map { ($0, members[$0]!) }
    }()

    package init(json: JSONValue, acceptingNewerVersions: Bool = false) throws(SchemaError) {
        var r = try ObjectReader(json, path: "")
        let version = try DocumentVersion.read(&r, supported: 1...DocumentVersion.newest, acceptingNewer: acceptingNewerVersions, kind: "settings")
        self.init(schemaVersion: version)
        queueEnabled = try r.bool("queue_enabled", default: false)
        priorityQueueEnabled = try r.bool("priority_queue_enabled", default: false)
        if version >= Self.version {
            for key in Self.addedKeys {
                if let value = r.take(key) { try setPreference(key, value) }
            }
        }
        unknown = r.unknownKeys()
    }

    public init(bytes: [UInt8], acceptingNewerVersions: Bool = false) throws(SchemaError) {
        try self.init(json: try DocumentVersion.parse(bytes), acceptingNewerVersions: acceptingNewerVersions)
    }

    /// Sets the preference of `key` (one of ``addedKeys``) from its JSON value.
    /// - Throws: `.wrongType` or `.invalidValue` naming the key when the value is not of its type.
    package mutating func setPreference(_ key: String, _ value: JSONValue) throws(SchemaError) {
        var r = try ObjectReader(.object([key: value]), path: "")
        switch key {
        case "default_provider": defaultProvider = try r.string(key)
        case "recent_sessions_limit": recentSessionsLimit = Int(try r.int(key, in: Int64(Int32.min)...Int64(Int32.max)))
        case "notify_on_response": notifyOnResponse = try r.bool(key, default: notifyOnResponse)
        case "voice_output_muted": voiceOutputMuted = try r.bool(key, default: voiceOutputMuted)
        case "continue_playback_when_locked": continuePlaybackWhenLocked = try r.bool(key, default: continuePlaybackWhenLocked)
        case "respect_silent_mode": respectSilentMode = try r.bool(key, default: respectSilentMode)
        case "selected_voice_identifier": selectedVoiceIdentifier = try r.optionalString(key)
        case "system_prompt": systemPrompt = try r.string(key)
        case "max_message_size_kb": maxMessageSizeKB = Int(try r.int(key, in: Int64(Int32.min)...Int64(Int32.max)))
        case "server_url": serverURL = try r.string(key)
        case "server_port": serverPort = try r.string(key)
        case "resource_storage_location": resourceStorageLocation = try r.string(key)
        case "last_used_directory": lastUsedDirectory = try r.optionalString(key)
        case "recent_directories":
            var directories: [String] = []
            for (index, item) in (try r.array(key) ?? []).enumerated() {
                guard case .string(let directory) = item else { throw r.wrongType("\(key)[\(index)]", "a string", item) }
                directories.append(directory)
            }
            recentDirectories = directories
        case "command_mru":
            guard case .object(let members) = value else { throw r.wrongType(key, "an object of dates", value) }
            var mru: [String: Date] = [:]
            for (command, used) in members {
                var one = try ObjectReader(.object([command: used]), path: key)
                mru[command] = try one.date(command)
            }
            commandMRU = mru
        default: preconditionFailure("SettingsV4: '\(key)' is not a preference key")
        }
    }

    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("schema_version", schemaVersion)
        w.set("queue_enabled", queueEnabled)
        w.set("priority_queue_enabled", priorityQueueEnabled)
        guard schemaVersion >= Self.version else { return w.value }
        w.set("default_provider", defaultProvider)
        w.set("recent_sessions_limit", recentSessionsLimit)
        w.set("notify_on_response", notifyOnResponse)
        w.set("voice_output_muted", voiceOutputMuted)
        w.set("continue_playback_when_locked", continuePlaybackWhenLocked)
        w.set("respect_silent_mode", respectSilentMode)
        w.set("selected_voice_identifier", selectedVoiceIdentifier)
        w.set("system_prompt", systemPrompt)
        w.set("max_message_size_kb", maxMessageSizeKB)
        w.set("server_url", serverURL)
        w.set("server_port", serverPort)
        w.set("resource_storage_location", resourceStorageLocation)
        w.set("last_used_directory", lastUsedDirectory)
        w.set("recent_directories", JSONValue.array(recentDirectories.map { .string($0) }))
        w.set("command_mru", JSONValue.object(commandMRU.mapValues { .string(RFC3339.format($0)) }))
        return w.value
    }

    public var encoded: [UInt8] { JSONWriter.document(json) }
}
