import JSONStore

/// The tool's name and version, in one place.
///
/// `--version` prints `"\(name) \(version)"`; migration records store `version` as
/// `tool_version`; every usage line and help text starts with `name`.
enum ToolInfo {
    /// The command name users type.
    static let name = "migrate-store"

    /// The tool version (semantic versioning). Bump it with every release.
    static let version = "0.1.0"

    /// What `--version` prints: `migrate-store 0.1.0`.
    static var versionLine: String { "\(name) \(version)" }
}

extension ToolInfo {
    /// The one-line overview of the top-level help.
    static let overview = "Upgrade, inspect, back up and restore a work-stream store."

    /// The paragraph under the overview in the top-level help.
    static let discussion = """
        A store is a directory of JSON documents holding a voice-coding client's work streams, \
        user customisations, settings and (from schema version 2) its queues. 'migrate' takes a \
        verified backup before its first write unless --no-backup is given, and takes a step that \
        older app versions can't read only with --allow-breaking. 'restore' and 'rollback' verify \
        the backup first and keep the store they replace next to it.
        """
}

extension ToolInfo {
    /// A command of this tool to print as a suggestion, every word shell-quoted
    /// (`TextFormat.shellWord`), so that pasting it runs it whatever the path holds:
    /// `ToolInfo.command("migrate", "/tmp/it's")` is `migrate-store migrate '/tmp/it'\''s'`.
    static func command(_ words: String...) -> String {
        command(words: words)
    }

    /// `command(_:)` for words built at run time.
    static func command(words: [String]) -> String {
        ([name] + words).map(TextFormat.shellWord).joined(separator: " ")
    }
}
