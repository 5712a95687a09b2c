import Dispatch
import Foundation

/// The fallback where no file-change notification can be set up: every `interval`, `lstat` each
/// folder and report it when its inode, modification or change time differs from the last poll,
/// or its modification time is under 2 seconds old (see `ChangeNotification.polling`). Replacing,
/// creating or removing a document changes its folder's modification time (the folder's entries
/// change); writing a file in place does not, and the store's writers never do.
final class PollingWatch: Sendable {
    /// The interval of `ChangeNotification.automatic` when it falls back to polling: 500 ms.
    static let defaultInterval: Duration = .milliseconds(500)
    /// A folder modified less than this long ago is listed again at each poll.
    static let recentWindow: Int64 = 2_000_000_000

    private let timer: SendableSource

    init(
        _ folders: [String], interval: Duration, queue: DispatchQueue, system: SystemCalls,
        handler: @escaping @Sendable (FolderEvent) -> Void
    ) {
        let last = LockedState<[String: Stamp]>(Dictionary(uniqueKeysWithValues: folders.map { ($0, Self.stamp($0, system)) }))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        self.timer = SendableSource(source: timer)
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(max(nanoseconds, 1_000_000)))
        timer.setEventHandler {
            let now = Int64(Date().timeIntervalSince1970 * 1e9)
            var everything = false
            var changed: [String] = []
            for folder in folders {
                let stamp = Self.stamp(folder, system)
                let before = last.withLock { map in
                    defer { map[folder] = stamp }; return map[folder] ?? .absent
                }
                switch (before, stamp) {
                case (.absent, .absent): continue
                case (.present(let old), .present(let new)) where old.inode == new.inode:
                    if old != new || now - new.modified < Self.recentWindow { changed.append(folder) }
                default: everything = true  // created, removed, replaced or unreadable
                }
            }
            if everything { handler(.everything) } else { for folder in changed { handler(.folder(folder)) } }
        }
        timer.resume()
    }

    func cancel() { timer.source.cancel() }

    /// What one poll sees of a folder.
    enum Stamp: Sendable, Equatable {
        case absent
        case present(FileStatus)
        /// `lstat` failed otherwise: the listing will report why.
        case unreadable
    }

    static func stamp(_ folder: String, _ system: SystemCalls) -> Stamp {
        do {
            guard let status = try system.linkStatus(folder, context: ErrorContext("watch", folder)) else { return .absent }
            return .present(status)
        } catch {
            return .unreadable
        }
    }
}
