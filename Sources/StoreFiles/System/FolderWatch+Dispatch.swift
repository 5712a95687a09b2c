#if canImport(Darwin)
import Darwin
import Dispatch

/// Apple platforms: a `DispatchSource` file-system object (kqueue `EVFILT_VNODE`) per folder, on a
/// descriptor opened with `O_EVTONLY` (it does not keep the volume from being unmounted).
/// `.write` on a folder means its entries changed (a document created, replaced by a rename, or
/// removed), without saying which: the folder is listed again. `.delete`, `.rename` or `.revoke`
/// means the folder itself went away or moved: it is watched again at its path, and everything listed.
final class DispatchSourceWatch: Sendable {
    private let folders: [String]
    private let queue: DispatchQueue
    private let handler: @Sendable (FolderEvent) -> Void
    private let sources = LockedState<[String: any DispatchSourceFileSystemObject]>([:])

    /// Nil when the first folder (the store) can't be opened.
    init?(_ folders: [String], queue: DispatchQueue, handler: @escaping @Sendable (FolderEvent) -> Void) {
        self.folders = folders
        self.queue = queue
        self.handler = handler
        guard watch(folders[0]) else { return nil }
        for folder in folders.dropFirst() { _ = watch(folder) }
    }

    func cancel() {
        for source in sources.withLock({ map in
            defer { map = [:] }; return Array(map.values)
        }) { source.cancel() }
    }

    /// Starts a source for `folder`; false when it can't be opened (it does not exist yet).
    private func watch(_ folder: String) -> Bool {
        let fd = open(folder, O_EVTONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: [.write, .delete, .rename, .revoke], queue: queue)
        source.setEventHandler { [self] in
            if source.data.isDisjoint(with: [.delete, .rename, .revoke]) {
                handler(watchMissing() ? .everything : .folder(folder))
            } else {
                source.cancel()
                sources.withLock { $0[folder] = nil }
                _ = watchMissing()
                handler(.everything)
            }
        }
        source.setCancelHandler { close(fd) }
        sources.withLock { $0[folder] = source }
        source.resume()
        return true
    }

    /// Watches the folders that have no source (created or replaced since); true when one was added.
    private func watchMissing() -> Bool {
        var added = false
        for folder in folders where sources.withLock({ $0[folder] == nil }) {
            if watch(folder) { added = true }
        }
        return added
    }
}
#endif
