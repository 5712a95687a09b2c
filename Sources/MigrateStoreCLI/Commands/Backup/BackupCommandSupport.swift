import JSONStore

extension Output {
    /// The problems of an archive, one per line, indented: `  'sessions/….json': is 10 bytes but …`.
    func printProblems(_ problems: [ArchiveProblem], limit: Int = 50) {
        for problem in problems.prefix(limit) { streams.standardError("  \(problem)\n") }
        if problems.count > limit { streams.standardError("  ... and \(problems.count - limit) more.\n") }
    }
}

extension ArchiveProblem {
    /// `{"entry": ..., "kind": "corrupt", "message": ...}` for `--json`.
    var json: JSONOutputValue {
        ["entry": .string(entry), "kind": .string(kind == .corrupt ? "corrupt" : "incompatible"), "message": .string(message)]
    }
}

extension BackupVerificationReport.Status {
    /// `"ok"`, `"corrupt"` or `"incompatible"`.
    var name: String {
        switch self {
        case .ok: "ok"
        case .corrupt: "corrupt"
        case .incompatible: "incompatible"
        }
    }
}

/// `1 file`, `14 files`.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}

/// What `restore` and `rollback` say about the backup's store identity (see `RestoreIdentityCheck`).
enum IdentityNote {
    /// `--other-store`, shared by `restore` and `rollback`.
    static let flag = OptionSpec.flag("other-store", help: "Replace the store even though the backup was taken from another store.")

    /// The info line for a check that did not confirm the store, or nil when there is nothing to say.
    static func line(_ check: RestoreIdentityCheck, backup: String, store: String) -> String? {
        switch check {
        case .noStoreAtTarget, .sameStore: return nil
        case .unrecorded:
            return "Note: the backup '\(backup)' was made before backups recorded which store they are of, so it can't be "
                + "checked that it is a backup of '\(store)'."
        case .otherStore(let recorded, let current):
            return "Note: replacing '\(store)' (\(current.map(\.createdAt).map { "created \($0)" } ?? "its store.json does not read")) "
                + "with a backup of another store (created \(recorded.createdAt)), as --other-store asks."
        }
    }

    /// `"same_store"`, `"unrecorded"`, `"other_store"` or `"no_store"` for `--json`.
    static func name(_ check: RestoreIdentityCheck) -> String {
        switch check {
        case .noStoreAtTarget: "no_store"
        case .sameStore: "same_store"
        case .unrecorded: "unrecorded"
        case .otherStore: "other_store"
        }
    }
}
