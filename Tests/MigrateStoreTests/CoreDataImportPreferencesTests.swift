import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// The app's preferences in the import (spec §11, §13): every preference into `settings.json`,
/// the drafts into the customisations, every other key listed by name, and every value of the
/// wrong type reported by key with the app's default kept.
@Suite(.enabled(if: SkippedTests.check(CoreDataFixture.sqliteAvailable, "MigrateStoreTests CoreDataImportPreferencesTests", CoreDataFixture.sqliteMissing)))
struct CoreDataImportPreferencesTests {
    typealias S = AppStoreSample

    /// `CommandSorter`'s `commandMRU`: `JSONEncoder`'s data of seconds since 1970 by command id.
    static let mru = Data(#"{"build":1763625900,"git.status":1763629500.25}"#.utf8)

    /// Every preference of spec §11 with a value other than its default, drafts, the backfill
    /// flag, and keys that are not the app's (one of the app's own, and the system's).
    nonisolated(unsafe) static let everyKey: [String: Any] = [
        "queueEnabled": true, "priorityQueueEnabled": true, "defaultProvider": "copilot", "recentSessionsLimit": 10,
        "notifyOnResponse": false, "voiceOutputMuted": true, "continuePlaybackWhenLocked": false, "respectSilentMode": false,
        "selectedVoiceIdentifier": "com.apple.voice.compact.en-US.Samantha", "systemPrompt": "Answer briefly.",
        "maxMessageSizeKB": 150, "serverURL": "192.168.1.20", "serverPort": "8080", "resourceStorageLocation": "~/Documents",
        "lastUsedDirectory": "/Users/maya/code", "recentDirectories": ["/Users/maya/code", "/tmp"], "commandMRU": mru,
        "sessionDrafts": [
            S.a.uuidString.lowercased(): "Also rename the helpers", S.b.uuidString.lowercased(): "Check the iPad layout",
            S.nowhere.uuidString.lowercased(): "A draft of a deleted work stream", S.walOnly.uuidString.lowercased(): "",
            S.a.uuidString: "the upper-case twin", "not-an-id": "lost?",
        ],
        "VoiceCode.v6ToV7BackfillComplete": true, "hasSeenOnboarding": true, "AppleLanguages": ["en-GB"],
        "NSInterfaceStyle": "macintosh",
    ]

    static let everyKeySettings = """
        {
          "command_mru": {
            "build": "2025-11-20T08:05:00.000Z",
            "git.status": "2025-11-20T09:05:00.250Z"
          },
          "continue_playback_when_locked": false,
          "default_provider": "copilot",
          "last_used_directory": "/Users/maya/code",
          "max_message_size_kb": 150,
          "notify_on_response": false,
          "priority_queue_enabled": true,
          "queue_enabled": true,
          "recent_directories": [
            "/Users/maya/code",
            "/tmp"
          ],
          "recent_sessions_limit": 10,
          "resource_storage_location": "~/Documents",
          "respect_silent_mode": false,
          "schema_version": 4,
          "selected_voice_identifier": "com.apple.voice.compact.en-US.Samantha",
          "server_port": "8080",
          "server_url": "192.168.1.20",
          "system_prompt": "Answer briefly.",
          "voice_output_muted": true
        }

        """

    static func writePlist(_ values: [String: Any], to path: String) throws {
        try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0).write(to: URL(fileURLWithPath: path))
    }

    private func importing(_ values: [String: Any], _ scratch: TemporaryDirectory) throws -> CoreDataImportReport {
        let source = try S.write(version: 7, in: scratch.path)
        try Self.writePlist(values, to: scratch("prefs.plist"))
        return try CoreDataImport.run(source: source, into: scratch("store"), preferences: scratch("prefs.plist"), tool: "tests", version: "1")
    }

    /// Milliseconds since 1970: what the store writes of a date.
    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    private func ms(_ date: Date) -> Int64 { Self.ms(date) }

