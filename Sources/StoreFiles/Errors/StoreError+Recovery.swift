import Foundation

extension StoreError {
    /// One of the store's operations with its arguments: what a way out asks the user to run.
    ///
    /// A value, so that each reader says it its own way: the library in plain words
    /// (`Recovery.description`), a command-line tool as its own command line
    /// (`Recovery.text(commandLine:)`).
    public enum Operation: Sendable, Hashable {
        /// Validating the store (`StoreValidator`), which lists every problem with its fix. `store`
        /// nil: the store at hand, not named.
        case validate(store: String?)
        /// Migrating the store (`StoreUpgrade.run`) to `version`, nil for the default target;
        /// `allowBreaking` lets it take a breaking step. `store` nil: the store at hand, not named.
        case migrate(store: String?, to: Int?, allowBreaking: Bool)
        /// Putting back the store an upgrade replaced, from the backup taken before it; `backup`
        /// nil: a backup the user picks.
        case rollback(store: String, backup: String?)
        /// Restoring a whole backup over the store (`Restore.run`); `backup` nil: a backup the user
        /// picks.
        case restore(backup: String?, over: String)
        /// Verifying the backup at the path (`BackupVerification`), which lists every problem.
        case verifyBackup(String)

        /// Migrating the store at `store` to the default target, no breaking step.
        public static func migrate(store: String?) -> Operation { .migrate(store: store, to: nil, allowBreaking: false) }
    }

    /// The way out of a failure.
    ///
    /// Plain advice, or advice whose way out is one of the store's operations: then the library's
    /// own text (`description`, and so `StoreError.message`) says it in plain words for an app,
    /// and a tool that offers the operation as a command prints its command line in the sentence
    /// (`text(commandLine:)`).
    public enum Recovery: Sendable, Hashable, CustomStringConvertible {
        /// Advice read the same by everyone: "Free some space and try again."
        case advice(String)
        /// A way out that is `operation`. `advice` says it in plain words; a tool that runs the
        /// operation as a command says `before`, then the command line in single quotes, then
        /// `after` ("Run " + "'…'" + " to finish it.").
        case runCommand(Operation, advice: String, before: String, after: String)

        /// "Run '<command line>'" and `after` for a tool; `plain` and `after` in plain words:
        /// `.run(.migrate(store: path), plainly: "Migrate the store", " to finish it.")`.
        package static func run(_ operation: Operation, plainly plain: String, _ after: String) -> Recovery {
            .runCommand(operation, advice: plain + after, before: "Run ", after: after)
        }

        /// The way out in plain words, naming no tool.
        public var description: String {
            switch self {
            case .advice(let text), .runCommand(_, let text, _, _): text
            }
        }

        /// The way out with `commandLine` (a tool's command line for an operation) in it.
        public func text(commandLine: (Operation) -> String) -> String {
            switch self {
            case .advice(let text): text
            case .runCommand(let operation, _, let before, let after): before + "'" + commandLine(operation) + "'" + after
            }
        }
    }

    /// A message with its ways out kept as values until it is read:
    /// `Text("Can't … ", fix, " Nothing was changed.")` with `fix` a `Recovery`. `description`
    /// reads every way out in plain words; `text(commandLine:)` lets a tool put its command lines in.
    ///
    /// Built by calls rather than by string interpolation: a string-literal type here would make
    /// every literal expression of the package's tests slower to type-check. `package`: the tool
    /// reads the texts of package-level results (`StoreVerifier.Result.integrity`) with its
    /// command lines.
    package struct Text: Sendable, CustomStringConvertible {
        enum Part: Sendable {
            case text(String)
            case recovery(Recovery)
        }

        private(set) var parts: [Part]

        package init(_ text: String) { parts = [.text(text)] }

        /// `leading`, the way out, then `trailing`.
        package init(_ leading: String, _ recovery: Recovery, _ trailing: String = "") {
            parts = [.text(leading), .recovery(recovery), .text(trailing)]
        }

        package var description: String { text { _ in nil } }

        /// The text with `commandLine` for each operation a way out names.
        package func text(commandLine: (Operation) -> String) -> String {
            text { recovery in recovery.text(commandLine: commandLine) }
        }

        /// Adds `text` at the end.
        package mutating func append(_ text: String) { parts.append(.text(text)) }

        /// Adds `other` at the end, its ways out kept (another error's message in this one).
        package mutating func append(_ other: Text) { parts += other.parts }

        /// Adds a way out at the end.
        package mutating func append(_ recovery: Recovery) { parts.append(.recovery(recovery)) }

        /// This text with `text` before it.
        func prepending(_ text: String) -> Text {
            var result = Text(text)
            result.parts += parts
            return result
        }

        /// This text with every occurrence of `target` in its plain parts replaced.
        func replacing(_ target: String, with replacement: String) -> Text {
            var result = self
            result.parts = parts.map { part in
                guard case .text(let text) = part else { return part }
                return .text(text.replacingOccurrences(of: target, with: replacement))
            }
            return result
        }

        /// `render` reads each way out; nil reads it in plain words.
        private func text(_ render: (Recovery) -> String?) -> String {
            parts.map { part in
                switch part {
                case .text(let text): text
                case .recovery(let recovery): render(recovery) ?? recovery.description
                }
            }.joined()
        }
    }
}
