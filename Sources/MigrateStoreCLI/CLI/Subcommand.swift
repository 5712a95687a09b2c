/// One command of `migrate-store`: its declaration, its options read once into typed values,
/// and the code that runs it.
///
/// The spec is the only place a name is spelled: options are declared as static constants and
/// read back through them, so a misspelt option is a compile error, not a failure at run time.
///
/// ```swift
/// struct StatsCommand: Subcommand {
///     static let spec = CommandSpec(name: "stats", group: .inspecting,
///                                   abstract: "Count the documents, messages and bytes in a store.",
///                                   arguments: [.store])
///     let store: String
///     init(_ arguments: ParsedArguments) { store = arguments.value(.store) }
///     func run(_ out: Output) throws -> ExitCode { ... }
/// }
/// ```
protocol Subcommand: Sendable {
    /// The declaration the parser checks the command line against and the help prints.
    static var spec: CommandSpec { get }
    /// Reads the command's typed options from a command line the parser has already checked
    /// against ``spec``; throws ``UsageError`` for what the spec can't express.
    init(_ arguments: ParsedArguments) throws
    /// Runs the command, printing through `out`, and returns the exit status; throws an
    /// ``ExitCodeError`` (or a `StoreError`) on failure.
    func run(_ out: Output) throws -> ExitCode
}

/// Runs one command: reads its ``ParsedArguments``, prints through ``Output``, and returns
/// the exit status, or throws (see ``ExitCodeError``).
typealias CommandHook = @Sendable (ParsedArguments, Output) throws -> ExitCode

/// A command's spec paired with the code that runs it.
struct Command: Sendable {
    let spec: CommandSpec
    let run: CommandHook

    init(spec: CommandSpec, run: @escaping CommandHook) {
        self.spec = spec
        self.run = run
    }

    /// The command `type` declares: read its options, check its paths (``PathArgument``), then run it.
    init(_ type: any Subcommand.Type) {
        self.init(spec: type.spec) { arguments, out in
            let command = try type.init(arguments)
            try PathArgument.check(type.spec, arguments)
            return try command.run(out)
        }
    }
}