    private func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func everyPreferenceArrivesInSettingsExactly() throws {
        let scratch = TemporaryDirectory()
        let report = try importing(Self.everyKey, scratch)
        #expect(try text(scratch("store/settings.json")) == Self.everyKeySettings)
        #expect(
            report.preferenceKeysCarried == [
                "commandMRU", "continuePlaybackWhenLocked", "defaultProvider", "lastUsedDirectory", "maxMessageSizeKB",
                "notifyOnResponse", "priorityQueueEnabled", "queueEnabled", "recentDirectories", "recentSessionsLimit",
                "resourceStorageLocation", "respectSilentMode", "selectedVoiceIdentifier", "serverPort", "serverURL",
                "sessionDrafts", "systemPrompt", "voiceOutputMuted",
            ])
        #expect(report.preferenceKeysNotCarried == ["AppleLanguages", "NSInterfaceStyle", "hasSeenOnboarding"])
        #expect(!report.backfillApplied)
    }

    @Test func draftsGoToTheirCustomisationsAndCreateTheMissingOnes() throws {
        let scratch = TemporaryDirectory()
        let report = try importing(Self.everyKey, scratch)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let at = formatter.string(from: report.importedAt)
        // A draft of a work stream without a customisation creates one, created at the import's time.
        #expect(
            try text(scratch("store/user-sessions/\(S.b.lowercased).json")) == """
                {
                  "created_at": "\(at)",
                  "custom_name": null,
                  "draft": "Check the iPad layout",
                  "id": "\(S.b.lowercased)",
                  "is_user_deleted": false,
                  "schema_version": 4
                }

                """)
        // So does one of a work stream that exists nowhere (the app keeps drafts of deleted ones).
        let nowhere = try Customisation(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: scratch("store/user-sessions/\(S.nowhere.lowercased).json")))))
        #expect(nowhere.draft == "A draft of a deleted work stream" && ms(nowhere.createdAt) == ms(report.importedAt) && nowhere.customName == nil)
        let store = try Store.open(at: scratch("store"), options: .init(readOnly: true))
        // An existing customisation keeps its values and gains the draft (the lower-case key's).
        let a = try #require(try store.customisation(S.a))
        #expect(a.draft == "Also rename the helpers" && a.customName == "Ana's work 🚀")
        #expect(try store.customisation(S.missing)?.draft == nil)
        // An empty draft is no draft: no customisation is created for it.
        #expect(try store.customisation(S.walOnly) == nil)
        #expect(report.drafts == 3 && report.customisationsForDrafts == 2 && report.customisations == 5)
        #expect(
            report.preferenceFindings.map(\.description) == [
                "'sessionDrafts': the draft of 'not-an-id' (5 characters): 'not-an-id' is not a work stream's id (a UUID); left out",
                "'sessionDrafts': the draft of '\(S.a.uuidString)' is a second one for work stream \(S.a.lowercased); the lower-case key's is kept, this one left out",
            ])
        #expect(report.preferenceFindings.map(\.kind) == [.notAWorkStreamID, .duplicateID])
    }

    @Test func wrongTypesAreReportedByKeyAndKeepTheAppsDefault() throws {
        let scratch = TemporaryDirectory()
        let report = try importing(
            [
                "queueEnabled": "yes", "recentSessionsLimit": 3.7, "maxMessageSizeKB": 1e12, "serverPort": 8080, "notifyOnResponse": 0,
                "recentDirectories": ["/a", 3], "commandMRU": ["build": 5.0], "sessionDrafts": "text", "selectedVoiceIdentifier": Data([1, 2]),
                "VoiceCode.v6ToV7BackfillComplete": "yes",
            ], scratch)
        #expect(
            report.preferenceFindings.map { "\($0.kind.rawValue) \($0)" } == [
                "wrong_type 'VoiceCode.v6ToV7BackfillComplete': is the text 'yes', not a boolean; taken as not done, as the app reads it",
                "wrong_type 'commandMRU': is a dictionary of 1 key, not the JSON of seconds since 1970 by command id that the app writes; the default, empty, is kept, as the app reads it",
                "out_of_range 'maxMessageSizeKB': is 1000000000000, outside -2147483648…2147483647; taken as 2147483647",
                "wrong_type 'notifyOnResponse': is the integer 0, not a boolean; taken as false, as the app reads it",
                "wrong_type 'queueEnabled': is the text 'yes', not a boolean; the default, false, is kept, as the app reads it",
                "wrong_type 'recentDirectories': is a list of 2 values, not a list of text; the default, empty, is kept, as the app reads it",
                "wrong_type 'recentSessionsLimit': is the number 3.7, not an integer; the default, 5, is kept, as the app reads it",
                "wrong_type 'selectedVoiceIdentifier': is data of 2 bytes, not text; taken as none (null), as the app reads it",
                "wrong_type 'serverPort': is the integer 8080, not text; taken as '8080', as the app reads it",
                "wrong_type 'sessionDrafts': is the text 'text', not a dictionary of drafts by work-stream id; no draft is taken",
            ])
        #expect(report.preferenceKeysCarried == ["maxMessageSizeKB", "notifyOnResponse", "serverPort"])
        #expect(report.preferenceKeysNotCarried.isEmpty && report.drafts == 0 && report.backfillApplied)
        let expected = Settings(
            notifyOnResponse: false, maxMessageSizeKB: Int(Int32.max), serverPort: "8080", schemaVersion: CoreDataImport.schemaVersion)
        #expect(report.settings == expected)
        #expect(try text(scratch("store/settings.json")) == String(decoding: expected.encoded, as: UTF8.self))
    }

    /// What the import used to do with a switch of the wrong type: refuse the whole import.
    @Test func aWrongTypedSwitchNoLongerStopsTheImport() throws {
        let scratch = TemporaryDirectory()
        let report = try importing(["priorityQueueEnabled": ["yes"]], scratch)
        #expect(report.preferenceFindings.map(\.key) == ["priorityQueueEnabled"] && !report.settings.priorityQueueEnabled)
    }

    @Test func theMappingIsPureAndReadsSwiftValuesAsThePlistsOnes() {
        let fromSwift = AppPreferences(values: Self.everyKey.mapValues { PreferenceValue($0) })
        #expect(fromSwift.settings.recentSessionsLimit == 10 && fromSwift.settings.queueEnabled && fromSwift.backfillComplete == true)
        #expect(fromSwift.findings.count == 2 && fromSwift.drafts.count == 3)
    }
}
