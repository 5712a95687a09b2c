import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One entry of a ``snapshot(_:includingRoot:sourceLocation:)``: its bytes (see ``tree(_:dotNames:everyKind:sourceLocation:)``)
/// and its modification time in nanoseconds since 1970.
public struct TreeEntry: Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]
    public var modified: Int64

    public var description: String { "\(bytes.count) bytes, modified \(modified) ns" }
}

/// Every regular file under `root` by relative path (`sessions/a.json`), with its bytes. Never
/// follows a symbolic link, not even to a file, and never descends into one.
///
/// - `dotNames`: include names starting with a dot (left out by default, with all they hold).
/// - `everyKind`: list the other kinds of entry too: a folder as `path/` with no bytes, a symbolic
///   link as `link -> target`, anything else (FIFO, socket, device) as `special`.
///
/// A missing or unlistable `root` gives an empty tree. An entry that vanishes while the tree is
/// read is left out (trees of stores a child process is writing); a regular file that is still
/// there but can't be read is an issue at `sourceLocation`.
public func tree(
    _ root: String, dotNames: Bool = false, everyKind: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) -> [String: [UInt8]] {
    walk(root, dotNames: dotNames, everyKind: everyKind, includingRoot: false, sourceLocation: sourceLocation).mapValues(\.bytes)
}

/// Every entry under `root` of every kind, dot names included, with its bytes (as
/// ``tree(_:dotNames:everyKind:sourceLocation:)`` with both options) and modification time: to
/// prove a command changed nothing, not even a time. `includingRoot` adds `root` itself, as `""`.
public func snapshot(_ root: String, includingRoot: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) -> [String: TreeEntry] {
    walk(root, dotNames: true, everyKind: true, includingRoot: includingRoot, sourceLocation: sourceLocation)
}

// S_IFMT, S_IFDIR, S_IFREG, S_IFLNK are the same numbers everywhere (POSIX); spelled out because
// Glibc and Darwin import them with different types.
private let typeMask = 0o170000, folderType = 0o040000, fileType = 0o100000, linkType = 0o120000

private func walk(
    _ root: String, dotNames: Bool, everyKind: Bool, includingRoot: Bool,
    sourceLocation: SourceLocation
) -> [String: TreeEntry] {
    var result: [String: TreeEntry] = [:]
    func modified(_ status: stat) -> Int64 {
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
    func visit(_ relative: String) {
        let full = relative.isEmpty ? root : root + "/" + relative
        var status = stat()
        // The root is followed if it is a link (it names the tree); nothing under it is.
        guard (relative.isEmpty ? stat(full, &status) : lstat(full, &status)) == 0 else { return }  // vanished
        let kind = Int(status.st_mode) & typeMask
        switch kind {
        case folderType:
            if everyKind && !relative.isEmpty { result[relative + "/"] = TreeEntry(bytes: [], modified: modified(status)) }
        case fileType:
            if let data = FileManager.default.contents(atPath: full) {
                result[relative] = TreeEntry(bytes: Array(data), modified: modified(status))
            } else if lstat(full, &status) == 0 {
                Issue.record("tree: can't read '\(full)'", sourceLocation: sourceLocation)
            }
        case linkType:
            guard everyKind else { return }
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?"
            result[relative] = TreeEntry(bytes: Array("link -> \(target)".utf8), modified: modified(status))
        default:
            if everyKind { result[relative] = TreeEntry(bytes: Array("special".utf8), modified: modified(status)) }
        }
        guard kind == folderType, let names = try? FileManager.default.contentsOfDirectory(atPath: full) else { return }
        for name in names where dotNames || !name.hasPrefix(".") {
            visit(relative.isEmpty ? name : relative + "/" + name)
        }
    }
    visit("")
    if includingRoot {
        var status = stat()
        if stat(root, &status) == 0 { result[""] = TreeEntry(bytes: [], modified: modified(status)) }
    }
    return result
}

/// The names in a folder, sorted, dot names included; empty if it can't be listed.
public func folderNames(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}
