/// v1 → v2 (spec §6): the provider session, containment of messages; the queue moves into
/// `queue.json` (built by `QueueResolution`, which every step of the chain applies).
extension MigrationStep {
    public static let v1ToV2 = MigrationStep(
        from: 1, to: 2, kind: .rollbackSafe,
        summary: "adds provider_session_id and provider, writes queue.json (§6)",
        addedWorkStreamKeys: ["provider_session_id", "provider"], addedMessageKeys: [],
        normalisations: ["message_session_id_fixed", "queue_position_renumbered", "queue_position_cleared", "mirror_key", "queue_entry_dropped"]
    ) { (document, _) throws(SchemaError) in
        guard case .v1(let v1) = document else { return (document, []) }
        let (session, changes) = try WorkStreamMigration.migrate(v1)
        return (.v2(session), changes)
    }
}
