import Schema

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Commits a whole folder of documents at once: the one way a migration replaces `sessions/`,
/// `user-sessions/` or the work streams' folder of the layout change (`AtomicFile` and
/// `BatchCommit` commit single documents; `StoreSwap` a whole store).
///
/// 1. **Stage**: a dot-named sibling (`staging`, ignored by readers, swept by `TempSweep` or the
///    next run) is created with the mode of the folder it replaces (``createStaging``) and filled
///    by the caller: new documents written unsynced, unchanged ones hard-linked in (``link``).
/// 2. **Durable**: one barrier (``makeDurable``): `syncfs` where the file system honours it
///    (`SystemCalls.syncFileSystem`), else an fsync of each new file, of the staging folder and of
///    the parent. Nothing is exchanged or renamed before the staged folder is on disk.
/// 3. **Into place**: ``exchange`` swaps it with the existing folder in one atomic step (the old
///    folder is then at the staging name), or ``rename`` gives it the name of a folder that does
///    not exist yet. The parent is then fsynced (``syncParent``), so the swap survives a power loss.
/// 4. **Retire**: the old folder, already out of sight, is removed (``removeFlatFolder``), or
///    taken out of sight first and then removed (``retire``).
///
/// A crash before step 3 leaves the old folder and a dot-named leftover; after it, the new
/// folder and a dot-named leftover: a reader sees the whole old folder or the whole new one.
package struct FolderCommit {
    /// The folder that holds both folders (the store).
    let parent: String
    /// The full path of the dot-named sibling the new folder is built in.
    package let staging: String
    let system: SystemCalls

    package init(in parent: String, staging name: String, system: SystemCalls) {
        precondition(StoreLayout.isBookkeeping(name), "FolderCommit: a staging folder is dot-named, so readers ignore it")
        self.parent = parent
        self.staging = joinPath(parent, name)
        self.system = system
    }

    /// Step 1: creates the staging folder with `permissions` (0700 while it is being set), and
    /// returns it open. A folder this created is removed again when its mode can't be set: on a
    /// throw nothing is left behind.
    package func createStaging(permissions: mode_t, context: ErrorContext) throws(StoreError) -> FileDescriptor {
        try system.makeDirectory(staging, mode: 0o700, context: context)
        do throws(StoreError) {
            let fd = try FileDescriptor(opening: staging, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, system: system, context: context)
            try fd.setPermissions(permissions, context: context)
            return fd
        } catch {
            system.removeDirectoryLeftover(staging)
            throw error
        }
    }

    /// Step 1: a hard link to `source` named `name` in the staging folder; false on a file system
    /// without links (or at a limit), where the caller commits file by file instead.
    package func link(_ source: String, as name: String) throws(StoreError) -> Bool {
        try Self.link(source, to: joinPath(staging, name), system: system)
    }

    /// A hard link; false where the file system refuses links (`EPERM`, `EXDEV`, `EMLINK`, `ENOTSUP`...).
    static func link(_ source: String, to target: String, system: SystemCalls) throws(StoreError) -> Bool {
        do {
            try system.hardLink(source, to: target, context: ErrorContext("write", target))
            return true
        } catch  where [EPERM, EXDEV, EMLINK, ENOTSUP, EOPNOTSUPP, ENOSYS].contains(error.errno ?? 0) {
            return false
        }
    }

    /// Step 2: one `syncfs` for everything written (links are folder entries: the barrier covers
    /// them), or, where it is not a barrier, an fsync of each of `newFiles` (the files written
    /// unsynced, wherever they are; an error names the file with `fileVerb`), of the staging
    /// folder and of the parent.
    ///
    /// `syncfs` reports the write-back errors of the files only through a descriptor opened
    /// before they were written (man 2 syncfs): pass the one ``createStaging`` returned when the
    /// new files were written into the staging folder after it.
    package func makeDurable(
        newFiles: some Sequence<String>, through fd: borrowing FileDescriptor, fileVerb: String = "write",
        context: ErrorContext
    ) throws(StoreError) {
        if try fd.syncFileSystem(context: context) { return }
        for path in newFiles {
            let fileContext = ErrorContext(fileVerb, path)
            try FileDescriptor(opening: path, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC, system: system, context: fileContext).sync(context: fileContext)
        }
        try fd.sync(context: context)
        try syncParent(context: context)
    }

    /// Step 2 for new files written before the staging folder was opened (temp files beside the
    /// documents, or staged before it): the one `syncfs` goes through `barrier`, a descriptor of
    /// the same file system opened before any of them was written, so that it reports their
    /// write-back errors (man 2 syncfs); where `syncfs` is not a barrier, each of `newFiles`, the
    /// staging folder and the parent are fsynced.
    package func makeDurable(
        newFiles: some Sequence<String>, barrier: borrowing FileDescriptor, fileVerb: String = "write",
        context: ErrorContext
    ) throws(StoreError) {
        if try barrier.syncFileSystem(context: context) { return }
        let fd = try FileDescriptor(opening: staging, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, system: system, context: context)
        try makeDurable(newFiles: newFiles, through: fd, fileVerb: fileVerb, context: context)
    }

    /// Step 3: exchanges the staging folder with `folder` (a sibling) in one atomic step. False,
    /// with nothing changed, where the platform or file system cannot; the caller then makes the
    /// exchange durable (``syncParent``) or commits file by file.
    package func exchange(with folder: String, context: ErrorContext) throws(StoreError) -> Bool {
        try system.exchange(staging, folder, context: context)
    }

    /// Step 3 for a folder that does not exist yet: the staging folder renamed `folder`, and the
    /// parent fsynced, so the new folder survives a power loss.
    package func rename(to folder: String, context: ErrorContext) throws(StoreError) {
        try system.rename(staging, to: folder, context: context)
        try NewFiles.syncDirectory(parent, system: system)
    }

    /// The end of step 3: the parent's entries made durable. If this fails after an exchange, the
    /// exchange may not be on disk: the old folder (at the staging name) must stay, for the
    /// sweep, which fsyncs the parent first.
    package func syncParent(context: ErrorContext) throws(StoreError) {
        try AtomicFile.openDirectory(parent, system: system, context: context).sync(context: context)
    }

    /// Step 4 for a folder still in sight: the existing `folder` (in `parent`) renamed `retired`
    /// (a dot-named sibling; a leftover of that name is removed first), the rename made durable,
    /// then the folder removed with everything in it. Readers stop seeing it at the rename, before
    /// its thousands of files are removed.
    package static func retire(
        _ folder: String, as retired: String, in parent: String, system: SystemCalls,
        context: ErrorContext
    ) throws(StoreError) {
        precondition(StoreLayout.isBookkeeping(retired), "FolderCommit: a retired folder is dot-named, so readers ignore it")
        let retiredPath = joinPath(parent, retired)
        if try system.linkStatus(retiredPath, context: context) != nil { try NewFiles.removeTree(retiredPath, system: system) }
        try system.rename(joinPath(parent, folder), to: retiredPath, context: context)
        try NewFiles.syncDirectory(parent, system: system)
        try NewFiles.removeTree(retiredPath, system: system)
    }

    /// Step 4 for a folder already out of sight, holding only files (what an exchange leaves):
    /// every file removed on several threads, listed 1,024 at a time so that memory does not grow
    /// with the store, then the folder, calling `removed` with each slice's count. A missing
    /// folder is not an error; the first failure is thrown.
    package static func removeFlatFolder(_ folder: String, system: SystemCalls, removed: (Int) -> Void) throws(StoreError) {
        let context = ErrorContext("remove", folder)
        guard try system.linkStatus(folder, context: context) != nil else { return }
        while true {
            let names = try system.listDirectory(folder, limit: 1024, including: { _ in true }, context: context).map(\.name)
            if names.isEmpty { break }
            let failure = ParallelFileOperations.run(count: names.count, system: system) { (index) throws(StoreError) in
                let path = joinPath(folder, names[index])
                try system.unlink(path, context: ErrorContext("remove", path))
            }
            if let failure { throw failure.error }
            removed(names.count)
        }
        try system.removeDirectory(folder, context: context)
    }
}
