import JSONStore

/// A library error as the CLI reports it: the message, and the exit status its code stands for.
///
/// Kept as a wrapper (instead of making `StoreError` conform to ``ExitCodeError``) so that the
/// mapping of these commands is in one place and cannot collide with another command's.
struct StoreFailure: ExitCodeError {
    let error: StoreError

    /// The one mapping of `StoreError` codes to exit statuses (`StoreError+ExitCode.swift`).
    var exitCode: ExitCode { error.exitCode }

    var message: String { error.message }
}

/// The exit statuses for a verdict on a backup or an export (documented in `verify-backup`'s
/// help and in the README):
///
/// | status | exit | meaning |
/// |---|---|---|
/// | ok | 0 | complete and intact |
/// | corrupt | 69 | verification found a difference: missing, extra, changed, truncated, hostile or unreadable entries |
/// | incompatible | 65 | this tool can't read it: newer backup format or store schema; use a newer tool |
///
/// 69 is `EX_UNAVAILABLE`, the tool's "verification failed"; 65 is `EX_DATAERR`, its "data is
/// incompatible with this tool version".
enum ArchiveExit {
    static func code(for status: BackupVerificationReport.Status) -> ExitCode {
        switch status {
        case .ok: .success
        case .corrupt: .verificationFailed
        case .incompatible: .dataError
        }
    }
}

/// Runs a library call and turns its `StoreError` into a ``StoreFailure``.
func reportingStoreErrors<R>(_ body: () throws(StoreError) -> R) throws(StoreFailure) -> R {
    do {
        return try body()
    } catch {
        throw StoreFailure(error: error)
    }
}

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
