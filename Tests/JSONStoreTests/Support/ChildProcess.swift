import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `store-test-helper`, with its standard output read line by line.
final class ChildProcess {
    /// Where the helper is: next to the test product, because `swift build` puts every product of
    /// the package in one directory and JSONStoreTests depends on the helper, so it is built first.
    /// `STORE_TEST_HELPER` overrides.
    static let helperURL: URL = {
        if let path = ProcessInfo.processInfo.environment["STORE_TEST_HELPER"] { return URL(fileURLWithPath: path) }
        #if canImport(Darwin)
        // Darwin: the tests are a `.xctest` bundle loaded by a runner; the bundle sits in the products directory.
        let products = Bundle(for: ChildProcess.self).bundleURL.deletingLastPathComponent()
        #else
        // Linux: the tests are an executable in the products directory.
        let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #endif
        return products.appendingPathComponent("store-test-helper")
    }()

    let process = Process()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    init(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        process.executableURL = Self.helperURL
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// The next line of output, without its newline; nil at end of output. Blocks.
    func readLine() -> String? {
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

    /// Sends SIGKILL: the process gets no chance to clean up or finish a write.
    func killHard() {
        _ = kill(pid, SIGKILL)
    }

    /// Waits for the process to end; returns its exit status, or the signal that ended it.
    @discardableResult
    func wait() -> (reason: Process.TerminationReason, status: Int32) {
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }
}

/// An integer from the environment, else `fallback`.
func environmentInteger(_ name: String, default fallback: Int) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? fallback
}
