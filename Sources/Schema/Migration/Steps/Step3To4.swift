import StoreJSON

/// v3 → v4 (spec §11): the rest of the user's local state. Rollback-safe: it only adds keys.
///
/// - Each customisation gets `draft` (the unsent text of its work stream; null when there is none).
/// - `settings.json` gets the app's preferences, each with the app's own default.
/// - Work streams, `queue.json` and `store.json` change only their `schema_version`.
///
/// Absent keys get their defaults; present values are kept: an older writer keeps a key it does
/// not know, so a v4 key may already be there. One whose value is not of the key's v4 type (left
/// by something else) is reported (`wrong_type_replaced`) and replaced by the default.
extension MigrationStep {
    public static let v3ToV4 = MigrationStep(
        from: 3, to: 4, kind: .rollbackSafe,
        summary: "adds each work stream's draft and the app's preferences to settings.json (§11)",
        addedWorkStreamKeys: [], addedMessageKeys: [], normalisations: ["wrong_type_replaced"],
        addedCustomisationKeys: CustomisationV4.addedKeys,
        customisation: { (object) throws(SchemaError) in
            try LocalStateStep.addingKeys(object, defaults: CustomisationV4.defaultAddedKeys) { (key, value) throws(SchemaError) in
                _ = try CustomisationV4.readDraft(value)
            }
        },
        addedSettingsKeys: SettingsV4.addedKeys,
        settings: { (object) throws(SchemaError) in
            try LocalStateStep.addingKeys(object, defaults: SettingsV4.defaultAddedKeys) { (key, value) throws(SchemaError) in
                var scratch = SettingsV4.defaults
                try scratch.setPreference(key, value)
            }
        }
    ) { (document, _) throws(SchemaError) in
        guard case .v3(var v3) = document else { return (document, []) }
        let changes: [Change] = [.schemaVersion(from: v3.schemaVersion, to: 4)]
        v3.schemaVersion = 4
        return (.v3(v3), changes)
    }
}

/// The small-document transforms of v3 → v4.
enum LocalStateStep {
    /// `object` with each of `defaults`' keys: absent → its default (`added_key`); present and
    /// accepted by `check` → kept; present and refused → the default (`wrong_type_replaced`).
    static func addingKeys(
        _ object: JSONObject, defaults: [(key: String, value: JSONValue)],
        check: (String, JSONValue) throws(SchemaError) -> Void
    ) throws(SchemaError) -> (JSONObject, [Change]) {
        var object = object
        var changes: [Change] = []
        for (key, value) in defaults {
            guard let found = object[key] else {
                object[key] = value
                changes.append(.addedKey(key, value: rendered(value)))
                continue
            }
            do throws(SchemaError) { try check(key, found) } catch {
                object[key] = value
                changes.append(
                    .wrongTypeReplaced(key, found: found.briefDescription, expected: error.expected ?? "of the key's type", value: rendered(value)))
            }
        }
        return (object, changes)
    }

    /// A default as the report shows it: a string without quotes, anything else as JSON.
    static func rendered(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): s
        case .array(let items) where items.isEmpty: "[]"
        case .object(let members) where members.isEmpty: "{}"
        default: value.briefDescription
        }
    }
}
