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
