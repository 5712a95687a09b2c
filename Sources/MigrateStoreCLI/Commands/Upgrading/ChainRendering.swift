import JSONStore

/// The version chain (spec §9) as `plan`, `migrate` and `status` show it.
enum ChainRendering {
    /// "1 → 2 (rollback-safe): adds provider_session_id and provider, writes queue.json (§6)", one per step.
    static func stepLines(_ steps: [MigrationStep]) -> [String] {
        steps.map { "step \($0.from) → \($0.to) (\($0.kind.rawValue)): \($0.summary)" }
    }

    /// "versions 1 to 3" (the readers the reader rule admits at `version`, spec §4).
    static func readers(at version: Int) -> String {
        let readers = MigrationChain.readers(at: version)
        return readers.count == 1 ? "version \(readers.lowerBound) only" : "versions \(readers.lowerBound) to \(readers.upperBound)"
    }

    static func stepsJSON(_ steps: [MigrationStep]) -> JSONOutputValue {
        .array(
            steps.map { step in
                .object([
                    "from": .int(step.from), "to": .int(step.to), "kind": .string(step.kind.rawValue),
                    "summary": .string(step.summary),
                    "readers_after": .array(MigrationChain.readers(at: step.to).map { .int($0) }),
                ])
            })
    }
}
