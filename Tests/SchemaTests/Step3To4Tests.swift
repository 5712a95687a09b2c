import Foundation
import TestSupport
import Testing

@testable import Schema
@testable import StoreJSON

/// The v3 → v4 step (spec §11): `draft` on each customisation, the app's preferences in
/// `settings.json`, `schema_version` 4 on every document; absent keys get their defaults,
/// present values of the right type are kept, a wrongly typed one is reported and replaced.
@Suite struct Step3To4Tests {
    static let id = UUID(uuidString: "555a622d-4eba-4eda-8989-fc9e679fc303")!
    static let created = Date(timeIntervalSince1970: 1_762_270_212.48)

    static func customisation(_ extra: JSONObject = [:], version: Int = 3) -> CustomisationV4 {
        CustomisationV4(id: id, createdAt: created, customName: "Network", unknown: extra, schemaVersion: version)
    }

    @Test func anAbsentDraftGetsNullAndIsReportedAsAdded() throws {
        let (migrated, changes) = try MigrationChain.migrateCustomisation(Self.customisation(), to: 4)
        #expect(migrated.schemaVersion == 4 && migrated.draft == nil && migrated.unknown.isEmpty)
        #expect(changes == [.schemaVersion(from: 3, to: 4), .addedKey("draft", value: "null")])
        #expect(
            String(decoding: migrated.encoded, as: UTF8.self) == """
                {
                  "created_at": "2025-11-04T15:30:12.480Z",
                  "custom_name": "Network",
                  "draft": null,
                  "id": "555a622d-4eba-4eda-8989-fc9e679fc303",
                  "is_user_deleted": false,
                  "schema_version": 4
                }

                """)
    }

    @Test func aDraftAnOlderWriterKeptIsKept() throws {
        let (migrated, changes) = try MigrationChain.migrateCustomisation(Self.customisation(["draft": .string("half a sentence")]), to: 4)
        #expect(migrated.draft == "half a sentence" && migrated.unknown.isEmpty)
        #expect(changes == [.schemaVersion(from: 3, to: 4)])
    }

    @Test func aWronglyTypedDraftIsReportedAndReplacedByNull() throws {
        let (migrated, changes) = try MigrationChain.migrateCustomisation(Self.customisation(["draft": .number(JSONNumber(42))]), to: 4)
        #expect(migrated.draft == nil && migrated.unknown.isEmpty)
        #expect(changes == [.schemaVersion(from: 3, to: 4), .wrongTypeReplaced("draft", found: "42", expected: "a string", value: "null")])
        #expect(changes[1].isNormalisation && changes[1].code == "wrong_type_replaced")
        #expect(
            changes[1].description == "draft = 42 is not a string, the type the new version gives the key → 'null' (the default)")
    }

    @Test func theStepIsIdempotent() throws {
        let (once, _) = try MigrationChain.migrateCustomisation(Self.customisation(["draft": .string("x")]), to: 4)
        let (twice, changes) = try MigrationChain.migrateCustomisation(once, to: 4)
        #expect(twice == once && changes.isEmpty)
        let (settings, _) = try MigrationChain.migrateSettings(SettingsV4(queueEnabled: true, schemaVersion: 3), to: 4)
        let (again, more) = try MigrationChain.migrateSettings(settings, to: 4)
        #expect(again == settings && more.isEmpty)
    }

    @Test func aV1CustomisationGoesThroughEveryStepWithOneVersionChange() throws {
        let (migrated, changes) = try MigrationChain.migrateCustomisation(Self.customisation(version: 1), to: 4)
        #expect(migrated.schemaVersion == 4 && changes == [.schemaVersion(from: 1, to: 4), .addedKey("draft", value: "null")])
        let (atThree, toThree) = try MigrationChain.migrateCustomisation(Self.customisation(version: 1), to: 3)
        #expect(atThree.schemaVersion == 3 && toThree == [.schemaVersion(from: 1, to: 3)], "v2 and v3 add no customisation key")
        #expect(!String(decoding: atThree.encoded, as: UTF8.self).contains("draft"), "a v3 document is written without the v4 key")
    }

    @Test func everyAbsentPreferenceGetsTheAppsDefaultAndPresentOnesAreKeptOrReplaced() throws {
        let v3 = SettingsV4(
            queueEnabled: true,
            unknown: [
                "server_url": .string("10.0.0.1"), "recent_sessions_limit": .string("many"),
                "command_mru": .object(["git.status": .string("2025-11-20T09:05:00.000Z")]), "tts_speed": .number(JSONNumber(1.5)),
            ], schemaVersion: 3)
        let (migrated, changes) = try MigrationChain.migrateSettings(v3, to: 4)
        #expect(migrated.schemaVersion == 4 && migrated.queueEnabled)
        #expect(migrated.serverURL == "10.0.0.1", "a value of the right type is kept")
        #expect(migrated.recentSessionsLimit == 5, "a wrongly typed one gets the default")
        #expect(migrated.commandMRU == ["git.status": Date(timeIntervalSince1970: 1_763_629_500)])
        #expect(migrated.unknown == ["tts_speed": .number(JSONNumber(1.5))], "a key v4 does not know stays unknown")
        #expect(changes.first == .schemaVersion(from: 3, to: 4))
        #expect(changes.contains(.wrongTypeReplaced("recent_sessions_limit", found: "'many'", expected: "an integer", value: "5")))
        let added = changes.compactMap { change -> String? in if case .addedKey(let key, _) = change { key } else { nil } }
        #expect(added == SettingsV4.addedKeys.filter { !["server_url", "recent_sessions_limit", "command_mru"].contains($0) })
        #expect(changes.contains(.addedKey("default_provider", value: "claude")) && changes.contains(.addedKey("recent_directories", value: "[]")))
        #expect(migrated == SettingsV4(queueEnabled: true, serverURL: "10.0.0.1", commandMRU: migrated.commandMRU, unknown: migrated.unknown, schemaVersion: 4))
    }

    /// The app's defaults (`AppSettings`, `VoiceOutputManager`), as §11 lists them.
    @Test func theDefaultsAreTheApps() throws {
        guard case .object(let object) = SettingsV4(schemaVersion: 4).json else { Issue.record("not an object"); return }
        #expect(
            object == [
                "schema_version": .number(JSONNumber(4)), "queue_enabled": .bool(false), "priority_queue_enabled": .bool(false),
                "default_provider": .string("claude"), "recent_sessions_limit": .number(JSONNumber(5)),
                "notify_on_response": .bool(true), "voice_output_muted": .bool(false), "continue_playback_when_locked": .bool(true),
                "respect_silent_mode": .bool(true), "selected_voice_identifier": .null, "system_prompt": .string(""),
                "max_message_size_kb": .number(JSONNumber(200)), "server_url": .string(""), "server_port": .string(""),
                "resource_storage_location": .string("~/Downloads"), "last_used_directory": .null, "recent_directories": .array([]),
                "command_mru": .object([:]),
            ])
    }

    /// A v4 reader is strict about its own keys; below v4 they are unknown keys, kept as they are.
    @Test func aV4DocumentWithAWronglyTypedKeyIsRefusedAndAV3OneKeepsIt() throws {
        let bad = Fixtures.bytes(
            #"{"schema_version": 4, "id": "555a622d-4eba-4eda-8989-fc9e679fc303", "created_at": "2025-11-04T15:30:12.480Z", "draft": 7}"#)
        let error = Fixtures.error { () throws(SchemaError) in _ = try CustomisationV4(bytes: bad) }
        #expect(error?.code == .wrongType && error?.keyPath == "draft")
        let older = Fixtures.bytes(
            #"{"schema_version": 3, "id": "555a622d-4eba-4eda-8989-fc9e679fc303", "created_at": "2025-11-04T15:30:12.480Z", "draft": 7}"#)
        let kept = try CustomisationV4(bytes: older)
        #expect(kept.draft == nil && kept.unknown == ["draft": .number(JSONNumber(7))])
        #expect(try CustomisationV4(bytes: kept.encoded) == kept, "written back as it was")
    }

    /// §9 check (c) for the small documents: an older reader's write keeps the v4 keys; a writer
    /// that drops unknown keys is caught.
    @Test func olderReadersKeepTheV4KeysOfSmallDocumentsAndADroppingWriterIsCaught() throws {
        let (customisation, _) = try MigrationChain.migrateCustomisation(Self.customisation(["draft": .string("x")]), to: 4)
        for reader in 1...3 {
            #expect(
                RollbackCheck.checkSmallDocument(
                    bytes: customisation.encoded, file: "user-sessions/x.json", kind: .customisation, original: Self.customisation(version: 1).encoded,
                    reader: reader, storeVersion: 4
                ).isEmpty)
        }
        let (settings, _) = try MigrationChain.migrateSettings(SettingsV4(schemaVersion: 2), to: 4)
        #expect(
            RollbackCheck.checkSmallDocument(bytes: settings.encoded, file: "settings.json", kind: .settings, original: nil, reader: 2, storeVersion: 4)
                .isEmpty)
        // The v4 keys missing: what a v3 writer that drops unknown keys would leave.
        var dropped = SettingsV1(queueEnabled: false, schemaVersion: 4)
        dropped.unknown = [:]
        let failures = RollbackCheck.checkSmallDocument(
            bytes: dropped.encoded, file: "settings.json", kind: .settings, original: nil, reader: 3, storeVersion: 4)
        #expect(failures.map(\.check) == Array(repeating: .valuesPreserved, count: SettingsV4.addedKeys.count))
        #expect(failures.first?.reason == "the v3 view lacks 'default_provider'")
    }
}
