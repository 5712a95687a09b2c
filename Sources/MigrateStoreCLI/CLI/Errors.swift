/// An error that knows which exit status it stands for.
///
/// Command hooks throw errors; the dispatcher prints `Error: <message>` on standard
/// error and exits with `exitCode`. Library error types can conform in an extension
/// in this target, so the CLI maps them in one place:
///
/// ```swift
/// extension StoreError: ExitCodeError {
///     var exitCode: ExitCode { isLocked ? .locked : .ioError }
///     var printedMessage: String { messageText(commandLine: \.commandLine) }
/// }
/// ```
///
/// Any other error is treated as a bug: exit status 70 (``ExitCode/internalError``).
protocol ExitCodeError: Error {
    /// The status the process exits with.
    var exitCode: ExitCode { get }
    /// The sentence printed after `Error: `, naming the thing and the way out.
    var printedMessage: String { get }
}

/// A command line that doesn't match the command's spec (exit status 64).
///
/// Printed as three lines on standard error:
///
/// ```
/// Error: Unknown option '--jsn'. Did you mean '--json'?
/// Usage: migrate-store status <store> [options]
/// See 'migrate-store help status'.
/// ```
struct UsageError: ExitCodeError, Equatable {
    /// The sentence after `Error: `.
    var message: String
    /// The command whose usage to show, or nil for the top-level usage.
    var command: String?

    var exitCode: ExitCode { .usage }
    var printedMessage: String { message }

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}

/// A failure a command reports with its own exit status and message.
///
/// ```swift
/// throw CommandError(.verificationFailed, "3 documents differ from the backup; see above.")
/// ```
struct CommandError: ExitCodeError, Equatable {
    var exitCode: ExitCode
    var message: String
    var printedMessage: String { message }

    init(_ exitCode: ExitCode, _ message: String) {
        precondition(exitCode != .success, "a CommandError can't have exit status 0")
        self.exitCode = exitCode
        self.message = message
    }
}
