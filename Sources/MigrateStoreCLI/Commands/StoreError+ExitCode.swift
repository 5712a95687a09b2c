import JSONStore

/// How library errors map to the documented exit codes (see `ExitCode`).
extension StoreError: ExitCodeError {
    /// | code | exit |
    /// |---|---|
    /// | archive rejected (`ArchiveRejection` underlying) | 69 corrupt, 65 incompatible |
    /// | `.locked` | 75 |
    /// | `.alreadyExists` | 73 |
    /// | names, types, documents, versions (`.invalidFileName`, `.notAStore`, …) | 65 |
    /// | everything from the operating system (`.io`, `.noSpace`, `.notFound`, …) | 74 |
    var exitCode: ExitCode {
        if let rejection = underlying as? ArchiveRejection { return ArchiveExit.code(for: rejection.status) }
        switch code {
        case .locked: return .locked
        case .alreadyExists: return .cannotCreate
        case .notAStore, .corruptDocument, .invalidDocument, .unsupportedVersion, .invalidFileName,
             .symlinkRefused, .notARegularFile, .conflict, .fileTooLarge: return .dataError
        default: return .ioError
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
