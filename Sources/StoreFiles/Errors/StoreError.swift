import Foundation

/// The one error type of the store: what went wrong, in a sentence a person can act on, with the
/// path, the failed system call and its `errno` when there is one, and where it was thrown.
///
/// `message` names the thing and the way out, with user values in single quotes:
/// "Can't write '/s/sessions/x.json': the disk is full (ENOSPC). Free some space and try again;
/// the previous version of the file is unchanged."
///
/// Match on `code`, never on the message: messages may be reworded, codes are stable.
///
/// As a `LocalizedError` (for `NSError` bridging and SwiftUI alerts), `errorDescription` is the
/// message and `recoverySuggestion` the way out (see `recoverySuggestion` for how it is found).
///
/// A way out that is one of the store's operations (validating, migrating, restoring) stays a
/// value (`Recovery`): `message` says it in plain words, and a tool that offers the operation as a
/// command puts its command line in with `messageText(commandLine:)`.
public struct StoreError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What kind of failure this is. A struct wrapping a private enum, so codes can be added
    /// later without breaking anyone's `switch` (compare with `==` instead).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case io, notFound, permissionDenied, noSpace, readOnlyFileSystem, locked
            case symlinkRefused, notARegularFile, invalidFileName, alreadyExists, fileTooLarge
            case corruptDocument, invalidDocument, unsupportedVersion, notAStore, conflict, invalidArgument
            case restoreInterrupted, cancelled
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The device or the operating system failed in a way no other code describes (`EIO`, ...).
        public static let io = Code(.io)
        /// A file or folder does not exist (`ENOENT`, `ENOTDIR`).
        public static let notFound = Code(.notFound)
        /// The operating system refused access (`EACCES`, `EPERM`).
        public static let permissionDenied = Code(.permissionDenied)
        /// The disk or the user's quota is full (`ENOSPC`, `EDQUOT`).
        public static let noSpace = Code(.noSpace)
        /// The file system is mounted read-only (`EROFS`).
        public static let readOnlyFileSystem = Code(.readOnlyFileSystem)
        /// Another process holds the store's lock.
        public static let locked = Code(.locked)
        /// A symbolic link stands where the store expects a file; the store never follows it.
        public static let symlinkRefused = Code(.symlinkRefused)
        /// Something other than a regular file (a folder, a FIFO, a device) stands where a file belongs.
        public static let notARegularFile = Code(.notARegularFile)
        /// A file name is not a lowercase UUID followed by `.json`.
        public static let invalidFileName = Code(.invalidFileName)
        /// Something already exists where the store wanted to create a new entry (`EEXIST`).
        public static let alreadyExists = Code(.alreadyExists)
        /// A file is larger than the store is willing to read.
        public static let fileTooLarge = Code(.fileTooLarge)
        /// A document is not valid JSON.
        public static let corruptDocument = Code(.corruptDocument)
        /// A document is valid JSON but breaks the format (missing key, wrong type, wrong id).
        public static let invalidDocument = Code(.invalidDocument)
        /// A document or store has a schema version this code cannot read.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// A directory is not a store (no valid `store.json`).
        public static let notAStore = Code(.notAStore)
        /// The store changed in a way that contradicts the change being made.
        public static let conflict = Code(.conflict)
        /// A call broke a rule of the library's API (a queue key changed in `updateWorkStream`, the
        /// lock of another store passed to `Backup.create`); nothing was changed. A bug in the caller.
        public static let invalidArgument = Code(.invalidArgument)
        /// A restore into the store's path has not finished: its journal is next to it and the
        /// restored store is not in place yet. The next restore or open for writing finishes it.
        public static let restoreInterrupted = Code(.restoreInterrupted)
        /// The calling task was cancelled while the call waited (for the store's lock, in
        /// `AsyncStore`); nothing was written. The `underlying` error is the `CancellationError`.
        public static let cancelled = Code(.cancelled)

        /// The code's name, for logs: `noSpace`.
        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// One or two sentences: what failed, on which path, and what the user can do, every way out
    /// in plain words (`messageText(commandLine:)` puts a tool's command lines in). Setting it
    /// replaces the whole text.
    public var message: String {
        get { text.description }
        set { text = Text(newValue) }
    }
    /// The message with its ways out as values.
    package private(set) var text: Text
    /// The file or folder the failure is about, as the user knows it (the target, not a temp file).
    public var path: String?
    /// The C function that failed (`"fsync"`), when a system call failed.
    public var syscall: String?
    /// The `errno` that system call set, when a system call failed.
    public var errno: Int32?
    /// A lower-level error this one wraps, if any.
    public var underlying: (any Error & Sendable)?
    /// The source file that threw (`#fileID`).
    public var file: String
    /// The line that threw.
    public var line: Int
    /// The way out when the thrower named it apart from the message (see `recoverySuggestion`).
    public var recovery: Recovery?

    /// Creates an error. Prefer the factory functions (`systemCall(...)`) where they fit.
    ///
    /// - Parameters:
    ///   - code: ``code``.
    ///   - message: ``message``.
    ///   - path: ``path``. The default is nil.
    ///   - syscall: ``syscall``, for a failed system call. The default is nil.
    ///   - errno: ``errno``, for a failed system call. The default is nil.
    ///   - underlying: ``underlying``. The default is nil.
    ///   - recovery: What the user can do, when it is not the message's last sentences
    ///     (see `recoverySuggestion`). The default is nil.
    ///   - file: ``file``. The default is the caller's `#fileID`.
    ///   - line: ``line``. The default is the caller's `#line`.
    public init(
        _ code: Code, _ message: String, path: String? = nil, syscall: String? = nil,
        errno: Int32? = nil, underlying: (any Error & Sendable)? = nil, recovery: Recovery? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.init(
            code, text: Text(message), path: path, syscall: syscall, errno: errno, underlying: underlying,
            recovery: recovery, file: file, line: line)
    }

    /// Creates an error whose message names ways out as values: `Text("Can't … ", fix)`.
    package init(
        _ code: Code, text: Text, path: String? = nil, syscall: String? = nil,
        errno: Int32? = nil, underlying: (any Error & Sendable)? = nil, recovery: Recovery? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.text = text
        self.path = path
        self.syscall = syscall
        self.errno = errno
        self.underlying = underlying
        self.recovery = recovery
        self.file = file
        self.line = line
    }

    /// `LocalizedError`: the message.
    public var errorDescription: String? { message }

    /// `LocalizedError`: what the user can do, or nil when the message names nothing to do.
    ///
    /// `recovery` when the thrower set it (every failed system call sets the errno's remedy,
    /// "Free some space and try again.", without the note on the file's state; a document error
    /// its fix). Otherwise it is read off the message, whose shape is "Can't <verb> '<what>':
    /// <why>. <What to do>." (HOUSE-STYLE §9): the sentences after the first; for a message of one
    /// sentence, the clause after its last "; " ("...; use a newer version of the tool"), with a
    /// capital letter and a full stop. Quoted values (`'...'`) never split a sentence.
    public var recoverySuggestion: String? { recovery?.description ?? StoreErrorText.recovery(in: message) }

    /// The message, then the failed call and errno name when there is one:
    /// "... is unchanged. (fsync: ENOSPC)".
    public var description: String { described(message) }

    /// The message with `commandLine` for each operation a way out in it names (where `message`
    /// says it in plain words): how a tool that offers those operations as commands prints it.
    public func messageText(commandLine: (Operation) -> String) -> String {
        text.text(commandLine: commandLine)
    }

    /// `description` with `commandLine` for each operation a way out names (see `messageText(commandLine:)`).
    public func descriptionText(commandLine: (Operation) -> String) -> String {
        described(messageText(commandLine: commandLine))
    }

    /// This error with `sentence` and a space before its message (what else happened first).
    package func prefixed(_ sentence: String) -> StoreError {
        var error = self
        error.text = text.prepending(sentence + " ")
        return error
    }

    /// This error with `target` replaced by `replacement` wherever the message itself (not a way
    /// out in it) says it.
    package func replacingInMessage(_ target: String, with replacement: String) -> StoreError {
        var error = self
        error.text = text.replacing(target, with: replacement)
        return error
    }

    private func described(_ message: String) -> String {
        guard let syscall else { return message }
        guard let errno else { return "\(message) (\(syscall))" }
        return "\(message) (\(syscall): \(ErrnoDescription.name(errno)))"
    }
}
