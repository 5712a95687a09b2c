/// Writes canonical JSON (STORE-FORMAT.md §2) straight into bytes, for documents whose keys are
/// known in advance: no `JSONValue` tree, no dictionary per object, no sort per object.
///
/// A model lists its keys once in a ``KeyLayout`` (sorted by UTF-8 bytes when the layout is
/// built, with each member line's leading bytes precomputed), then writes its members in that
/// order. The object's unknown keys are merged in at their sorted places (nested containers in
/// their values are written by `JSONWriter`), so the bytes are exactly those of
/// `JSONWriter.document(model.json)`; the tests compare the two over a generated store, the
/// samples and random models.
///
/// ```swift
/// let bytes = CanonicalWriter.document(capacity: 256) { w in
///     w.object(Self.layout, unknown: unknown) { w, field in
///         switch field { case .id: w.uuid(id) /* … */ }
///     }
/// }
/// ```
///
/// The bytes are written through a pointer: into the returned array's own memory when the size
/// estimate holds, else into memory this writer allocates and frees (it is `~Copyable`, so
/// exactly one owner frees it). Appending through a pointer after one capacity check, and copying
/// strings a word at a time while scanning them for escapes, cost far fewer instructions than
/// `Array.append(contentsOf:)` for the short runs between the escapes of
/// message texts, and writing into the returned array saves copying each document once.
package struct CanonicalWriter: ~Copyable {
    /// The written bytes are `start[0..<count]`; `start` has room for `capacity` bytes.
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// How many bytes are written so far: the offset in the document of the next byte.
    package var position: Int { count }
    /// False while writing into the memory of the array ``document(capacity:_:)`` returns,
    /// which this writer must not free; true once the bytes outgrew it and moved to memory of
    /// this writer's own.
    private var ownsMemory: Bool

    /// A writer with a buffer of its own; the bytes are copied out by ``document()``.
    /// - Parameter capacity: The expected size in bytes; a good estimate avoids regrowing.
    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
        ownsMemory = true
    }

    /// A writer that starts in `memory` (not freed by the writer), and moves to memory of its
    /// own if the bytes outgrow it.
    private init(writingInto memory: UnsafeMutableBufferPointer<UInt8>) {
        start = memory.baseAddress!
        capacity = memory.count
        ownsMemory = false
    }

    deinit { if ownsMemory { start.deallocate() } }

    /// A document written by `body`, with the final newline: the bytes go straight into the
    /// returned array's memory when they fit in `capacity` bytes (an estimate on the high side),
    /// and are copied into it only when they outgrow it.
    package static func document(capacity: Int, _ body: (inout CanonicalWriter) -> Void) -> [UInt8] {
        var outgrown: [UInt8]?
        let bytes = [UInt8](unsafeUninitializedCapacity: max(capacity, 64)) { memory, initialized in
            var writer = CanonicalWriter(writingInto: memory)
            body(&writer)
            writer.append(0x0A)
            if writer.ownsMemory {
                outgrown = writer.copiedBytes()
                initialized = 0
            } else {
                initialized = writer.count
            }
        }
        return outgrown ?? bytes
    }

    /// The finished document: the bytes written so far and the final newline, as an array.
    consuming func document() -> [UInt8] {
        append(0x0A)
        return copiedBytes()
    }

    private func copiedBytes() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress!.initialize(from: start, count: count)
            initialized = count
        }
    }

    /// Room for `needed` more bytes: the address of the first, valid until the next write. The
    /// caller writes at most `needed` bytes there, then calls ``advance(_:)``.
    @inline(__always)
    mutating func reserve(_ needed: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity - count < needed { grow(needed) }
        return start + count
    }

    /// Marks `written` bytes at the address ``reserve(_:)`` returned as written.
    @inline(__always)
    mutating func advance(_ written: Int) {
        precondition(written >= 0 && written <= capacity - count, "CanonicalWriter: wrote past the reserved room")
        count += written
    }

    /// Moves the bytes to a buffer at least twice as large, with room for `needed` more.
    private mutating func grow(_ needed: Int) {
        let newCapacity = max(capacity * 2, count + needed)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.moveInitialize(from: start, count: count)
        if ownsMemory { start.deallocate() }
        start = newStart
        capacity = newCapacity
        ownsMemory = true
    }

    @inline(__always)
    package mutating func append(_ byte: UInt8) {
        reserve(1).initialize(to: byte)
        count += 1
    }

    @inline(__always)
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count).initialize(from: base, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    package mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// A quoted string, escaped as `JSONWriter.writeString` escapes it.
    package mutating func string(_ text: String) {
        // A native string lends its UTF-8 in place; only a bridged one is copied (`withUTF8`
        // needs a `var`, and copying the string into one costs a retain and a release).
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ string(utf8: $0) }) { return done }
        var text = text
        text.withUTF8 { string(utf8: $0) }
    }

    /// Copies `utf8` eight bytes at a time: each word is stored whole, then the count advances
    /// past the bytes before its first escape (all 8 when there is none; `JSONWriter.escapeHits`
    /// finds the first exactly), the escape is written, and the copy resumes after it. The last
    /// bytes (fewer than 8) go one at a time. (SIMD16 compares were tried instead: the SIMD
    /// operators compiled to scalar code here, nine times the instructions of this loop.)
    ///
    /// Room is reserved up front rather than per write. Invariant at the top of each loop: at
    /// least `(n - index) + 9` bytes are free: the rest of the string copied as it is, the
    /// closing quote, and 8 bytes for a word stored past its first escape. Every escape reserves
    /// its own 6 bytes plus the invariant for what follows it. Loads stay inside `utf8`.
    private mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        _ = reserve(n + 10)
        start[count] = UInt8(ascii: "\"")
        count += 1
        if let base = utf8.baseAddress {
            var index = 0
            while index + 8 <= n {
                assert(capacity - count >= n - index + 9)
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                UnsafeMutableRawPointer(start + count).storeBytes(of: word, as: UInt64.self)
                let hits = JSONWriter.escapeHits(UInt64(littleEndian: word))
                if hits == 0 {
                    count += 8
                    index += 8
                    continue
                }
                let clean = hits.trailingZeroBitCount / 8  // bytes before the first escape, in memory order
                count += clean
                escape(base[index + clean], remaining: n - (index + clean + 1))
                index += clean + 1
            }
            while index < n {
                assert(capacity - count >= n - index + 9)
                let byte = base[index]
                index += 1
                if JSONWriter.needsEscape(byte) {
                    escape(byte, remaining: n - index)
                } else {
                    start[count] = byte
                    count += 1
                }
            }
        }
        start[count] = UInt8(ascii: "\"")
        count += 1
    }

    /// Writes the escape of `byte`, keeping room for the `remaining` bytes of the string after it
    /// (see `string(utf8:)`).
    @inline(__always)
    private mutating func escape(_ byte: UInt8, remaining: Int) {
        let out = reserve(JSONWriter.longestEscape + remaining + 9)
        count += JSONWriter.writeEscape(byte, to: out)
    }
}
