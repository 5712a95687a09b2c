import Foundation

/// Taking the next work stream off a queue in one step: the first entry a client shows is removed
/// by its list's removal rule (spec §5) and returned. The shipped app has no such call (the user
/// picks from the queue it shows); this is the library's, for an app or a helper that serves the
/// queue in order. Hidden entries are skipped and keep their place, as they do in the visible queue.
extension QueueV2 {
    /// Removes and returns the first FIFO entry that `isShown` accepts: the head of the queue as a
    /// client shows it. The entries after it move up one place (positions stay 1…n); the ones
    /// skipped keep theirs.
    ///
    /// ```swift
    /// let next = queue.takeNextFromFIFO(where: context.shows)   // nil when the queue shows nothing
    /// ```
    ///
    /// - Parameter isShown: Whether a client shows the work stream (see `QueueContext.shows`).
    /// - Returns: The entry taken, or nil when no entry is shown (nothing changes).
    public mutating func takeNextFromFIFO<E: Error>(where isShown: (UUID) throws(E) -> Bool) throws(E) -> FIFOEntry? {
        for index in fifo.indices {
            let entry = fifo[index]
            if try isShown(entry.workStreamID) {
                fifo.remove(at: index)
                return entry
            }
        }
        return nil
    }

    /// Removes and returns the most urgent priority entry that `isShown` accepts.
    ///
    /// Most urgent is first in queue order: the **lowest** `priority` number (1 is more urgent
    /// than 10; the app offers 1 "High", 5 "Medium" and 10 "Low"), then the lowest
    /// `priority_order` within that level (the earliest added, or where a drag put it), then id.
    /// The others keep their orders (removal renumbers nothing); the caller resets the removed
    /// work stream's mirror keys as for any removal (`QueueMirrorUpdate`).
    ///
    /// - Parameter isShown: Whether a client shows the work stream (see `QueueContext.shows`).
    /// - Returns: The entry taken, with the level and order it had, or nil when no entry is shown.
    public mutating func takeNextFromPriority<E: Error>(where isShown: (UUID) throws(E) -> Bool) throws(E) -> PriorityEntry? {
        for entry in priority {
            if try isShown(entry.workStreamID) {
                removeFromPriority(entry.workStreamID)
                return entry
            }
        }
        return nil
    }
}

extension QueueContext {
    /// True when a client shows this work stream in a queue that is on: it exists, the user did
    /// not delete it, and its provider session is not locked (spec §5).
    public func shows(_ id: UUID) -> Bool {
        reasons(for: id, enabled: true).isEmpty
    }
}
