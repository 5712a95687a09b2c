import Foundation
import JSONStore
// The support every test target shares (temp folders, samples, trees, child processes, the built
// tool), for every file of this target.
@_exported import TestSupport
import Testing

/// Runs the built `migrate-store` for the reliability suites, with a time limit (a hang is a failure).
enum Tool {
    /// Commands that never write to the store they are given.
    static let readOnlyCommands: Set<String> = ["status", "plan", "verify", "ls", "show", "queue", "stats", "validate", "help"]

    static func migrate(
        _ arguments: [String], launcher: [String] = [], environment: [String: String] = [:],
        timeLimit: Double = 60
    ) throws -> ToolRun {
        // The repository's samples are read by many tests: only read-only commands may touch them.
        precondition(
            readOnlyCommands.contains(arguments.first ?? "") || !arguments.contains { $0.hasPrefix(Samples.root) },
            "Tool.migrate: '\(arguments.joined(separator: " "))' could write to the repository's Samples/")
        return try BuiltTool.runProgram(
            BuiltTool.executable.path, arguments, launcher: launcher, environment: environment,
            timeLimit: timeLimit)
    }

    /// True when `name` is a program on `PATH`.
    static func isInstalled(_ name: String) -> Bool { BuiltTool.which(name).contains("/") }

    /// True when `migrate-store` implements `command` (commands still being built exit 70 "not
    /// implemented"). Asked about a path that does not exist, so nothing can be written.
    static func implements(_ command: String) -> Bool {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-store-\(UUID().uuidString)").path
        guard let run = try? BuiltTool.runProgram(BuiltTool.executable.path, [command, missing], timeLimit: 60) else { return false }
        return !(run.code == 70 && run.stderr.contains("not implemented"))
    }
}

/// The processes, other than this one, whose command line names `path` (Linux: `/proc/<pid>/cmdline`;
/// elsewhere none can be told, and the list is empty).
func processesNaming(_ path: String) -> [String] {
    guard let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
    let own = String(ProcessInfo.processInfo.processIdentifier)
    var found: [String] = []
    for pid in pids where pid.allSatisfy(\.isNumber) && pid != own {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { continue }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        if arguments.contains(path) { found.append(pid + ": " + arguments.joined(separator: " ")) }
    }
    return found
}

/// ``tree(_:dotNames:everyKind:sourceLocation:)`` keyed by "/relative/path" (leading slash), as the
/// model file system of the power-loss suite keys its files, so the checks shared with it
/// (`PowerLossWorkloads.v1ReaderReads`, which looks for "/sessions/") read both.
func rootedTree(_ root: String, includeDotNames: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) -> [String: [UInt8]] {
    Dictionary(uniqueKeysWithValues: tree(root, dotNames: includeDotNames, sourceLocation: sourceLocation).map { ("/" + $0.key, $0.value) })
}

/// Temp files, and a migration's exchange folder (`.migration-sessions`), left in `root`. With
/// `allowingExchangeFolder`, the folder and what it holds are not counted: a migration whose fsync
/// after the exchange failed must leave the old folder to the next sweep.
func temporaryLeftovers(_ root: String, allowingExchangeFolder: Bool = false) -> [String] {
    let folder = "/" + StoreMigrator.exchangeFolderName
    var found = rootedTree(root, includeDotNames: true).keys.filter { $0.contains("/.tmp-") }
    if FileManager.default.fileExists(atPath: root + folder) { found.append(folder) }
    let customisations = "/" + StoreMigrator.customisationsExchangeFolderName
    if FileManager.default.fileExists(atPath: root + customisations) { found.append(customisations) }
    if allowingExchangeFolder { found.removeAll { $0 == folder || $0.hasPrefix(folder + "/") } }
    return found.sorted()
}
