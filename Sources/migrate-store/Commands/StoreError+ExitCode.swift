import JSONStore

/// How library errors map to the documented exit codes (see `ExitCode`).
extension StoreError: ExitCodeError {
    var exitCode: ExitCode {
        switch code {
        case .locked: .locked
        case .alreadyExists: .cannotCreate
        case .notAStore, .corruptDocument, .invalidDocument, .unsupportedVersion, .invalidFileName,
             .symlinkRefused, .notARegularFile, .conflict, .fileTooLarge: .dataError
        default: .ioError
        }
    }
}

/// Opening the store named on the command line.
enum StoreArgument {
    static let tool = ToolInfo.name

    static func options(readOnly: Bool) -> Store.Options {
        Store.Options(readOnly: readOnly, tool: ToolInfo.name, version: ToolInfo.version)
    }

    /// Opens `<store>` read-only: no lock file, no temp sweep, nothing written.
    static func openReadOnly(_ args: ParsedArguments, _ name: String = "store") throws(StoreError) -> Store {
        try Store.open(at: args.argument(name), options: options(readOnly: true))
    }
}
