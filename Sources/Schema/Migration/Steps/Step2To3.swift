import StoreJSON

/// v2 → v3 (spec §10): the sync cursors on each work stream, `seq` and `offset` on each message.
///
/// Absent keys get their defaults; present values are kept (an older writer keeps them as unknown
/// keys). A document an older writer rewrote after the upgrade has untrusted cursors: the five
/// cursor keys go back to their defaults, each reset value reported as `cursor_reset`; messages
/// keep their `seq` and `offset`.
extension MigrationStep {
    public static let v2ToV3 = MigrationStep(
        from: 2, to: 3, kind: .rollbackSafe,
        summary: "adds the sync cursors and each message's seq and offset (§10)",
        addedWorkStreamKeys: SyncCursors.keys, addedMessageKeys: MessageSync.keys,
        normalisations: ["cursor_reset", "mirror_key", "queue_entry_dropped"]
    ) { (document, context) throws(SchemaError) in
        guard case .v2(let v2) = document else { return (document, []) }
        let (session, changes) = try CursorMigration.migrate(v2, context: context)
        return (.v3(session), changes)
    }
}

/// The work-stream transform of v2 → v3.
enum CursorMigration {
    static func migrate(_ v2: WorkStreamV2, context: StepContext) throws(SchemaError) -> (WorkStreamV3, [Change]) {
        var changes: [Change] = [.schemaVersion(from: v2.schemaVersion, to: WorkStreamV3.version)]
        var unknown = v2.unknown
        var found: JSONObject = [:]
        for key in SyncCursors.keys { if let value = unknown.removeValue(forKey: key) { found[key] = value } }
        let cursors: SyncCursors
        if context.writtenByOlderWriter {
            cursors = .defaults
            for (key, value) in zip(SyncCursors.keys, SyncCursors.defaults.values) {
                if let old = found[key], old != value {
                    changes.append(.cursorReset(key, from: old.briefDescription))
                } else if found[key] == nil {
                    changes.append(.addedKey(key, value: value.briefDescription))
                }
            }
        } else {
            var r = try ObjectReader(.object(found), path: "")
            cursors = try SyncCursors(reading: &r)
            for (key, value) in zip(SyncCursors.keys, SyncCursors.defaults.values) where found[key] == nil {
                changes.append(.addedKey(key, value: value.briefDescription))
            }
        }
        var fields = v2.fields
        var added = 0
        let messagesPath = "messages"
        for i in fields.messages.indices {
            // The common case, a message no newer writer saw: no unknown keys to look through.
            if fields.messages[i].unknown.isEmpty {
                fields.messages[i].sync = .unknown
                added += 1
                continue
            }
            var message = fields.messages[i]
            let seq = message.unknown.removeValue(forKey: "seq"), offset = message.unknown.removeValue(forKey: "offset")
            if seq == nil || offset == nil { added += 1 }
            var r = try ObjectReader(
                .object(["seq": seq ?? .number(JSONNumber(0)), "offset": offset ?? .number(JSONNumber(0))]),
                path: messagesPath, index: i)
            message.sync = MessageSync(seq: try r.int("seq", in: 0...Int64.max), offset: try r.int("offset", in: 0...Int64.max))
            fields.messages[i] = message
        }
        if added > 0 { changes.append(.messageKeysAdded(messages: added)) }
        return (
            WorkStreamV3(
                fields: fields, providerSessionID: v2.providerSessionID, provider: v2.provider, cursors: cursors,
                unknown: unknown), changes
        )
    }
}
