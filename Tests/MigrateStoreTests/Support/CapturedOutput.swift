import Foundation
@testable import migrate_store

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
    /// The real specs with the temporary not-implemented hook, as `main.swift` builds it today.
    static var unimplemented: CommandRegistry {
        CommandRegistry(hooks: [:], fallback: CommandRegistry.notImplemented)
    }

    /// The real specs, with `hook` for the command `name` and not-implemented for the rest.
    static func with(_ name: String, _ hook: @escaping CommandHook) -> CommandRegistry {
        CommandRegistry(hooks: [name: hook], fallback: CommandRegistry.notImplemented)
    }
}
