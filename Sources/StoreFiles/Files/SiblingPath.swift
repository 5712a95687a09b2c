import Foundation

/// A folder the user named (a store, a backup destination), split into its parent folder and its
/// last path component, so that staging folders, journals and replaced copies can be made next
/// to it: on the same file system, where `rename(2)` is atomic.
///
/// ```swift
/// let target = try SiblingPath("/data/store/")
/// target.parent                          // "/data"
/// target.name                            // "store"
/// target.sibling(".store.restore-journal")  // "/data/.store.restore-journal"
/// ```
package struct SiblingPath: Sendable, Equatable {
    /// The path as the user gave it, without trailing slashes: used in messages.
    package let path: String
    /// The folder holding it (`"."` for a bare name).
    package let parent: String
    /// The last path component.
    package let name: String

    /// - Throws: `StoreError` `.invalidFileName` for an empty path, `/`, or a path ending in `.`
    ///   or `..`, which cannot be replaced by a rename.
    package init(_ given: String) throws(StoreError) {
        var trimmed = Substring(given)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let name = trimmed.split(separator: "/").last.map(String.init) ?? ""
        guard !name.isEmpty, name != ".", name != "..", trimmed != "/" else {
            throw StoreError(
                .invalidFileName,
                "'\(given)' can't be used here: give a folder path that ends with a name, such as './store'.",
                path: given)
        }
        self.path = String(trimmed)
        self.parent = Directories.parent(of: String(trimmed))
        self.name = name
    }

    /// `<parent>/<name>` for a sibling name (a single path component); just the name when the
    /// path had no folder part (`store` → `store.replaced-…`, not `./store.replaced-…`).
    package func sibling(_ name: String) -> String { path.contains("/") ? joinPath(parent, name) : name }
}

extension SiblingPath {
    /// True when this path is `folder` itself or lies inside it, after resolving symbolic links
    /// (of `folder`, and of this path's parent, since this path may not exist yet). Used to refuse
    /// a backup or an export written into the store it copies, which would put a foreign entry
    /// in the store, and a restore into the backup it reads.
    package func isInside(_ folder: String) -> Bool {
        let resolvedFolder = Self.resolved(folder)
        let resolvedSelf = Self.resolved(parent) + "/" + name
        return resolvedSelf == resolvedFolder || resolvedSelf.hasPrefix(resolvedFolder.hasSuffix("/") ? resolvedFolder : resolvedFolder + "/")
    }

    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
