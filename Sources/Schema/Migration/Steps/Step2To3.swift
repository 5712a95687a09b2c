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
        addedWorkStreamKeys: SyncCursors.keys, addedMessageKeys: MessageV3.addedKeys,
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
        var added = 0
        let messagesPath = "messages"
        var messages: [MessageV3] = []
        messages.reserveCapacity(v2.fields.messages.count)
        for (i, message) in v2.fields.messages.enumerated() {
            // The common case, a message no newer writer saw: no unknown keys to look through.
            if message.unknown.isEmpty {
                messages.append(MessageV3(message, seq: 0, offset: 0, unknown: [:]))
                added += 1
                continue
            }
            var others = message.unknown
            let seq = others.removeValue(forKey: "seq"), offset = others.removeValue(forKey: "offset")
            if seq == nil || offset == nil { added += 1 }
            var r = try ObjectReader(
                .object(["seq": seq ?? .number(JSONNumber(0)), "offset": offset ?? .number(JSONNumber(0))]),
                path: messagesPath, index: i)
            messages.append(
                MessageV3(message, seq: try r.int("seq", in: 0...Int64.max), offset: try r.int("offset", in: 0...Int64.max), unknown: others))
        }
        if added > 0 { changes.append(.messageKeysAdded(messages: added)) }
        return (
            WorkStreamV3(
                fields: WorkStreamFieldsV3(v2.fields.keys, messages: messages), providerSessionID: v2.providerSessionID, provider: v2.provider,
                cursors: cursors,
                unknown: unknown), changes
        )
    }
}

extension MessageV3 {
    /// The v3 message with the keys of `message`, `seq`, `offset`, and `unknown` as its unknown keys.
    init(_ message: MessageV1, seq: Int64, offset: Int64, unknown: JSONObject) {
        self.init(
            id: message.id, sessionID: message.sessionID, role: message.role, text: message.text,
            timestamp: message.timestamp, serverTimestamp: message.serverTimestamp, status: message.status,
            seq: seq, offset: offset, unknown: unknown)
    }
}
