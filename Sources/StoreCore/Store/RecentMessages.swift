import Foundation
import Schema

/// The messages of the work streams a `Store` wrote last (current-version messages: it writes
/// `WorkStream` documents), each with the exact bytes it wrote for them (`EncodedMessages`), so that the next update of such a work stream compares those
/// bytes instead of parsing and decoding them, and copies them instead of encoding the messages
/// again when they did not change.
///
/// An entry is a fact about bytes ("these bytes decode to these messages"), not a copy of the
/// file: every update still reads the whole file under the lock, and a file another process
/// changed simply does not match and is parsed in full. So an entry can never be stale, only
/// useless; a failed write leaves nothing wrong behind.
///
/// At most `capacity` work streams and `maximumBytes` of message bytes are kept, the least
/// recently used going first: a client updates a few active work streams again and again.
final class RecentMessages: @unchecked Sendable {
    static let capacity = 8
    static let maximumBytes = 8 << 20

    private let lock = NSLock()
    // Guarded by `lock`.
    private var entries: [UUID: EncodedMessages<Message>] = [:]
    /// Least recently used first.
    private var order: [UUID] = []
    private var bytes = 0

    /// The entry of `id`, if kept.
    func messages(of id: UUID) -> EncodedMessages<Message>? {
        lock.guarded { entries[id] }
    }

    /// Keeps `messages` as the entry of `id`, or forgets the entry with nil.
    func remember(_ messages: EncodedMessages<Message>?, for id: UUID) {
        lock.guarded {
            if let old = entries.removeValue(forKey: id) {
                bytes -= old.bytes.count
                order.removeAll { $0 == id }
            }
            guard let messages, messages.bytes.count <= Self.maximumBytes else { return }
            while !order.isEmpty, order.count >= Self.capacity || bytes + messages.bytes.count > Self.maximumBytes {
                bytes -= entries.removeValue(forKey: order.removeFirst())!.bytes.count
            }
            entries[id] = messages
            order.append(id)
            bytes += messages.bytes.count
        }
    }

    /// How many work streams and message bytes are kept (for tests).
    var usage: (workStreams: Int, bytes: Int) {
        lock.guarded { (entries.count, bytes) }
    }
}
