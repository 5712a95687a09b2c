import Dispatch

/// What a `FolderWatch` reports, on its queue.
package enum FolderEvent: Sendable, Equatable {
    /// The entries of `folder` with these names were created, replaced, written, renamed or removed.
    case entries(folder: String, names: Set<String>)
    /// Something in `folder` changed; which entries is not known: list it again.
    case folder(String)
    /// Events may have been lost, or a watched folder was created, replaced or removed: list every folder again.
    case everything
}

/// How a `FolderWatch` learns of changes.
public enum ChangeNotification: Sendable, Hashable {
    /// The platform's file-change notifications: inotify on Linux, a `DispatchSource` file-system
    /// object (kqueue `EVFILT_VNODE`) per folder on Apple platforms; polling where neither can be
    /// set up (an inotify instance limit reached, a folder that can't be opened) or exists.
    case automatic
    /// Polling the folders every `interval`: a folder is listed again when its inode, modification
    /// or change time differs from the last poll, or its modification time is under 2 seconds old
    /// (a second change within one tick of a coarse clock leaves the time as it was). Sees every
    /// document a writer creates, replaces or removes, which is how the store always writes.
    case polling(interval: Duration)
}

/// Watches a few folders, not recursively, for entries created, replaced or removed, and calls
/// `handler` on `queue` with what changed. A folder that does not exist yet is watched once its
/// parent (one of the folders) reports it; a watched folder that is replaced is watched again.
///
/// The platform code is in `FolderWatch+Inotify.swift` (Linux), `FolderWatch+Dispatch.swift`
/// (Darwin) and `FolderWatch+Polling.swift` (everywhere).
package final class FolderWatch: Sendable {
    /// What this watch runs on.
    package enum Backend: String, Sendable { case inotify, dispatchSource, polling }

    package let backend: Backend
    private let stop: @Sendable () -> Void

    private init(backend: Backend, stop: @escaping @Sendable () -> Void) {
        self.backend = backend
        self.stop = stop
    }

    /// Starts watching `folders` (the first is the parent of the others).
    package static func start(
        _ folders: [String], notification: ChangeNotification, queue: DispatchQueue, system: SystemCalls,
        handler: @escaping @Sendable (FolderEvent) -> Void
    ) -> FolderWatch {
        if case .automatic = notification {
            #if canImport(Glibc)
            if let watch = InotifyWatch(folders, queue: queue, handler: handler) {
                return FolderWatch(backend: .inotify, stop: watch.cancel)
            }
            #elseif canImport(Darwin)
            if let watch = DispatchSourceWatch(folders, queue: queue, handler: handler) {
                return FolderWatch(backend: .dispatchSource, stop: watch.cancel)
            }
            #endif
        }
        let interval: Duration
        if case .polling(let given) = notification { interval = given } else { interval = PollingWatch.defaultInterval }
        let watch = PollingWatch(folders, interval: interval, queue: queue, system: system, handler: handler)
        return FolderWatch(backend: .polling, stop: watch.cancel)
    }

    /// Stops the watch and releases its descriptors. A handler call already queued may still run.
    package func cancel() { stop() }
}

/// A dispatch source, to be held by a `Sendable` watch.
struct SendableSource: @unchecked Sendable {
    // @unchecked: dispatch sources are thread-safe objects; Apple's Dispatch declares them
    // Sendable, swift-corelibs-libdispatch (Linux) does not yet.
    let source: any DispatchSourceProtocol
}
