/// Runs one command: reads its ``ParsedArguments``, prints through ``Output``, and returns
/// the exit status, or throws (see ``ExitCodeError``).
typealias CommandHook = @Sendable (ParsedArguments, Output) throws -> ExitCode

/// A command's spec paired with the code that runs it.
struct Command: Sendable {
    let spec: CommandSpec
    let run: CommandHook
}

/// The commands the tool knows, in the order the top-level help lists them.
///
/// The specs are fixed (``CommandSpec/all``); the code that runs each one is passed in, so
/// implementations can be added one at a time:
///
/// ```swift
/// let registry = CommandRegistry(
///     hooks: ["status": StatusCommand.run, "migrate": MigrateCommand.run],
///     fallback: CommandRegistry.notImplemented)
/// ```
struct CommandRegistry: Sendable {
    /// Every command, in help order.
    let commands: [Command]

    /// Pairs each spec with its hook, or with `fallback(spec)` when `hooks` has none.
    ///
    /// - Precondition: command names are unique and aren't `help`, and every key of `hooks`
    ///   names a spec. These are mistakes in the code, not in the command line.
    init(
        specs: [CommandSpec] = CommandSpec.all, hooks: [String: CommandHook],
        fallback: (CommandSpec) -> CommandHook
    ) {
        let names = specs.map(\.name)
        precondition(Set(names).count == names.count, "two commands share a name: \(names)")
        precondition(!names.contains("help"), "'help' is built in and can't be a registered command")
        for name in hooks.keys {
            precondition(names.contains(name), "a hook is registered for '\(name)', which has no spec")
        }
        commands = specs.map { Command(spec: $0, run: hooks[$0.name] ?? fallback($0)) }
    }

    /// The command with this exact name.
    func command(named name: String) -> Command? {
        commands.first { $0.spec.name == name }
    }

    /// Every name that can follow `migrate-store`, for "Did you mean" suggestions.
    var names: [String] { commands.map(\.spec.name) + ["help"] }
}

extension CommandRegistry {
    /// A stand-in hook for registries that only exercise parsing and output (tests). Fails with
    /// `Error: '<command>' is not implemented yet.` and exit status 70. The tool itself uses
    /// `requireImplementation`: every command has one.
    static func notImplemented(_ spec: CommandSpec) -> CommandHook {
        let name = spec.name
        return { _, _ in throw CommandError(.internalError, "'\(name)' is not implemented yet.") }
    }

    /// For the tool: a spec without an implementation is a mistake in the code, caught at start-up.
    static func requireImplementation(_ spec: CommandSpec) -> CommandHook {
        preconditionFailure("command '\(spec.name)' has a spec but no implementation in CommandHooks")
    }
}
