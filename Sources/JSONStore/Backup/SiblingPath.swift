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
struct SiblingPath: Sendable, Equatable {
    /// The path as the user gave it, without trailing slashes: used in messages.
    let path: String
    /// The folder holding it (`"."` for a bare name).
    let parent: String
    /// The last path component.
    let name: String

    /// - Throws: `StoreError` `.invalidFileName` for an empty path, `/`, or a path ending in `.`
    ///   or `..`, which cannot be replaced by a rename.
    init(_ given: String) throws(StoreError) {
        var trimmed = Substring(given)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let name = trimmed.split(separator: "/").last.map(String.init) ?? ""
        guard !name.isEmpty, name != ".", name != "..", trimmed != "/" else {
            throw StoreError(.invalidFileName,
                             "'\(given)' can't be used here: give a folder path that ends with a name, such as './store'.",
                             path: given)
        }
        self.path = String(trimmed)
        self.parent = Directories.parent(of: String(trimmed))
        self.name = name
    }

    /// `<parent>/<name>` for a sibling name (a single path component).
    func sibling(_ name: String) -> String { joinPath(parent, name) }
}
