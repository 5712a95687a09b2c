import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What this library last left in the parts of a store that the §7 reconcile reads, kept in
/// `<store>/.writes` (`StoreLayout.Bookkeeping.writeRecord`): the `lstat` of `sessions/`,
/// `user-sessions/` and `queue.json` (device, inode, size, modification and change time) taken
/// right after this library's last write, under the lock.
///
/// Opening for writing compares it with an `lstat` of the same four entries: four calls and one
/// small read, whatever the size of the store. When they are equal nobody changed those entries
/// since, so the store is as this library left it (reconciled) and open skips the reconcile and
/// the sweep of the document folders. Anything else (no record, a record that does not parse, a
/// difference, a timestamp that can't be trusted, see `isTrustworthy`) falls back to the full
/// check, which writes a new record when it finds nothing to change.
///
/// What it sees: an older writer (a v1 or v2 app, which knows nothing of the record) that writes a
/// document by temp file and rename, as the shipped app does (Core Data and atomic writes), creates
/// and renames an entry in `sessions/` (or renames over `queue.json`), which changes the folder's
/// modification and change time (or `queue.json`'s inode). A deletion changes the folder too. A
/// folder replaced (restore, import, a migration's exchange) has another inode.
///
/// What it cannot see: a document rewritten in place (`open(O_TRUNC)` + `write`) changes the file,
/// not its folder; the shipped app never writes that way. A rename by another program (one that
/// ignores the lock) while this library writes, between `Store.writing`'s check before the write
/// and its capture after: it is taken for the write's own change. And a rename in the same
/// timestamp tick as this library's own last change to the folder: the folder keeps the same times. File systems with whole-second times (HFS+, FAT, some network file systems) make
/// that tick a second; `isTrustworthy` therefore refuses a record whose whole-second times are
/// less than `racyWindow` older than the record. On nanosecond file systems (ext4, XFS, APFS,
/// tmpfs) the tick is the kernel's file-time clock (Linux: a few milliseconds at most).
///
/// The record is written without `fsync`: a record that is lost, empty or older after a power
/// loss disagrees with the folders this library's durable write changed (or they went back with
/// it), so the next open checks in full. It is only ever written when the record taken before
/// the write matched (see `Store.writing`), so it never vouches for a change it did not make.
///
/// It is written in place (`write(store:system:)`: one `pwrite` at offset 0, and an `ftruncate`
/// when the file was longer), not by temp file and rename: a rename frees the old file's inode on every write,
/// which ext4 truncates (and discards) synchronously. An in-place write can be torn: by a crash,
/// or by two processes storing their records at once (a group-commit writer stores its record
/// after it released the lock, `AfterLock`; `WriterGate` orders the records of one process only).
/// The record therefore ends with a SHA-256 of the bytes before it: a torn, truncated or spliced
/// record does not parse, and the next open checks in full. A reader may also catch a write half
/// done (`read` takes no lock against it): it reads no record, so an open checks in full and a
/// write (`Store.writing`) stores none.
package struct WriteRecord: Equatable, Sendable {
    /// One tracked entry as `lstat` reported it (the identity observation uses too); nil where it does not exist.
    typealias Entry = FileIdentity

    /// `sessions/`, `work-streams/`, `user-sessions/`, `queue.json`, in this order (`trackedNames`).
    var entries: [Entry?]
    /// When the entries were taken: nanoseconds since 1970 (the system clock).
    var capturedAt: Int64

    /// The entries a record keeps, relative to the store: the work-stream folders of both sides of
    /// the v4 ↔ v5 layout change (spec §12), so a record never vouches across it.
    static let trackedNames = StoreLayout.everyDocumentFolderName + [StoreLayout.queue]
    /// A whole-second timestamp this close to `capturedAt` may share its second with a later
    /// change: 2 s covers whole-second file systems and FAT's two seconds.
    static let racyWindow: Int64 = 2_000_000_000
    /// Version 3 added the checksum line; a record of an older version does not parse (full check).
    static let header = "jsonstore-writes 3"

    /// The tracked entries as they are now.
    static func capture(store: String, system: SystemCalls, now: Date = Date()) throws(StoreError) -> WriteRecord {
        var entries: [Entry?] = []
        for name in trackedNames {
            let path = joinPath(store, name)
            entries.append(try system.linkStatus(path, context: ErrorContext("check", path)).map(Entry.init))
        }
        return WriteRecord(entries: entries, capturedAt: Int64(now.timeIntervalSince1970 * 1e9))
    }

    /// This record with the entry of `name` taken again now (`lstat`), the others as they are:
    /// the record after a write that changed that entry only. A name that is not tracked changes
    /// no entry.
    func retaking(_ name: String, store: String, system: SystemCalls, now: Date = Date()) throws(StoreError) -> WriteRecord {
        guard let index = Self.trackedNames.firstIndex(of: name) else { return self }
        let path = joinPath(store, name)
        var record = self
        record.entries[index] = try system.linkStatus(path, context: ErrorContext("check", path)).map(Entry.init)
        record.capturedAt = Int64(now.timeIntervalSince1970 * 1e9)
        return record
    }

    /// True when the entries are the same (whenever they were taken).
    func sameEntries(as other: WriteRecord) -> Bool { entries == other.entries }

    /// False when a time can't tell a later change apart: 0 (a file system or seam that does not
    /// report it), later than the record, or a whole second less than `racyWindow` before it.
    var isTrustworthy: Bool {
        for entry in entries.compactMap({ $0 }) {
            for time in [entry.modified, entry.changed] {
                if time <= 0 || time > capturedAt { return false }
                if time % 1_000_000_000 == 0 && capturedAt - time < Self.racyWindow { return false }
            }
        }
        return true
    }

    /// True when the record of `store` reads, can be trusted, and equals the entries now: nobody
    /// changed what the reconcile reads since this library's last write. Four `lstat`s and one
    /// small read.
    static func matches(store: String, system: SystemCalls) throws(StoreError) -> Bool {
        guard let record = try read(store: store, system: system), record.isTrustworthy else { return false }
        return try capture(store: store, system: system).sameEntries(as: record)
    }

    /// Writes the record, or leaves the old one when that fails: the old one disagrees with the
    /// folders (they changed since, or it was not trusted), so the next open checks in full. A
    /// failure here therefore costs time only, and is not the caller's: its write is done and
    /// durable, and must not be reported as failed.
    /// Returns whether the record was written.
    @discardableResult
    func store(in store: String, system: SystemCalls) -> Bool {
        do {
            try write(store: store, system: system)
            return true
        } catch {
            // See above: a stale record is never trusted; nothing to report.
            return false
        }
    }

    // MARK: The file

    /// `jsonstore-writes 3`, `captured <ns>`, then one line per tracked name:
    /// `<name> <device> <inode> <size> <mtime ns> <ctime ns>` or `<name> absent`, then
    /// `sha256 <64 hex digits>`: the SHA-256 of every byte before that line.
    ///
    /// Built on the bytes (every update stores a record: built from joined `String`s it would be a
    /// measurable part of an update's CPU).
    var encoded: [UInt8] {
        let space = UInt8(ascii: " "), newline = UInt8(ascii: "\n")
        var out: [UInt8] = []
        out.reserveCapacity(512)
        out.append(contentsOf: Self.header.utf8)
        out.append(newline)
        out.append(contentsOf: "captured ".utf8)
        Self.appendDecimal(capturedAt, to: &out)
        out.append(newline)
        for (name, entry) in zip(Self.trackedNames, entries) {
            out.append(contentsOf: name.utf8)
            guard let entry else {
                out.append(contentsOf: " absent\n".utf8)
                continue
            }
            out.append(space); Self.appendDecimal(entry.device, to: &out)
            out.append(space); Self.appendDecimal(entry.inode, to: &out)
            out.append(space); Self.appendDecimal(entry.size, to: &out)
            out.append(space); Self.appendDecimal(entry.modified, to: &out)
            out.append(space); Self.appendDecimal(entry.changed, to: &out)
            out.append(newline)
        }
        let checksum = Self.checksumLine(of: out[...])
        out.append(contentsOf: checksum)
        return out
    }

    /// `value` in decimal as `String(value)` writes it: `-` first when negative, no leading zeros.
    static func appendDecimal<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits: a UInt64 has at most 20
        withUnsafeMutableBytes(of: &digits) { buffer in
            var end = buffer.count
            repeat {
                end -= 1
                buffer[end] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            out.append(contentsOf: buffer[end...])
        }
    }

    static let checksumPrefix = "sha256 "
    /// `checksumPrefix`, 64 hex digits, a newline.
    static let checksumLineLength = checksumPrefix.utf8.count + 64 + 1

    /// The record in `bytes`, or nil when they are not exactly one (then open checks in full):
    /// also when the checksum line is missing or does not match the bytes before it (a record torn
    /// by a crash or spliced from two concurrent in-place writes), or the header is another version's.
    ///
    /// Parsed on the UTF-8 bytes (every write reads the record under the lock: splitting it as
    /// `String`s would cost more CPU than decoding the document).
    init?(bytes: [UInt8]) {
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        guard bytes.count > Self.checksumLineLength else { return nil }
        let bodyEnd = bytes.count - Self.checksumLineLength
        let body = bytes[..<bodyEnd]
        guard body.last == newline, bytes[bodyEnd...].elementsEqual(Self.checksumLine(of: body)) else { return nil }
        let lines = body.dropLast().split(separator: newline, omittingEmptySubsequences: false)
        guard lines.count == 2 + Self.trackedNames.count, lines[0].elementsEqual(Self.header.utf8) else { return nil }
        let capturedFields = lines[1].split(separator: space)
        guard capturedFields.count == 2, capturedFields[0].elementsEqual("captured".utf8),
            let captured = Self.number(capturedFields[1], as: Int64.self)
        else { return nil }
        var entries: [Entry?] = []
        entries.reserveCapacity(Self.trackedNames.count)
        for (name, line) in zip(Self.trackedNames, lines.dropFirst(2)) {
            let fields = line.split(separator: space)
            guard let first = fields.first, first.elementsEqual(name.utf8) else { return nil }
            if fields.count == 2 && fields[1].elementsEqual("absent".utf8) { entries.append(nil); continue }
            guard fields.count == 6, let device = Self.number(fields[1], as: UInt64.self), let inode = Self.number(fields[2], as: UInt64.self),
                let size = Self.number(fields[3], as: Int64.self), let modified = Self.number(fields[4], as: Int64.self),
                let changed = Self.number(fields[5], as: Int64.self)
            else { return nil }
            entries.append(Entry(device: device, inode: inode, size: size, modified: modified, changed: changed))
        }
        self.init(entries: entries, capturedAt: captured)
    }

    /// `sha256 <hex of body>` and a newline: the record's last line.
    private static func checksumLine(of body: ArraySlice<UInt8>) -> [UInt8] {
        var line = Array(checksumPrefix.utf8)
        line.reserveCapacity(checksumLineLength)
        line.append(contentsOf: SHA256.hash(body).hexString.utf8)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// A decimal number as the encoder writes it (ASCII digits, `-` first for a negative signed
    /// value); nil for anything else or a value out of `T`'s range.
    private static func number<T: FixedWidthInteger>(_ text: ArraySlice<UInt8>, as _: T.Type) -> T? {
        var digits = text
        let negative = T.isSigned && digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: T = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = T(byte - UInt8(ascii: "0"))
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, carried) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowed, !carried else { return nil }
            value = next
        }
        return value
    }

    init(entries: [Entry?], capturedAt: Int64) {
        self.entries = entries; self.capturedAt = capturedAt
    }

    /// The record of `store`; nil when there is none or it does not parse (both mean: check in full).
    static func read(store: String, system: SystemCalls) throws(StoreError) -> WriteRecord? {
        let path = joinPath(store, StoreLayout.Bookkeeping.writeRecord)
        do {
            return WriteRecord(bytes: try FileReader.read(path, limit: 4096, system: system))
        } catch  where [.notFound, .fileTooLarge, .notARegularFile, .symlinkRefused].contains(error.code) {
            return nil  // no usable record: the caller checks in full, which replaces it
        }
    }

    /// Writes the record in place: open (created 0600 if absent), one `pwrite` at offset 0, then
    /// `ftruncate` to its length when `fstat` finds the file longer (an older, longer record),
    /// close. No `fsync`, no rename, so no inode is created or freed (see the type's discussion).
    /// The `fstat` spares the usual case an `ftruncate`, which ext4 runs as a truncate even when
    /// the size does not change (~5 µs against ~1 µs). Until then, or when a concurrent writer
    /// wrote between these calls, the file may hold the new record followed by another's tail, or
    /// a mix of two: neither parses. `O_NONBLOCK`: a FIFO put at the path fails the open instead of
    /// blocking it.
    func write(store: String, system: SystemCalls) throws(StoreError) {
        let target = joinPath(store, StoreLayout.Bookkeeping.writeRecord)
        let context = ErrorContext("record the writes of", target)
        let fd = try FileDescriptor(
            opening: target, flags: O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode: 0o600,
            system: system, context: context)
        let bytes = encoded
        try fd.writeAll(bytes, at: 0, context: context)
        if try fd.status(context: context).size > Int64(bytes.count) {
            try fd.truncate(to: Int64(bytes.count), context: context)
        }
        try fd.close(context: context)
    }

    /// Removes the record (a migration does, before its first write): the next open checks in full.
    package static func remove(store: String, system: SystemCalls) throws(StoreError) {
        WriterGate.of(store: store, system: system).forgetStoredRecord()
        let path = joinPath(store, StoreLayout.Bookkeeping.writeRecord)
        do {
            try system.unlink(path, context: ErrorContext("remove", path))
        } catch  where error.code == .notFound {
            return  // no record: nothing to remove
        }
    }
}
