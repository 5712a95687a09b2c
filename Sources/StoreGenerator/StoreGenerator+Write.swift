import Foundation
import Schema

/// A generated store could not be written.
public struct StoreGeneratorError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension StoreGenerator {
    /// Writes the store into `path`, one file at a time (memory does not grow with the store).
    ///
    /// Files are written plainly, without fsync: a generated store is scratch data for a benchmark
    /// or a test. Run `sync` afterwards if the next measurement must not pay for its write-back.
    ///
    /// - Parameter path: a folder that does not exist yet, or is empty.
    /// - Throws: `StoreGeneratorError` when the folder is not empty or a file can't be written.
    @discardableResult
    public func write(to path: String) throws -> Summary {
        let files = FileManager.default
        if let existing = try? files.contentsOfDirectory(atPath: path), !existing.isEmpty {
            throw StoreGeneratorError(message: "Can't generate a store in '\(path)': the folder is not empty. Give a new or empty folder.")
        }
        let root = URL(fileURLWithPath: path, isDirectory: true)
        do {
            for folder in StoreLayout.documentFolderNames {
                try files.createDirectory(at: root.appendingPathComponent(folder, isDirectory: true), withIntermediateDirectories: true)
            }
        } catch {
            throw StoreGeneratorError(message: "Can't create the folders of '\(path)': \(error.localizedDescription)")
        }
        return try forEachDocument { relative, bytes in
            let url = root.appendingPathComponent(relative)
            do {
                try Data(bytes).write(to: url)
            } catch {
                throw StoreGeneratorError(message: "Can't write '\(url.path)': \(error.localizedDescription)")
            }
        }
    }
}
