import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The outcome of one run of a program: what it printed and its exit status.
public struct ToolRun: Equatable, Sendable, CustomStringConvertible {
    public var stdout: String
    public var stderr: String
    public var code: Int32
    /// True when the run was killed for taking longer than its time limit (a hang).
    public var timedOut: Bool

    public init(stdout: String, stderr: String, code: Int32, timedOut: Bool = false) {
        self.stdout = stdout
        self.stderr = stderr
        self.code = code
        self.timedOut = timedOut
    }

    public var description: String { "exit \(code)\(timedOut ? " (killed: timed out)" : "")\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs the package's built `migrate-store`, which SwiftPM puts next to the test product
/// because the test targets that run it depend on it (as they do on `store-test-helper`).
public enum BuiltTool {
    /// The directory holding the build products (`.build/debug`).
    public static let products: URL = {
        #if canImport(Darwin)
        // Darwin: the tests are a `.xctest` bundle loaded by a runner; the bundle sits in the products directory.
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") { return bundle.bundleURL.deletingLastPathComponent() }
        return Bundle.main.bundleURL
        #else
        // Linux: the tests are an executable in the products directory.
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #endif
    }()

    /// The built `migrate-store`.
    public static var executable: URL {
        #if os(Windows)
        products.appendingPathComponent("migrate-store.exe")
        #else
        products.appendingPathComponent("migrate-store")
        #endif
    }

    /// Runs `migrate-store arguments` and returns what it printed and its exit status.
    ///
    /// - `stdin`: bytes for its standard input (by default it reads an empty one).
    /// - `launcher`: a command it runs under, e.g. `fiu-run -x -c ...` (found on `PATH`).
    /// - `environment`: variables added to this process's environment.
    /// - `timeLimit`: seconds after which it is killed and the run marked `timedOut`; none by default.
    public static func run(
        _ arguments: [String], stdin: [UInt8]? = nil, launcher: [String] = [], environment: [String: String] = [:],
        timeLimit: Double? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ToolRun {
        try requireExecutable(sourceLocation: sourceLocation)
        return try runProgram(executable.path, arguments, stdin: stdin, launcher: launcher, environment: environment, timeLimit: timeLimit)
    }

    /// Runs `migrate-store arguments` and returns its standard output's raw bytes (for `export ... -`).
    public static func runBytes(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> (stdout: [UInt8], code: Int32) {
        try requireExecutable(sourceLocation: sourceLocation)
        let run = try capture(executable.path, arguments, stdin: nil, launcher: [], environment: [:], timeLimit: nil)
        return (Array(run.stdout), run.code)
    }

    /// Runs any program as ``run(_:stdin:launcher:environment:timeLimit:sourceLocation:)`` runs `migrate-store`.
    public static func runProgram(
        _ executable: String, _ arguments: [String], stdin: [UInt8]? = nil, launcher: [String] = [],
        environment: [String: String] = [:], timeLimit: Double? = nil
    ) throws -> ToolRun {
        let run = try capture(executable, arguments, stdin: stdin, launcher: launcher, environment: environment, timeLimit: timeLimit)
        return ToolRun(
            stdout: String(decoding: run.stdout, as: UTF8.self), stderr: String(decoding: run.stderr, as: UTF8.self),
            code: run.code, timedOut: run.timedOut)
    }

    /// The full path of a program on `PATH`, or the name as given.
    public static func which(_ name: String) -> String {
        if name.contains("/") { return name }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return name
    }

    private static func requireExecutable(sourceLocation: SourceLocation) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "no executable at '\(executable.path)'; build the package first", sourceLocation: sourceLocation)
    }

    /// Runs the program with standard output and error in files (no pipe can fill up, whatever
    /// it prints) and returns them once it has ended.
    private static func capture(
        _ executable: String, _ arguments: [String], stdin: [UInt8]?, launcher: [String],
        environment: [String: String], timeLimit: Double?
    ) throws
        -> (stdout: Data, stderr: Data, code: Int32, timedOut: Bool)
    {
        let scratch = TemporaryDirectory("tool")
        let outPath = scratch("out"), errPath = scratch("err")
        guard FileManager.default.createFile(atPath: outPath, contents: nil),
            FileManager.default.createFile(atPath: errPath, contents: nil)
        else { throw CocoaError(.fileWriteUnknown) }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        let command = launcher + [executable] + arguments
        process.executableURL = URL(fileURLWithPath: launcher.isEmpty ? executable : which(launcher[0]))
        process.arguments = Array(command.dropFirst())
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            try input.fileHandleForWriting.write(contentsOf: Data(stdin))
            try input.fileHandleForWriting.close()
        }
        var timedOut = false
        if let timeLimit {
            let deadline = Date().addingTimeInterval(timeLimit)
            while process.isRunning {
                if Date() > deadline { timedOut = true; kill(process.processIdentifier, SIGKILL) }
                usleep(2_000)
            }
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return (
            try Data(contentsOf: URL(fileURLWithPath: outPath)), try Data(contentsOf: URL(fileURLWithPath: errPath)),
            process.terminationStatus, timedOut
        )
    }
}

/// A 512 KiB tmpfs mounted at a new folder, for tests of a real full disk. Where it can't be
/// mounted (it needs root or CAP_SYS_ADMIN) the test is skipped with the reason, through
/// ``SkippedTests``. Call ``unmount()`` (in a `defer`) when done.
public struct SmallDisk {
    public let path: String

    /// `file`, `function` and `sourceLocation` name the calling test in the skipped-tests summary.
    public init(
        at path: String, file: String = #fileID, function: String = #function,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mounted = try BuiltTool.runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", path], timeLimit: 60)
        try SkippedTests.require(
            mounted.code == 0, "can't mount a tmpfs here (\(mounted.stderr.trimmingCharacters(in: .whitespacesAndNewlines))); needs root or CAP_SYS_ADMIN",
            file: file, function: function, sourceLocation: sourceLocation)
        self.path = path
    }

    /// Unmounts it; a failure only leaves a mount in the test's temp folder.
    public func unmount() {
        _ = try? BuiltTool.runProgram("/bin/umount", [path], timeLimit: 60)
    }
}
