import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running child process (`store-test-helper` or the built `migrate-store`), its standard
/// output read line by line; its standard error goes to the tests' own, its standard input is empty.
public final class ChildProcess {
    /// The built `store-test-helper`, next to the test product (every test target that launches it
    /// depends on it, so it is built first). `STORE_TEST_HELPER` overrides.
    public static let helperURL: URL = {
        if let path = ProcessInfo.processInfo.environment["STORE_TEST_HELPER"] { return URL(fileURLWithPath: path) }
        return BuiltTool.products.appendingPathComponent("store-test-helper")
    }()

    public let process = Process()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    /// Starts `store-test-helper arguments`.
    public convenience init(_ arguments: [String]) throws {
        try self.init(executable: Self.helperURL, arguments)
    }

    /// Starts `executable arguments`.
    public init(executable: URL, _ arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }

    /// The next line of output, without its newline; nil at end of output. Blocks.
    public func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(output.fileHandleForReading.fileDescriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                defer { buffer.removeAll() }
                return buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self)
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Every remaining line, up to the end of the output.
    public func lines() -> [String] {
        var out: [String] = []
        while let line = readLine() { out.append(line) }
        return out
    }

    /// Sends SIGKILL: the process gets no chance to clean up or finish a write.
    public func killHard() {
        _ = kill(pid, SIGKILL)
    }

    /// Waits for the process to end; returns its exit status, or the signal that ended it.
    @discardableResult
    public func wait() -> (reason: Process.TerminationReason, status: Int32) {
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }
}
