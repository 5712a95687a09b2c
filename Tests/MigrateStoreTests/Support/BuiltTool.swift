import Foundation
import Testing

/// Runs the built `migrate-store` executable, which SwiftPM puts next to the test bundle.
enum BuiltTool {
    /// The directory holding the build products (`.build/debug`).
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    /// The executable's path.
    static var executable: URL {
        #if os(Windows)
        productsDirectory.appendingPathComponent("migrate-store.exe")
        #else
        productsDirectory.appendingPathComponent("migrate-store")
        #endif
    }

    /// Runs the executable with `arguments` and returns what it printed and its exit status.
    static func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ToolRun {
        try #require(FileManager.default.isExecutableFile(atPath: executable.path),
                     "no executable at '\(executable.path)'; build the package first",
                     sourceLocation: sourceLocation)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The outputs are small (help texts), far below a pipe's buffer, so reading one
        // pipe to its end before the other can't deadlock.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolRun(stdout: String(decoding: out, as: UTF8.self),
                       stderr: String(decoding: err, as: UTF8.self),
                       code: process.terminationStatus)
    }
}
