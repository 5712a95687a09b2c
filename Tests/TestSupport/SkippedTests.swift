import Foundation
import Testing

/// Tests that need something this machine may lack (`fiu-run`, the JSONTestSuite corpus, a
/// tmpfs mount, an opt-in environment variable), made visible: a missing prerequisite skips the
/// test (Swift Testing shows `➜ ... was cancelled` or `... skipped`, and the run still passes),
/// and when the test process exits, after Swift Testing's last line, a summary lists every
/// test skipped and why:
///
/// ```
/// Skipped 2 tests (the run still passes; see README "Two commands" for the prerequisites):
///   - ReliabilityTests/BinaryFaultTests.swift shortWritesStillMigrateCorrectly(): fiu-run not found: ...
///   - SchemaTests JSONTestSuiteTests: JSONTestSuite not found: ...
/// ```
///
/// or `Skipped tests: none (every prerequisite checked was found).` when a prerequisite was
/// checked and all were there. A run that checks none (a `--filter` that selects none of these
/// tests) prints nothing.
public enum SkippedTests {
    /// Skips the running test when `condition` is false: records it for the summary, then
    /// cancels the test (`Test.cancel`, which is not a failure).
    ///
    /// ```swift
    /// try SkippedTests.require(Tool.isInstalled("fiu-run"), "fiu-run not found: apt-get install fiu-utils")
    /// ```
    public static func require(
        _ condition: Bool, _ reason: String, file: String = #fileID, function: String = #function,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        registry.checked()
        guard !condition else { return }
        registry.record("\(file) \(function)", reason)
        try Test.cancel(Comment(rawValue: reason), sourceLocation: sourceLocation)
    }

    /// For a suite's or test's `.enabled(if:)` trait: returns `condition`, recording `name` as
    /// skipped for `reason` when it is false.
    ///
    /// ```swift
    /// @Suite(.enabled(if: SkippedTests.check(JSONTestSuite.directory != nil, "SchemaTests JSONTestSuiteTests", reason), ...))
    /// ```
    public static func check(_ condition: Bool, _ name: String, _ reason: String) -> Bool {
        registry.checked()
        if !condition { registry.record(name, reason) }
        return condition
    }

    private static let registry = Registry()

    /// The skipped tests of this process, printed once at exit.
    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var skipped: [(name: String, reason: String)] = []
        private var registered = false

        func checked() {
            lock.lock()
            defer { lock.unlock() }
            guard !registered else { return }
            registered = true
            // After the last test: Swift Testing's run ends before the process exits.
            atexit { SkippedTests.registry.printSummary() }
        }

        func record(_ name: String, _ reason: String) {
            lock.lock()
            defer { lock.unlock() }
            // A parameterised test skips once per argument; list it once.
            if !skipped.contains(where: { $0.name == name && $0.reason == reason }) { skipped.append((name, reason)) }
        }

        func printSummary() {
            lock.lock()
            let list = skipped
            lock.unlock()
            var text =
                list.isEmpty
                ? "Skipped tests: none (every prerequisite checked was found).\n"
                : "Skipped \(list.count) test\(list.count == 1 ? "" : "s") (the run still passes; "
                    + "see README \"Two commands\" for the prerequisites):\n"
            for item in list { text += "  - \(item.name): \(item.reason)\n" }
            FileHandle.standardError.write(Data(text.utf8))
        }
    }
}
