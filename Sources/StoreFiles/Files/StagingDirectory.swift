#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new folder next to a target, `<parent>/.<name>.<purpose>-<16 hex>`, where a backup or a
/// restored store is built before it is renamed into place, so that the target never holds a
/// partial result.
///
/// The owner holds `flock(LOCK_EX)` on the folder for as long as it exists (the kernel drops it
/// when the process dies, even by SIGKILL). So a staging folder nobody holds a lock on is a
/// leftover of a crash, and `removeStale` may delete it; one that is locked is in use.
/// The dot keeps store readers and backups away from it (STORE-FORMAT §1).
package final class StagingDirectory {
    /// The folder's full path.
    package let path: String
    /// The folder, open and locked until `release`.
    private var descriptor: FileDescriptor?
    private let system: SystemCalls

    /// Creates and locks a new staging folder next to `target`.
    ///
    /// - Parameter purpose: `"staging"` for backups, `"restoring"` for restores and imports.
    /// - Throws: `StoreError` if the folder cannot be created (`.notFound` when the parent is
    ///   missing, `.permissionDenied`, `.noSpace`, ...).
    package init(besides target: SiblingPath, purpose: String, system: SystemCalls = .real) throws(StoreError) {
        let path = target.sibling(Self.prefix(for: target, purpose: purpose) + NewFiles.randomSuffix())
        try NewFiles.makeDirectory(path, system: system)
        let context = ErrorContext("lock", path)
        do throws(StoreError) {
            let fd = try FileDescriptor(opening: path, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, system: system, context: context)
            // On a throw, `fd` is closed here, before the folder is removed.
            guard try fd.tryLock(LOCK_EX, context: context) else {
                throw StoreError(.locked, "Can't use '\(path)': another process locked it.", path: path)
            }
            self.descriptor = consume fd
        } catch {
            system.removeDirectoryLeftover(path)
            throw error
        }
        self.path = path
        self.system = system
    }

    deinit { release() }

    /// `.<name>.<purpose>-`: what every staging folder of `target` starts with.
    package static func prefix(for target: SiblingPath, purpose: String) -> String { ".\(target.name).\(purpose)-" }

    /// The folder's name (its last path component).
    package var name: String { String(path.split(separator: "/").last ?? "") }

    /// Releases the lock (LOCK_UN, then close). Call after the folder was renamed into place.
    package func release() {
        guard let fd = descriptor.take() else { return }
        fd.unlock()
        fd.discard()
    }

    /// Makes the files written into the folder durable, at once where the platform allows it:
    /// Linux `syncfs(2)` on the folder's descriptor, which was opened before any file was written
    /// (so it also reports write-back errors of those files, man 2 syncfs), is one journal commit
    /// instead of one per file. Elsewhere (Darwin) each file is fsynced (`F_FULLFSYNC`).
    ///
    /// - Parameter files: Every file written with `NewFiles.write(sync: false)` or linked in.
    /// - Throws: `StoreError` of the failed sync: the files may not be on disk.
    package func makeDurable(_ files: [String]) throws(StoreError) {
        guard let synced = try descriptor?.syncFileSystem(context: ErrorContext("flush", path)) else {
            preconditionFailure("StagingDirectory: makeDurable after release")
        }
        if synced { return }
        for file in files {
            let context = ErrorContext("flush", file)
            let fileFD = try FileDescriptor(opening: file, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, system: system, context: context)
            try fileFD.sync(context: context)
        }
    }

    /// Removes the folder and everything in it, then releases the lock. Errors are ignored: this
    /// runs after another failure, and a leftover is removed by the next run (`removeStale`).
    ///
    /// - Warning: Deletes the staged files. Never call it after the folder was renamed into place.
    package func discard() {
        NewFiles.removeTreeLeftover(path, system: system)
        release()
    }

    /// Removes the staging folders of `target` left behind by crashed runs: every folder named
    /// `.<name>.<purpose>-*` that no process holds a lock on, except the names in `keeping`
    /// (a staging folder a restore journal still needs).
    ///
    /// - Warning: Deletes folders. Only this code's own staging folders match the pattern, and a
    ///   live owner always holds its lock, so only dead runs' partial copies are removed.
    /// - Returns: The paths removed.
    @discardableResult
    package static func removeStale(
        besides target: SiblingPath, purpose: String, keeping: Set<String> = [],
        system: SystemCalls = .real
    ) -> [String] {
        let prefix = Self.prefix(for: target, purpose: purpose)
        return removeStale(in: target.parent, system: system) { $0.hasPrefix(prefix) && !keeping.contains($0) }
    }

    /// Removes the staging folders of every backup `Backup.defaultDestination` names for `store`
    /// (`.<store>.backup-<time>.staging-*`) that no process holds a lock on: each default backup
    /// has a new name, so the sweep of one backup's own name never meets an earlier one's.
    package static func removeStaleDefaultBackups(of store: SiblingPath, system: SystemCalls = .real) -> [String] {
        let prefix = ".\(store.name).backup-"
        return removeStale(in: store.parent, system: system) { $0.hasPrefix(prefix) && $0.contains(".staging-") }
    }

    /// Removes each folder of `parent` whose name `matches` and that no process holds a lock on.
    package static func removeStale(in parent: String, system: SystemCalls, matches: (String) -> Bool) -> [String] {
        let entries: [DirectoryEntry]
        do { entries = try system.listDirectory(parent, context: ErrorContext("list", parent)) } catch { return [] }
        var removed: [String] = []
        for entry in entries where matches(entry.name) {
            let path = joinPath(parent, entry.name)
            // Never a link: O_NOFOLLOW|O_DIRECTORY fail on one, and it is left alone.
            guard
                let fd = try? FileDescriptor(
                    opening: path, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
                    system: system, context: ErrorContext("open", path))
            else { continue }
            guard (try? fd.tryLock(LOCK_EX, context: ErrorContext("lock", path))) == true else { continue }
            if (try? NewFiles.removeTree(path, system: system)) != nil { removed.append(path) }
        }
        return removed
    }
}
