import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoreGenerator

/// A fresh folder under the system's temp directory, removed when the value goes away.
final class BackupScratch {
    let path: String

    init(_ label: String = #function) {
        let name = "backup-\(label.prefix { $0.isLetter || $0.isNumber })-\(UUID().uuidString.lowercased())"
        path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        precondition(mkdir(path, 0o700) == 0, "BackupScratch: mkdir '\(path)' failed: errno \(errno)")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)  // test cleanup; a failure only leaves a folder in /tmp
    }

    /// `path/name`.
    func at(_ name: String) -> String { path + "/" + name }

    /// Copies `Samples/<sample>` to `path/name` and returns the copy's path. Samples are never modified.
    func copySample(_ sample: String, as name: String = "store") throws -> String {
        let destination = at(name)
        try FileManager.default.copyItem(atPath: BackupSamples.root + "/" + sample, toPath: destination)
        return destination
    }
}

enum BackupSamples {
    /// `<package>/Samples`, found from this file's path.
    static var root: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples").path
    }
}

/// Every regular file under `root` by relative path, with its bytes. Names starting with a dot
/// are left out unless `dotFiles`; a symbolic link is recorded as `link -> target`.
func fileTree(_ root: String, dotFiles: Bool = false) -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    func walk(_ relative: String) {
        let full = relative.isEmpty ? root : root + "/" + relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: full) else { return }
        for name in names where dotFiles || !name.hasPrefix(".") {
            let child = relative.isEmpty ? name : relative + "/" + name
            var status = stat()
            guard lstat(root + "/" + child, &status) == 0 else { continue }
            // S_IFMT, S_IFDIR, S_IFREG, S_IFLNK are the same numbers everywhere (POSIX); spelled out
            // because Glibc and Darwin import them with different types.
            switch Int(status.st_mode) & 0o170000 {
            case 0o040000: result[child + "/"] = []; walk(child)
            case 0o100000: result[child] = Array(FileManager.default.contents(atPath: root + "/" + child) ?? Data())
            case 0o120000: result[child] = Array(("link -> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + child)) ?? "?")).utf8)
            default: result[child] = Array("special".utf8)
            }
        }
    }
    walk("")
    return result
}

/// The names in a folder, sorted, dot names included.
func folderNames(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// Runs the built tool with optional standard input, returning output and exit status.
func runTool(_ arguments: [String], stdin: [UInt8]? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> ToolRun {
    try #require(FileManager.default.isExecutableFile(atPath: BuiltTool.executable.path),
                 "no executable at '\(BuiltTool.executable.path)'; build the package first", sourceLocation: sourceLocation)
    let process = Process()
    process.executableURL = BuiltTool.executable
    process.arguments = arguments
    let stdout = Pipe(), stderr = Pipe(), input = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try process.run()
    // Feed standard input and drain both outputs on their own threads: exports can exceed a pipe's buffer.
    let outBox = DataBox(), errBox = DataBox()
    let group = DispatchGroup()
    for (handle, box) in [(stdout.fileHandleForReading, outBox), (stderr.fileHandleForReading, errBox)] {
        group.enter()
        Thread.detachNewThread { box.set(handle.readDataToEndOfFile()); group.leave() }
    }
    if let stdin {
        try input.fileHandleForWriting.write(contentsOf: Data(stdin))
        try input.fileHandleForWriting.close()
    }
    group.wait()
    process.waitUntilExit()
    return ToolRun(stdout: String(decoding: outBox.get(), as: UTF8.self), stderr: String(decoding: errBox.get(), as: UTF8.self),
                   code: process.terminationStatus)
}

/// Runs the built tool and returns its raw standard output bytes (for `export ... -`).
func runToolBytes(_ arguments: [String]) throws -> (stdout: [UInt8], code: Int32) {
    let process = Process()
    process.executableURL = BuiltTool.executable
    process.arguments = arguments
    let stdout = Pipe()
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (Array(data), process.terminationStatus)
}

/// A `Data` shared between threads.
final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// Replaces the file at `path` by a new file with `bytes` (a new inode: a backup's hard link to
/// the store is broken rather than the store changed along with it).
func replaceFile(_ path: String, with bytes: [UInt8]) throws {
    let temporary = path + ".replacing"
    try Data(bytes).write(to: URL(fileURLWithPath: temporary))
    #expect(rename(temporary, path) == 0)
}


extension SeededGenerator {
    /// A random lowercase UUID string.
    mutating func uuid() -> String {
        var bytes = (0 ..< 16).map { _ in UInt8.random(in: 0 ... 255, using: &self) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}

/// Makes a store with `count` sessions: the v2 sample plus copies of its sessions under new
/// random ids (every occurrence of the old id rewritten, so `id` matches the file name).
func makeLargeStore(at path: String, sessions count: Int, seed: UInt64) throws {
    try FileManager.default.copyItem(atPath: BackupSamples.root + "/v2-store", toPath: path)
    let folder = path + "/sessions"
    let originals = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
    var random = SeededGenerator(seed: seed)
    for index in 0 ..< count {
        let original = originals[index % originals.count]
        let oldID = String(original.dropLast(5))
        let newID = random.uuid()
        let text = try String(contentsOfFile: folder + "/" + original, encoding: .utf8)
        try text.replacingOccurrences(of: oldID, with: newID).write(toFile: folder + "/\(newID).json", atomically: false, encoding: .utf8)
    }
}
