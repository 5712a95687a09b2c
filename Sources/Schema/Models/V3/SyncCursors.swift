import StoreJSON

/// The sync cursors v3 adds to a work stream (spec §10): how far the app has merged the
/// provider's session, by message sequence number and by byte offset. Frozen.
public struct SyncCursors: Sendable, Hashable {
    /// Next message sequence number expected from the backend. The default is 0.
    public var nextSeq: Int64
    /// First sequence number received live, not from history. The default is 0.
    public var liveFromSeq: Int64
    /// Byte offset in the provider's session file merged so far. The default is 0.
    public var lastOffsetMerged: Int64
    /// The default is 0.
    public var liveFromOffset: Int64
    /// Signature of the provider's session file last read. The default is nil.
    public var lastFileSignature: String?

    public init(
        nextSeq: Int64 = 0, liveFromSeq: Int64 = 0, lastOffsetMerged: Int64 = 0, liveFromOffset: Int64 = 0,
        lastFileSignature: String? = nil
    ) {
        self.nextSeq = nextSeq; self.liveFromSeq = liveFromSeq; self.lastOffsetMerged = lastOffsetMerged
        self.liveFromOffset = liveFromOffset; self.lastFileSignature = lastFileSignature
    }

    /// Every cursor at its default: the app syncs the work stream from the start.
    public static let defaults = SyncCursors()

    /// The five keys, in spec order.
    public static let keys = ["next_seq", "live_from_seq", "last_offset_merged", "live_from_offset", "last_file_signature"]

    /// The value of each key as JSON, in the order of ``keys``.
    var values: [JSONValue] {
        [
            .number(JSONNumber(nextSeq)), .number(JSONNumber(liveFromSeq)), .number(JSONNumber(lastOffsetMerged)),
            .number(JSONNumber(liveFromOffset)), lastFileSignature.map { .string($0) } ?? .null,
        ]
    }

    /// Reads the five keys, each with its default when absent.
    init(reading r: inout ObjectReader) throws(SchemaError) {
        let counter: ClosedRange<Int64> = 0...Int64.max
        nextSeq = try r.int("next_seq", in: counter, default: 0)
        liveFromSeq = try r.int("live_from_seq", in: counter, default: 0)
        lastOffsetMerged = try r.int("last_offset_merged", in: counter, default: 0)
        liveFromOffset = try r.int("live_from_offset", in: counter, default: 0)
        lastFileSignature = try r.optionalString("last_file_signature")
    }
}
