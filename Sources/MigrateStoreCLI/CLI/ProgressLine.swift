/// One line of progress on standard error, redrawn in place with a carriage return.
///
/// Quiet for short work: nothing is drawn until ``delay`` has passed (a second by default),
/// so fast commands never flicker. Once the work has run a second, the line also shows the rate
/// and, when the total is known, the time left: `Migrating: 1200/10000 work streams, 850/s, 11 s left`. Redraws are limited to one per ``redrawInterval``. The
/// text is cut to ``maximumWidth`` characters, because a line that wraps can't be redrawn
/// with `\r`. ``finish()`` blanks the line so the next output starts on a clean line.
///
/// Created by ``Output/progress(_:total:)``, which disables it when standard error isn't a
/// terminal or `--quiet` was given; a disabled line ignores every call.
final class ProgressLine {
    /// How long the work must run before the line appears. The default is one second.
    let delay: Duration
    /// The shortest time between two redraws. The default is a tenth of a second.
    let redrawInterval: Duration
    /// The longest line drawn, in characters: less than the narrowest usual terminal.
    let maximumWidth = 79

    /// False when standard error isn't a terminal or `--quiet` was given: every call is ignored.
    let isEnabled: Bool

    private let label: String
    private let total: Int?
    private let write: (String) -> Void
    private let elapsed: () -> Duration
    private var lastDraw: Duration?
    private var drawnWidth = 0
    private var isFinished = false

    /// - Parameters:
    ///   - label: What is being done: `"Migrating"`.
    ///   - total: The number of items when known; the line then shows `12/40`.
    ///   - isEnabled: False to ignore every call.
    ///   - write: Where to draw: standard error.
    ///   - elapsed: Time since the work started. The default reads a `ContinuousClock`
    ///     started now; tests pass a fake.
    init(
        label: String, total: Int?, isEnabled: Bool, write: @escaping (String) -> Void,
        elapsed: (() -> Duration)? = nil, delay: Duration = .seconds(1),
        redrawInterval: Duration = .milliseconds(100)
    ) {
        self.label = label
        self.total = total
        self.isEnabled = isEnabled
        self.write = write
        let start = ContinuousClock.now
        self.elapsed = elapsed ?? { ContinuousClock.now - start }
        self.delay = delay
        self.redrawInterval = redrawInterval
    }

    /// Reports that `completed` items are done, with an optional detail such as a file name.
    func update(_ completed: Int, detail: String? = nil) {
        guard isEnabled, !isFinished else { return }
        let now = elapsed()
        guard now >= delay else { return }
        if let lastDraw, now - lastDraw < redrawInterval { return }
        lastDraw = now
        draw(text(completed: completed, detail: detail, elapsed: now))
    }

    /// Blanks the line if anything was drawn. Later calls do nothing.
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        guard drawnWidth > 0 else { return }
        write("\r" + String(repeating: " ", count: drawnWidth) + "\r")
        drawnWidth = 0
    }

    /// `Migrating: 12/40 sessions/ab….json`, and after a second of work `, 850/s, 11 s left`,
    /// cut to ``maximumWidth``.
    func text(completed: Int, detail: String?, elapsed: Duration = .zero) -> String {
        var text = "\(label): \(completed)"
        if let total { text += "/\(total)" }
        if let detail, !detail.isEmpty { text += " " + detail }
        text += Self.pace(completed: completed, total: total, elapsed: elapsed)
        return text.count > maximumWidth ? String(text.prefix(maximumWidth - 1)) + "…" : text
    }

    /// `, 850/s, 11 s left` (the rate so far, and the time left at that rate); empty before a
    /// second of work or before the first item, when a rate would mean little.
    static func pace(completed: Int, total: Int?, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds >= 1, completed > 0 else { return "" }
        let rate = Double(completed) / seconds
        var text = rate >= 10 ? ", \(Int(rate.rounded()))/s" : ", \(String(format: "%.1f", rate))/s"
        if let total, total > completed { text += ", " + timeLeft(Double(total - completed) / rate) + " left" }
        return text
    }

    /// `4 s`, `2 min 5 s`, `1 h 3 min`.
    static func timeLeft(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \((whole % 3600) / 60) min"
    }

    private func draw(_ text: String) {
        let padding = String(repeating: " ", count: max(0, drawnWidth - text.count))
        write("\r" + text + padding)
        drawnWidth = text.count
    }
}
