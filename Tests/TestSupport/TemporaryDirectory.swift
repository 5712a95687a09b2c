import Foundation

// Re-exported: every test target imports TestSupport, so the C library comes with it.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif

/// A fresh folder (mode `0o700`) under the system's temp directory, removed when the value goes
/// away. The one temp folder of every test target.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    /// `label` (by default the calling function) names the folder, to tell leftovers apart.
    public init(_ label: String = #function) {
        let name = "test-\(label.prefix { $0.isLetter || $0.isNumber })-\(UUID().uuidString.lowercased())"
        path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        precondition(mkdir(path, 0o700) == 0, "TemporaryDirectory: mkdir '\(path)' failed: errno \(errno)")
    }

    deinit {
        // Test cleanup; a failure only leaves a folder in /tmp.
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/component`.
    public func callAsFunction(_ component: String) -> String { path + "/" + component }

    /// Copies `Samples/<sample>` to `path/<name>` (by default `path/<sample>`) and returns the copy's path.
    public func copySample(_ sample: String, as name: String? = nil) throws -> String {
        try copy(Samples.path(sample), as: name ?? sample)
    }

    /// Copies the file or folder at `source` to `path/<name>` and returns the copy's path.
    public func copy(_ source: String, as name: String) throws -> String {
        let target = self(name)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return target
    }
}
