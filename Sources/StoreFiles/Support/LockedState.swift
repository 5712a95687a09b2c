import Foundation

/// A value shared between threads, reached only through `withLock` (an `NSLock`): the mutable
/// state of the store's observation, which dispatch handlers and consuming tasks both touch.
package final class LockedState<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` on the value, holding the lock.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.guarded { try body(&value) }
    }
}
