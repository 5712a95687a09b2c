import JSONStore

/// How library errors map to the documented exit codes (see `ExitCode`).
///
/// A path on the command line that does not exist or is not a store, backup or export never
/// gets here: `PathArgument` refuses it first with 64 (see `PathRole` for the rule). What is
/// left is about a path that is there: its content (65), its verification (69), an output that
/// exists (73), the operating system (74) or another process (75).
extension StoreError: ExitCodeError {
    /// | code | exit |
    /// |---|---|
    /// | archive rejected (`ArchiveRejection` underlying) | 69 corrupt, 65 incompatible |
    /// | `.locked`, `.restoreInterrupted` (a restore into the store is unfinished: try again after it) | 75 |
    /// | `.alreadyExists` | 73 |
    /// | names, types, documents, versions (`.invalidFileName`, `.notAStore`, …) | 65 |
    /// | `.invalidArgument` (the tool called the library wrongly: a bug) | 70 |
    /// | everything from the operating system (`.io`, `.noSpace`, `.notFound`, …) | 74 |
    var exitCode: ExitCode {
        if let rejection = underlying as? ArchiveRejection { return ArchiveExit.code(for: rejection.status) }
        switch code {
        case .locked, .restoreInterrupted: return .locked
        case .alreadyExists: return .cannotCreate
        case .invalidArgument: return .internalError
        case .notAStore, .corruptDocument, .invalidDocument, .unsupportedVersion, .invalidFileName,
            .symlinkRefused, .notARegularFile, .conflict, .fileTooLarge:
            return .dataError
        default: return .ioError
        }
    }
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

/// Opening the store named on the command line.
enum StoreArgument {
    static func options(readOnly: Bool) -> Store.Options {
        Store.Options(readOnly: readOnly, tool: ToolInfo.name, version: ToolInfo.version)
    }

    /// Opens `<store>` read-only: no lock file, no temp sweep, nothing written.
    static func openReadOnly(_ path: String) throws(StoreError) -> Store {
        try Store.open(at: path, options: options(readOnly: true))
    }
}
