/// The exit statuses of `migrate-store`.
///
/// The values follow BSD `sysexits.h` so that scripts can tell a mistake in the
/// command line from bad data, a failed check, a full disk or a busy store:
///
/// | code | case | meaning |
/// |---|---|---|
/// | 0 | `success` | The command did what was asked. |
/// | 64 | `usage` | The command line is wrong, or a path on it does not exist or is not a store, backup or export (`EX_USAGE`; see ``PathRole``). |
/// | 65 | `dataError` | A document is bad or incompatible with this tool (`EX_DATAERR`). |
/// | 69 | `verificationFailed` | A verification ran and found a difference (`EX_UNAVAILABLE`). |
/// | 70 | `internalError` | A bug in `migrate-store` (`EX_SOFTWARE`). |
/// | 73 | `cannotCreate` | An output file or directory can't be created (`EX_CANTCREAT`). |
/// | 74 | `ioError` | Reading or writing failed (`EX_IOERR`). |
/// | 75 | `locked` | Another process holds the store, or a restore into it has not finished; try again later (`EX_TEMPFAIL`). |
///
/// `migrate-store help exit-codes` prints the same table from ``summary``.
enum ExitCode: Int32, Sendable, CaseIterable {
    case success = 0
    case usage = 64
    case dataError = 65
    case verificationFailed = 69
    case internalError = 70
    case cannotCreate = 73
    case ioError = 74
    case locked = 75

    /// One line for `help exit-codes`.
    var summary: String {
        switch self {
        case .success: "Success: the command did what was asked."
        case .usage: "Usage error: the command line is wrong, or a path on it does not exist or is not a store, backup or export. Nothing was changed."
        case .dataError: "Data error: a document is bad or incompatible with this tool version."
        case .verificationFailed: "Verification failed: a check ran and found a difference."
        case .internalError: "Internal error: a bug in \(ToolInfo.name). Please report it."
        case .cannotCreate: "Can't create an output file or directory."
        case .ioError: "I/O error: reading or writing failed."
        case .locked: "The store is locked by another process, or a restore into it has not finished. Try again when it has finished."
        }
    }
}
