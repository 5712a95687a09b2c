import Foundation
import Testing
import JSONStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The outcome of one run of a built executable.
struct ToolRun: CustomStringConvertible {
    var stdout: String
    var stderr: String
    var code: Int32
    /// True when the run was killed for taking longer than its time limit (a hang).
    var timedOut = false

    var description: String { "exit \(code)\(timedOut ? " (killed: timed out)" : "")\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs the package's built executables (`migrate-store`, `reliability-helper`), which SwiftPM
/// puts next to the test product because this target depends on them.
enum Tool {
    static let products: URL = {
        #if canImport(Darwin)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") { return bundle.bundleURL.deletingLastPathComponent() }
        return Bundle.main.bundleURL
        #else
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #endif
    }()

    static var migrateStore: String { products.appendingPathComponent("migrate-store").path }
    static var helper: String { products.appendingPathComponent("reliability-helper").path }

    /// Runs `executable arguments` (after `launcher`, e.g. `fiu-run -x -c ...`), with standard output
    /// and error in files (no pipe can fill up), killing it after `timeLimit` seconds.
    static func run(_ executable: String, _ arguments: [String], launcher: [String] = [], environment: [String: String] = [:],
                    timeLimit: Double = 60) throws -> ToolRun {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
              FileManager.default.createFile(atPath: errURL.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        let command = launcher + [executable] + arguments
        process.executableURL = URL(fileURLWithPath: launcher.isEmpty ? executable : try which(launcher[0]))
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeLimit)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline { timedOut = true; kill(process.processIdentifier, SIGKILL) }
            usleep(2_000)
        }
        process.waitUntilExit()
        try out.close(); try err.close()
        return ToolRun(stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                       stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
                       code: process.terminationStatus, timedOut: timedOut)
    }

    /// Commands that never write to the store they are given.
    static let readOnlyCommands: Set<String> = ["status", "plan", "verify", "ls", "show", "queue", "stats", "validate", "help"]

    static func migrate(_ arguments: [String], launcher: [String] = [], timeLimit: Double = 60) throws -> ToolRun {
        // The repository's samples are read by many tests: only read-only commands may touch them.
        precondition(readOnlyCommands.contains(arguments.first ?? "") || !arguments.contains { $0.hasPrefix(Samples.root) },
                     "Tool.migrate: '\(arguments.joined(separator: " "))' could write to the repository's Samples/")
        return try run(migrateStore, arguments, launcher: launcher, timeLimit: timeLimit)
    }

    /// The full path of a program on `PATH`, or the name as given.
    static func which(_ name: String) throws -> String {
        if name.contains("/") { return name }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return name
    }

    /// True when `name` is a program on `PATH`.
    static func isInstalled(_ name: String) -> Bool { (try? which(name)).map { $0.contains("/") } ?? false }

    /// True when `migrate-store` implements `command` (commands still being built exit 70 "not
    /// implemented"). Asked about a path that does not exist, so nothing can be written.
    static func implements(_ command: String) -> Bool {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-store-\(UUID().uuidString)").path
        guard let run = try? run(migrateStore, [command, missing]) else { return false }
        return !(run.code == 70 && run.stderr.contains("not implemented"))
    }
}

/// A fresh folder under the temp directory, removed when the value goes away.
final class Scratch {
    let path: String

    init(_ label: String = #function) {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("reliability-\(label.prefix { $0.isLetter || $0.isNumber })-\(UUID().uuidString.prefix(8))").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func callAsFunction(_ component: String) -> String { path + "/" + component }

    /// Copies a sample store here as `name` and returns its path.
    func copy(_ sample: String, as name: String) throws -> String {
        let target = self(name)
        try FileManager.default.copyItem(atPath: sample, toPath: target)
        return target
    }
}

/// Every regular file under `root` by "/relative/path" (leading slash), never following links;
/// dot names skipped unless `includeDotNames`.
func tree(_ root: String, includeDotNames: Bool = false) -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: root) else { return files }
    while let relative = enumerator.nextObject() as? String {
        if !includeDotNames && relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
        var status = stat()
        guard lstat(root + "/" + relative, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
        files["/" + relative] = FileManager.default.contents(atPath: root + "/" + relative).map { Array($0) } ?? []
    }
    return files
}

/// The `.tmp-` files left anywhere under `root`.
/// Temp files, and a migration's exchange folder (`.migration-sessions`), left in `root`. With
/// `allowingExchangeFolder`, the folder and what it holds are not counted: a migration whose fsync
/// after the exchange failed must leave the old folder to the next sweep.
func temporaryLeftovers(_ root: String, allowingExchangeFolder: Bool = false) -> [String] {
    let folder = "/" + StoreMigrator.exchangeFolderName
    var found = tree(root, includeDotNames: true).keys.filter { $0.contains("/.tmp-") }
    if FileManager.default.fileExists(atPath: root + folder) { found.append(folder) }
    if allowingExchangeFolder { found.removeAll { $0 == folder || $0.hasPrefix(folder + "/") } }
    return found.sorted()
}
