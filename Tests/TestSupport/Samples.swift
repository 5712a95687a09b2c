import Foundation

/// The repository's sample stores (`Samples/`), which tests read and copy but never modify.
public enum Samples {
    /// `<package>/Samples`, found from this file's path.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples").path
    public static var v1Store: String { root + "/v1-store" }
    public static var v2Store: String { root + "/v2-store" }
    public static var v3Store: String { root + "/v3-store" }
    public static var v4Store: String { root + "/v4-store" }
    public static var v5Store: String { root + "/v5-store" }

    /// `Samples/<name>`.
    public static func path(_ name: String) -> String { root + "/" + name }

    /// Copies `Samples/<name>` to `target` (which must not exist yet).
    public static func copy(_ name: String, to target: String) throws {
        try FileManager.default.copyItem(atPath: path(name), toPath: target)
    }
}
