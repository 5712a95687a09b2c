import JSONStore

/// Everything a command prints, for two audiences: people and scripts.
///
/// - Human mode (the default): ``print(_:)`` writes results to standard output,
///   ``info(_:)`` writes progress and information there too, unless `--quiet`.
/// - JSON mode (`--json`): standard output holds exactly one JSON object, written by
///   ``emitJSON(_:)``; ``print(_:)`` is dropped and ``info(_:)`` goes to standard error.
/// - In both modes warnings and errors go to standard error, even with `--quiet`.
///
/// A command can call both ``print(_:)`` and ``emitJSON(_:)``; only the one that fits the
/// mode writes anything:
///
/// ```swift
/// out.info("Reading '\(store)'...")
/// out.print("8 work streams, 3 queued.")
/// out.emitJSON(["work_streams": 8, "queued": 3])
/// return .success
/// ```
final class Output {
    /// The version of the JSON object's layout, written as `format_version`. Bump it when a
    /// field changes meaning or is removed; adding fields doesn't need a bump.
    static let jsonFormatVersion = 1

    let streams: OutputStreams
    /// True with `--json`.
    var isJSON: Bool
    /// True with `--quiet`.
    var isQuiet: Bool
    /// The command being run, written as `command` in the JSON object.
    var command: String
    /// True once the JSON object has been written; a second one would break `--json`'s contract.
    private(set) var hasEmittedJSON = false
    /// How long work runs before its progress line appears, and the shortest time between two
    /// redraws (see ``ProgressLine``). The defaults are a second and a tenth of a second; tests
    /// set zero for both, so that every update is drawn.
    var progressTiming: (delay: Duration, redrawInterval: Duration) = (.seconds(1), .milliseconds(100))
    /// The clock progress lines read (time since each started); nil for the real one. Tests that
    /// compare drawn bytes freeze it, so that no rate or time left appears.
    var progressClock: (@Sendable () -> Duration)?

    init(streams: OutputStreams, isJSON: Bool = false, isQuiet: Bool = false, command: String = "") {
        self.streams = streams
        self.isJSON = isJSON
        self.isQuiet = isQuiet
        self.command = command
    }

    /// A result for people: a line (or lines) on standard output. Dropped in JSON mode.
    func print(_ text: String) {
        guard !isJSON else { return }
        streams.standardOutput(text + "\n")
    }

    /// Progress or information for people. Dropped with `--quiet`; on standard error in JSON mode.
    func info(_ text: String) {
        guard !isQuiet else { return }
        if isJSON { streams.standardError(text + "\n") } else { streams.standardOutput(text + "\n") }
    }

    /// `Waiting for <holder> to release '<store>' (up to 10 s).` on standard error, in every mode
    /// but `--quiet`: what a command says when another process holds a lock it needs (the
    /// library's `waitingForLock`), so that a wait of up to the lock timeout is never silent.
    func waitingForLock(store: String, holder: String?) {
        guard !isQuiet else { return }
        streams.standardError(
            "Waiting for \(holder ?? "another process") to release '\(store)' "
                + "(up to \(StoreLock.defaultTimeout.components.seconds) s).\n")
    }

    /// `Warning: <text>` on standard error, in every mode.
    func warning(_ text: String) {
        streams.standardError("Warning: \(text)\n")
    }

    /// `Error: <text>` on standard error, in every mode.
    func error(_ text: String) {
        streams.standardError("Error: \(text)\n")
    }

    /// Writes the command's one JSON object to standard output. Does nothing in human mode.
    ///
    /// `format_version` and `command` are added; `fields` must not contain them.
    ///
    /// - Precondition: called at most once per run.
    func emitJSON(_ fields: [String: JSONOutputValue]) {
        guard isJSON else { return }
        precondition(!hasEmittedJSON, "'\(command)' wrote a second JSON object")
        precondition(
            fields["format_version"] == nil && fields["command"] == nil,
            "'format_version' and 'command' are added by Output.emitJSON")
        hasEmittedJSON = true
        var object = fields
        object["format_version"] = .int(Self.jsonFormatVersion)
        object["command"] = .string(command)
        // Written in pieces as it is rendered: the 37 MB of `ls --json` at 50,000 work streams
        // are then never held whole, nor twice (bytes and text).
        let streams = streams
        var bytes = JSONOutputBytes(flush: { streams.standardOutput(String(decoding: $0, as: UTF8.self)) })
        JSONOutputRenderer.write(.object(object), indent: 0, into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        bytes.flushAll()
    }

    /// A progress line on standard error, shown only on a terminal, without `--quiet`, and once
    /// the work has run for a second. Call ``ProgressLine/finish()`` when done, or use
    /// ``withProgress(_:total:_:)`` which does it for you.
    func progress(_ label: String, total: Int?) -> ProgressLine {
        ProgressLine(
            label: label, total: total,
            isEnabled: streams.standardErrorIsTerminal && !isQuiet,
            write: streams.standardError, elapsed: progressClock, delay: progressTiming.delay,
            redrawInterval: progressTiming.redrawInterval)
    }

    /// Runs `body` with a progress line that is cleared when `body` returns or throws.
    ///
    /// ```swift
    /// try out.withProgress("Migrating", total: sessions.count) { progress in
    ///     for (index, session) in sessions.enumerated() {
    ///         try migrate(session)
    ///         progress.update(index + 1)
    ///     }
    /// }
    /// ```
    func withProgress<Result>(
        _ label: String, total: Int?, _ body: (ProgressLine) throws -> Result
    ) rethrows -> Result {
        let line = progress(label, total: total)
        defer { line.finish() }
        return try body(line)
    }
}
