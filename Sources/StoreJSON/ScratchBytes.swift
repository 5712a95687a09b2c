/// A growable byte buffer on a raw allocation, reused by the parser for every string that
/// contains escapes (the decoded text is built here, then copied once into a `String`).
///
/// Not a `[UInt8]`: its `append` checks uniqueness and capacity through generic code, about
/// 90 instructions per escape, and a message text has dozens of `\n`. Here an append is a
/// capacity check and a copy. The allocation is made by the first append: a parse without
/// escapes makes none.
final class ScratchBytes {
    /// The allocation (a valid pointer to nothing while `capacity` is 0): `capacity` bytes,
    /// of which the first `count` are initialized.
    private var base = UnsafeMutablePointer<UInt8>(bitPattern: MemoryLayout<UInt8>.alignment)!
    private var capacity = 0
    private(set) var count = 0

    deinit { if capacity > 0 { base.deallocate() } }

    /// Forgets the contents, keeping the allocation.
    @inline(__always)
    func removeAll() { count = 0 }

    /// Appends a copy of `source`.
    @inline(__always)
    func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let start = source.baseAddress, source.count > 0 else { return }
        reserve(source.count)
        (base + count).initialize(from: start, count: source.count)
        count += source.count
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// The bytes appended since the last `removeAll`, valid until the next change.
    @inline(__always)
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private func reserve(_ extra: Int) {
        if capacity - count < extra { grow(toAtLeast: count + extra) }
    }

    private func grow(toAtLeast needed: Int) {
        var newCapacity = max(capacity * 2, 256)
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        if capacity > 0 {
            newBase.initialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }
}
