import Foundation

/// A rule that keeps a work stream's messages to the newest ones: when a store with this rule
/// writes a work stream (`updateWorkStream`, `appendMessages`, and so every async write of them)
/// holding more than `threshold` messages, it keeps only the newest `keep`.
///
/// "Newest" is the end of the `messages` array: a work stream's messages are the locally kept tail
/// of the conversation, oldest first, and `appendMessages` adds at the end. The prune changes no
/// other key; `appendMessages` then sets `message_count` to the number of messages held (spec §5,
/// as the app counts after its own prune), and `updateWorkStream` leaves it as it is. A work stream
/// no write of this store touches keeps all its messages, and a store opened without a rule (the
/// default) never prunes.
///
/// ```swift
/// let store = try Store.open(at: path, options: Store.Options(messageRetention: .app))
/// ```
///
/// - Warning: Pruned messages are gone from the store: only the backend still has them.
public struct MessageRetention: Sendable, Hashable {
    /// How many messages a prune keeps.
    public var keep: Int
    /// A write prunes only when a work stream holds more messages than this.
    public var threshold: Int

    /// - Parameters:
    ///   - keep: How many of the newest messages to keep. At least 0.
    ///   - threshold: Prune only above this many; at least `keep`. Equal to `keep`, every write
    ///     prunes back to exactly `keep`; larger, a prune happens once every `threshold - keep`
    ///     appended messages (each prune rewrites the messages in full).
    public init(keep: Int, whenMoreThan threshold: Int) {
        precondition(keep >= 0 && threshold >= keep, "MessageRetention needs 0 <= keep (\(keep)) <= threshold (\(threshold))")
        self.keep = keep
        self.threshold = threshold
    }

    /// The shipped app's rule: once a work stream holds more than 60 messages, keep the newest 50.
    public static let app = MessageRetention(keep: 50, whenMoreThan: 60)

    /// Applies the rule to `messages`; returns how many were removed (the oldest).
    @discardableResult
    public func prune<Message>(_ messages: inout [Message]) -> Int {
        guard messages.count > threshold else { return 0 }
        let removed = messages.count - keep
        messages.removeFirst(removed)
        return removed
    }
}
