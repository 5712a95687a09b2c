#if canImport(Glibc)
import Glibc
import Dispatch

/// Linux: one inotify instance (man 7 inotify) with a watch per folder, for entries created,
/// deleted, moved in or out, and closed after writing; a dispatch read source reads its events.
///
/// A store writer replaces a document by renaming a temp file over it (`IN_MOVED_TO` with the
/// document's name); the temp file's own events carry dot names, which the store ignores.
final class InotifyWatch: Sendable {
    private static let mask =
        UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO)
        | UInt32(IN_CLOSE_WRITE) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)
    /// `struct inotify_event` without its name: wd, mask, cookie, len (man 7 inotify).
    private static let headerSize = 16

    private let folders: [String]
    private let fd: Int32
    private let source: SendableSource
    /// Watch descriptor → the folder it watches.
    private let watched = LockedState<[Int32: String]>([:])

    /// Nil when no inotify instance can be had (`EMFILE`: the per-user limit, `fs.inotify.max_user_instances`).
    init?(_ folders: [String], queue: DispatchQueue, handler: @escaping @Sendable (FolderEvent) -> Void) {
        let fd = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.folders = folders
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        self.source = SendableSource(source: source)
        addWatches()
        // The handler keeps `self` until `cancel`: a cancelled source releases its handlers.
        source.setEventHandler { [self] in drain(handler) }
        source.setCancelHandler { close(fd) }
        source.resume()
    }

    func cancel() { source.source.cancel() }

    /// Watches every folder that exists (`inotify_add_watch` on a folder already watched returns
    /// its watch again). A folder that does not exist yet is added when its parent reports it.
    private func addWatches() {
        watched.withLock { map in
            for folder in folders {
                let wd = inotify_add_watch(fd, folder, Self.mask)
                if wd >= 0 { map[wd] = folder }
            }
        }
    }

    /// Reads every queued event (the descriptor is non-blocking) and reports them, names grouped by folder.
    private func drain(_ handler: (FolderEvent) -> Void) {
        var names: [String: Set<String>] = [:]
        var everything = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }  // EAGAIN: nothing more queued
            var offset = 0
            while offset + Self.headerSize <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    (
                        raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                        raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                        Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    )
                }
                let name = String(
                    decoding: buffer[(offset + Self.headerSize)..<min(count, offset + Self.headerSize + length)].prefix { $0 != 0 },
                    as: UTF8.self)
                offset += Self.headerSize + length
                if event(wd: wd, mask: mask, name: name, into: &names) { everything = true }
            }
        }
        if everything {
            addWatches()
            handler(.everything)
            return
        }
        for (folder, changed) in names { handler(.entries(folder: folder, names: changed)) }
    }

    /// Adds one event's name to `names`; true when every folder has to be listed again.
    private func event(wd: Int32, mask: UInt32, name: String, into names: inout [String: Set<String>]) -> Bool {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return true }
        if mask & (UInt32(IN_IGNORED) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 {
            // The folder was removed or moved away (a migration exchanging `sessions/`, a restore
            // swapping the store): stop following the old one; `addWatches` finds the new one.
            watched.withLock { map in
                if mask & UInt32(IN_MOVE_SELF) != 0 { _ = inotify_rm_watch(fd, wd) }
                map[wd] = nil
            }
            return true
        }
        guard let folder = watched.withLock({ $0[wd] }), !name.isEmpty else { return false }
        if folder == folders[0], folders.dropFirst().contains(where: { $0.hasSuffix("/" + name) }) { return true }
        names[folder, default: []].insert(name)
        return false
    }
}
#endif
