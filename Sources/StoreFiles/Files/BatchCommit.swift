#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One file of a batch: the complete new content of `directory/name`.
package struct FileChange: Sendable {
    package var directory: String
    package var name: String
    package var bytes: [UInt8]
    /// Permissions if the file does not exist yet. The default is `0o600`; an existing file keeps its mode.
    package var newFileMode: mode_t

    /// `directory/name`.
    package var path: String { joinPath(directory, name) }

    package init(directory: String, name: String, bytes: [UInt8], newFileMode: mode_t = 0o600) {
        self.directory = directory
        self.name = name
        self.bytes = bytes
        self.newFileMode = newFileMode
    }
}

/// Commits changes that span many files (a queue move mirrored into many sessions, a migration
/// step) with one fsync per file and one per directory, instead of a full `durableReplace` each.
///
/// The order, and what a crash at each point leaves (every file is always whole, old or new):
/// 1. Check every target (`lstat`: no symlinks, regular files only, remember modes) and open each
///    distinct directory. Crash: nothing changed.
/// 2. Write, fchmod, fsync and close a temp file for every change (as `AtomicFile` does).
///    Crash: every target old; some `.tmp-*` files, removed by the next sweep. Error: the temps
///    are removed, nothing was renamed.
/// 3. Rename the temps over their targets **in the order given**. Crash after k renames: the first
///    k targets are new, the rest old, the remaining temps are swept on the next open. Against a
///    process crash this order holds. Against power loss it does not: until step 4, the renames
///    of one batch may reach the disk in any subset. A file that must become durable only after
///    the others (`store.json`, last in a migration) goes in a separate, later commit.
///    Error at rename k: the first k targets are new (their directories are still fsynced), the
///    rest are old, their temps removed; the error says how far it got.
/// 4. fsync each distinct directory once. Error: every target holds its new content, but it
///    may not survive a power failure, so the batch is reported as failed.
///
/// Re-running the same batch after any failure finishes it: each file is simply rewritten.
package enum BatchCommit {
    /// Writes every change durably, renaming in the given order.
    ///
    /// - Parameter changes: The files, in rename order. Each target may appear only once.
    /// - Throws: `StoreError`; the message says how many files were replaced.
    package static func commit(_ changes: [FileChange], system: SystemCalls = .real) throws(StoreError) {
        guard let first = changes.first else { return }
        precondition(Set(changes.map(\.path)).count == changes.count, "BatchCommit: a target appears twice")
        let count = changes.count
        let noneReplaced = "none of the \(count) files of this change was replaced"

        // 1. Check targets, open directories.
        var modes: [mode_t] = []
        for change in changes {
            var context = ErrorContext("write", change.path)
            modes.append(
                try AtomicFile.intendedMode(
                    of: change.path, newFileMode: change.newFileMode, system: system, context: &context))
        }
        // Closed when this function returns or throws, in this order.
        var directories = FileDescriptors(system: system)
        let directoryPaths = uniqueDirectories(changes)
        for directory in directoryPaths {
            let context = ErrorContext("write", first.path, note: noneReplaced)
            directories.append(try AtomicFile.openDirectory(directory, system: system, context: context))
        }

        // 2. Write every temp file and make them durable.
        let temporaries = try writeTemporaries(
            changes, modes: modes, directories: directories,
            note: noneReplaced, system: system)

        // 3. Rename in order.
        for (index, change) in changes.enumerated() {
            do {
                try system.rename(
                    temporaries[index], to: change.path,
                    context: ErrorContext(
                        "write", change.path, note: partialNote(replaced: index, of: changes)))
            } catch {
                temporaries[index...].forEach(system.removeLeftover)
                // Make the renames that did happen durable too; the error below is what matters.
                for index in directories.indices {
                    do { try directories.sync(index, context: ErrorContext("sync", directoryPaths[index])) } catch {}
                }
                throw error
            }
        }

        // 4. fsync each directory once.
        let unconfirmed =
            "all \(count) files of this change were replaced but may not survive a power failure, "
            + "so the change is not confirmed"
        for index in directories.indices {
            try directories.sync(index, context: ErrorContext("write", directoryPaths[index], note: unconfirmed))
        }
    }

    /// From this many files on, one `syncfs(2)` replaces the per-file fsyncs where the platform has it.
    static let syncFileSystemThreshold = 8

    /// Writes a temp file for every change and makes them durable before any is renamed.
    ///
    /// Small batches fsync each file (as `AtomicFile` does). Larger ones write them all, then
    /// flush the file system once with `syncfs(2)`: one journal commit instead of one per file
    /// (measured on this machine's ext4: 500 files of 46 KB took 0.97 s with an fsync each,
    /// 0.06 s with one syncfs). Where `syncfs` is not available (Darwin, a test seam) each file
    /// is fsynced. On failure every temp file is removed and nothing is renamed.
    /// `directories[0]` is the folder of the first change (for `syncfs`).
    private static func writeTemporaries(
        _ changes: [FileChange], modes: [mode_t], directories: borrowing FileDescriptors,
        note: String, system: SystemCalls
    ) throws(StoreError) -> [String] {
        var files: [(path: String, context: ErrorContext)] = []
        var descriptors = FileDescriptors(system: system)  // of `files`, by index; none when `perFile`
        let perFile = changes.count < syncFileSystemThreshold
        do throws(StoreError) {
            for (change, mode) in zip(changes, modes) {
                let context = ErrorContext("write", change.path, note: note)
                if perFile {
                    let path = try AtomicFile.writeTemporary(
                        directory: change.directory, name: change.name, bytes: change.bytes,
                        mode: mode, system: system, context: context)
                    files.append((path, context))
                    descriptors.append(nil)
                } else {
                    let file = try AtomicFile.writeUnsynced(
                        directory: change.directory, name: change.name,
                        bytes: change.bytes, mode: mode, system: system, context: context)
                    files.append((file.path, context))
                    descriptors.append(file.descriptor)
                }
            }
            if !perFile, !(try directories.syncFileSystem(0, context: files[0].context)) {
                for index in files.indices { try descriptors.sync(index, context: files[index].context) }
            }
            for index in files.indices where descriptors.isOpen(index) {
                // close can report a deferred write error (NFS does); the content is not trusted then.
                try descriptors.close(index, context: files[index].context)
            }
        } catch {
            for index in files.indices {
                descriptors.discard(index)
                system.removeLeftover(files[index].path)
            }
            throw error
        }
        return files.map(\.path)
    }

    /// The directories of `changes`, each once, in order of first appearance.
    private static func uniqueDirectories(_ changes: [FileChange]) -> [String] {
        var seen = Set<String>()
        return changes.map(\.directory).filter { seen.insert($0).inserted }
    }

    /// "the first 3 of 12 files of this change were replaced (the last was '/s/x.json'); the others are unchanged"
    private static func partialNote(replaced: Int, of changes: [FileChange]) -> String {
        guard replaced > 0 else { return "none of the \(changes.count) files of this change was replaced" }
        return "the first \(replaced) of \(changes.count) files of this change were replaced "
            + "(the last was '\(changes[replaced - 1].path)'); the others are unchanged. "
            + "Run the same change again to finish it"
    }
}
