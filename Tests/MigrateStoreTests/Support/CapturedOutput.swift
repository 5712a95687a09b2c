import Foundation

@testable import MigrateStoreCLI

/// Standard output and error captured in memory, for in-process tests of ``Output``.
final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var out = ""
    private var err = ""

    /// Everything written to standard output so far.
    var stdout: String { locked { out } }
    /// Everything written to standard error so far.
    var stderr: String { locked { err } }

    /// Streams that append here; `terminal` says whether standard error claims to be a terminal.
    func streams(terminal: Bool = false) -> OutputStreams {
        OutputStreams(
            standardOutput: { text in self.locked { self.out += text } },
            standardError: { text in self.locked { self.err += text } },
            standardErrorIsTerminal: terminal)
    }

    // `NSLock.withLock` needs macOS 14; the package supports macOS 13.
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// A fresh ``Output`` writing here.
    func output(json: Bool = false, quiet: Bool = false, terminal: Bool = false) -> Output {
        Output(streams: streams(terminal: terminal), isJSON: json, isQuiet: quiet, command: "test")
    }
}

/// Runs ``CommandLineTool`` in this process with `registry` (by default: every command
/// not implemented) and captures its output.
func runInProcess(_ words: [String], registry: CommandRegistry = .unimplemented) -> ToolRun {
    let captured = CapturedOutput()
    let code = CommandLineTool(registry: registry).run(words, output: Output(streams: captured.streams()))
    return ToolRun(stdout: captured.stdout, stderr: captured.stderr, code: code.rawValue)
}

extension CommandRegistry {
    /// The real commands, each replaced by a hook that fails with exit status 70: for tests of
    /// parsing and output that must not touch a store.
    static var unimplemented: CommandRegistry {
        CommandRegistry(replacing: notImplementedHooks)
    }

    /// The real commands, with `hook` for the command `name` and not-implemented for the rest.
    static func with(_ name: String, _ hook: @escaping CommandHook) -> CommandRegistry {
        CommandRegistry(replacing: notImplementedHooks.merging([name: hook]) { _, new in new })
    }

    private static var notImplementedHooks: [String: CommandHook] {
        Dictionary(
            uniqueKeysWithValues: CommandSpec.all.map { spec in
                let name = spec.name
                let hook: CommandHook = { _, _ in throw CommandError(.internalError, "'\(name)' is not implemented yet.") }
                return (name, hook)
            })
    }
}

extension CommandSpec {
    /// Every command's spec, in help order.
    static var all: [CommandSpec] { CommandRegistry.all.map { $0.spec } }
}

extension CommandSpec {
    // Each command's spec by its old name, so that parser tests read `parse(.migrate, …)`.
    static var status: CommandSpec { StatusCommand.spec }
    static var plan: CommandSpec { PlanCommand.spec }
    static var migrate: CommandSpec { MigrateCommand.spec }
    static var verify: CommandSpec { VerifyCommand.spec }
    static var rollback: CommandSpec { RollbackCommand.spec }
    static var list: CommandSpec { ListCommand.spec }
    static var show: CommandSpec { ShowCommand.spec }
    static var queue: CommandSpec { QueueCommand.spec }
    static var stats: CommandSpec { StatsCommand.spec }
    static var validate: CommandSpec { ValidateCommand.spec }
    static var backup: CommandSpec { BackupCommand.spec }
    static var verifyBackup: CommandSpec { VerifyBackupCommand.spec }
    static var restore: CommandSpec { RestoreCommand.spec }
    static var export: CommandSpec { ExportCommand.spec }
    static var `import`: CommandSpec { ImportCommand.spec }
}
