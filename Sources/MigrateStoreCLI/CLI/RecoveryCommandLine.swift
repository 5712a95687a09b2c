import JSONStore

extension StoreError.Operation {
    /// This tool's command for the operation a library error's way out names, every word
    /// shell-quoted: `migrate-store migrate '/data/my store'`. `BACKUP` stands for a backup the
    /// user picks.
    var commandLine: String {
        switch self {
        case .validate(let store):
            ToolInfo.command(words: ["validate"] + (store.map { [$0] } ?? []))
        case .migrate(let store, let version, let allowBreaking):
            ToolInfo.command(
                words: ["migrate"] + (version.map { ["--to", String($0)] } ?? [])
                    + (allowBreaking ? ["--allow-breaking"] : []) + (store.map { [$0] } ?? []))
        case .rollback(let store, let backup):
            ToolInfo.command(words: ["rollback", store, "--from-backup", backup ?? "BACKUP"])
        case .restore(let backup, let store):
            ToolInfo.command(words: ["restore", backup ?? "BACKUP", store, "--force"])
        case .verifyBackup(let backup):
            ToolInfo.command(words: ["verify-backup", backup])
        }
    }
}

extension StoreError {
    /// The message as this tool prints it: a way out that is an operation as its command line.
    var printedMessage: String { messageText(commandLine: \.commandLine) }

    /// `description` as this tool prints it (see `printedMessage`).
    var printedDescription: String { descriptionText(commandLine: \.commandLine) }
}

extension StoreProblem {
    /// The fix as this tool prints it: an operation as its command line.
    var printedFix: String { recovery.text(commandLine: \.commandLine) }

    /// `line` as this tool prints it (see `printedFix`).
    var printedLine: String { lineText(commandLine: \.commandLine) }
}

extension StoreError.Text {
    /// The text as this tool prints it: a way out that is an operation as its command line.
    var printed: String { text(commandLine: \.commandLine) }
}
