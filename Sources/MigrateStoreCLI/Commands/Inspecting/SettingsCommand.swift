import Foundation
import JSONStore
import Schema
import StoreJSON

/// `migrate-store settings <store>`: the user's settings (`settings.json`, spec §3, §11), every
/// key with its value, and where the value comes from.
struct SettingsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "settings", group: .inspecting,
        abstract: "Print the app's settings that the store keeps.",
        discussion: """
            Prints every key of settings.json with its value: the two queue switches and, from \
            schema version 4 on, the app's preferences (server, voice, system prompt, recent \
            directories, recently used commands). A key the file lacks is shown with the value \
            a reader takes for it, marked as the default. Keys this tool does not know are listed \
            as they are.
            """,
        arguments: [.store])

    let storePath: String

    init(_ arguments: ParsedArguments) { storePath = arguments.value(.store) }

    func run(_ out: Output) throws -> ExitCode {
        let inspected = try InspectedStore(path: storePath)
        let view = try SettingsView(inspected)
        for line in view.lines { out.print(line) }
        out.emitJSON(view.json)
        return .success
    }
}

/// What `settings` shows.
struct SettingsView {
    let storePath: String
    /// The settings as a reader of this version takes them (the defaults for what the file lacks).
    let settings: Settings
    /// True when the store has a `settings.json`.
    let fileExists: Bool
    /// The keys of this version the file holds (empty without a file).
    let keysInFile: Set<String>

    init(_ inspected: InspectedStore) throws {
        storePath = inspected.path
        let read = try inspected.call { () throws(StoreError) in try inspected.store.settingsFile() }
        fileExists = read != nil
        settings = read?.document ?? .defaults
        // The keys the file itself holds. Below v4 the preferences are not keys of the file's
        // version: a reader takes the defaults.
        let known = ["queue_enabled", "priority_queue_enabled"] + (settings.schemaVersion >= SettingsV4.version ? SettingsV4.addedKeys : [])
        keysInFile = Set(known.filter { read?.keys.contains($0) == true })
    }

    /// Every key this tool knows, in byte order, with its value.
    var values: [(key: String, value: JSONValue)] {
        var current = settings
        current.schemaVersion = max(current.schemaVersion, SettingsV4.version)
        let object = Self.object(current)
        return (["queue_enabled", "priority_queue_enabled"] + SettingsV4.addedKeys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { ($0, object[$0]!) }
    }

    static func object(_ settings: Settings) -> JSONObject {
        guard case .object(let members) = settings.json else { return [:] }
        return members
    }

    var lines: [String] {
        var lines: [String] = []
        if fileExists {
            lines.append("Settings of '\(storePath)' (\(StoreLayout.settings), schema_version \(settings.schemaVersion))")
        } else {
            lines.append("Settings of '\(storePath)': there is no \(StoreLayout.settings); every value is the default")
        }
        var table = TextTable(["KEY", "VALUE", ""])
        for (key, value) in values {
            table.append([key, CompactJSON.render(value), fileExists && !keysInFile.contains(key) ? "(default)" : ""])
        }
        lines += table.render(indent: "  ")
        if fileExists && settings.schemaVersion < SettingsV4.version {
            lines.append(
                "The app's preferences (schema version \(SettingsV4.version)) are not in this schema version \(settings.schemaVersion) file: 'migrate' adds them with these defaults, or keeps a value an app already left there."
            )
        }
        if !settings.unknown.isEmpty {
            lines += ["", "Keys this tool does not know (kept as they are)"]
            var unknown = TextTable(["KEY", "VALUE"])
            for key in settings.unknown.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                unknown.append([key, CompactJSON.render(settings.unknown[key]!)])
            }
            lines += unknown.render(indent: "  ")
        }
        return lines
    }

    var json: [String: JSONOutputValue] {
        [
            "store": .string(storePath),
            "file": fileExists ? .string(StoreLayout.settings) : .null,
            "schema_version": fileExists ? .int(settings.schemaVersion) : .null,
            "settings": .document(.object(Dictionary(uniqueKeysWithValues: values.map { ($0.key, $0.value) }))),
            "defaults": .array(values.map(\.key).filter { !keysInFile.contains($0) }.map(JSONOutputValue.string)),
            "unknown": .document(.object(settings.unknown)),
        ]
    }
}
