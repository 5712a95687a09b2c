import Foundation
import StoreJSON
import Testing

@testable import JSONStore
@testable import StoreCore

/// Issue 19: the `.writes` record is written in place (one `pwrite`, an `ftruncate`), not by temp
/// file and rename, and ends with a SHA-256 of the bytes before it, so that a record torn by a
/// crash or spliced from two concurrent writes does not parse and the next open checks in full.
@Suite struct WriteRecordInPlaceTests {
    static let entry = WriteRecord.Entry(
        device: 2049, inode: 77, size: 4096, modified: 1_700_000_000_123_456_789,
        changed: 1_700_000_000_223_456_789)
    static let recordA = WriteRecord(entries: [entry, nil, nil, entry], capturedAt: 1_700_000_005_000_000_000)
    static let recordB: WriteRecord = {
        var other = entry
        other.inode = 78_123
        other.modified += 9_000_001
        other.changed += 9_000_001
        return WriteRecord(entries: [other, nil, entry, nil], capturedAt: 1_700_000_006_100_000_000)
    }()

    static func recordPath(_ store: String) -> String { store + "/" + StoreLayout.Bookkeeping.writeRecord }

    static func inode(_ path: String) throws -> ino_t {
        var status = stat()
        try #require(lstat(path, &status) == 0, "lstat \(path): errno \(errno)")
        return status.st_ino
    }

    @Test func theFormatIsVersion3EndingWithTheSHA256OfTheBytesBeforeIt() throws {
        let bytes = Self.recordA.encoded
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("jsonstore-writes 3\ncaptured 1700000005000000000\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 + WriteRecord.trackedNames.count + 2)  // + checksum line + the empty rest after the last newline
        let body = Array(lines.dropLast(2).joined(separator: "\n").utf8) + [UInt8(ascii: "\n")]
        #expect(lines[lines.count - 2] == "sha256 " + SHA256.hex(of: body))
        #expect(lines.last == "")
        #expect(WriteRecord(bytes: bytes) == Self.recordA)
        #expect(WriteRecord(bytes: Self.recordB.encoded) == Self.recordB)
    }

    /// The byte parser reads back every value the encoder can write, and nothing it does not
    /// write (each case below carries a correct checksum, so only the parser can refuse it).
    @Test func theParserReadsExactlyWhatTheEncoderWrites() {
        let extreme = WriteRecord.Entry(device: .max, inode: 0, size: .min, modified: -1, changed: .max)
        let record = WriteRecord(entries: [extreme, nil, nil, Self.entry], capturedAt: .min)
        #expect(WriteRecord(bytes: record.encoded) == record)
        func withChecksum(_ body: String) -> [UInt8] {
            Array(body.utf8) + Array("sha256 \(SHA256.hex(of: Array(body.utf8)))\n".utf8)
        }
        let good = String(decoding: Self.recordA.encoded.dropLast(WriteRecord.checksumLineLength), as: UTF8.self)
        #expect(WriteRecord(bytes: withChecksum(good)) == Self.recordA)
        let variants = [
            good.replacingOccurrences(of: "captured 1700000005000000000", with: "captured +1700000005000000000"),
            good.replacingOccurrences(of: "captured 1700000005000000000", with: "captured 17000000050000000000"),  // out of range
            good.replacingOccurrences(of: "captured 1700000005000000000", with: "captured -"),
            good.replacingOccurrences(of: " 2049 ", with: " -2049 "),  // a device is unsigned
            good.replacingOccurrences(of: " 2049 ", with: " 20x9 "),
            good.replacingOccurrences(of: "jsonstore-writes 3", with: "jsonstore-writes  3"),
            good.replacingOccurrences(of: "sessions absent", with: "sessions absent 1"),
            good.replacingOccurrences(of: "queue.json", with: "queue.jsom"),
            good + "extra\n",
            String(good.dropLast()),  // no final newline before the checksum
        ]
        for variant in variants {
            #expect(variant != good)
            #expect(WriteRecord(bytes: withChecksum(variant)) == nil, "parsed: \(variant)")
        }
    }

    @Test func aTruncatedRecordDoesNotParse() {
        let bytes = Self.recordA.encoded
        for length in 0..<bytes.count {
            #expect(WriteRecord(bytes: Array(bytes.prefix(length))) == nil, "a record cut to \(length) of \(bytes.count) bytes parsed")
        }
    }

    @Test func aRecordWithOneByteFlippedDoesNotParse() {
        let bytes = Self.recordA.encoded
        for index in bytes.indices {
            for mask: UInt8 in [0x01, 0x20, 0x80] {
                var flipped = bytes
                flipped[index] ^= mask
                #expect(WriteRecord(bytes: flipped) == nil, "a record with byte \(index) xor \(mask) parsed")
            }
        }
    }

    /// Two processes writing in place at once: the file may hold the start of one record and the
    /// rest of the other (whichever `pwrite` and `ftruncate` came last), or a whole record
    /// followed by the other's tail.
    @Test func twoRecordsSplicedDoNotParse() {
        let a = Self.recordA.encoded, b = Self.recordB.encoded
        for (first, second) in [(a, b), (b, a)] {
            for cut in 1..<first.count {
                let spliced = Array(first.prefix(cut)) + Array(second.dropFirst(min(cut, second.count)))
                guard spliced != a && spliced != b else { continue }  // identical bytes are that record, whole
                #expect(WriteRecord(bytes: spliced) == nil, "a splice at \(cut) parsed")
                // The longer record's tail left after a shorter one (the last ftruncate was the longer one's).
                let withTail = first + Array(second.dropFirst(min(first.count, second.count)))
                if withTail != first { #expect(WriteRecord(bytes: withTail) == nil) }
            }
            #expect(WriteRecord(bytes: first + second) == nil)
        }
    }

    /// A record of the old format (version 2, no checksum) is simply not trusted: a full check, no error.
    @Test func aVersion2RecordMeansAFullCheckNotAnError() throws {
        let dir = TemporaryDirectory()
        let (path, ids) = try ConstantTimeOpenTests.populated(dir, count: 3)
        _ = try Store.open(at: path)
        let current = try WriteRecord.capture(store: path, system: .real)
        var lines = String(decoding: current.encoded, as: UTF8.self).split(separator: "\n").map(String.init)
        lines.removeLast()  // the checksum line
        lines[0] = "jsonstore-writes 2"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: Self.recordPath(path)))
        #expect(try WriteRecord.read(store: path, system: .real) == nil)
        #expect(try !WriteRecord.matches(store: path, system: .real))
        let calls = PathLoggingCalls()
        let store = try Store.open(at: path, options: Store.Options(), system: SystemCalls(calls: calls))
        #expect(calls.log.contains("readdir \(path)/sessions"), "the open did not check the store in full")
        #expect(store.warnings.isEmpty)
        // The full check found nothing to change and wrote a version-3 record, which the next open trusts.
        #expect(try WriteRecord.matches(store: path, system: .real))
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: Self.recordPath(path))), as: UTF8.self).hasPrefix("jsonstore-writes 3\n"))
        try store.updateWorkStream(ids[0]) { $0.fields.unreadCount = 4 }
        #expect(try WriteRecord.matches(store: path, system: .real))
    }

    @Test(arguments: ["truncated", "flipped", "spliced"])
    func aTornRecordMeansAFullCheckAtOpen(kind: String) throws {
        let dir = TemporaryDirectory()
        let (path, _) = try ConstantTimeOpenTests.populated(dir, count: 3)
        _ = try Store.open(at: path)
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: Self.recordPath(path))))
        #expect(try WriteRecord.matches(store: path, system: .real))
        let torn: [UInt8]
        switch kind {
        case "truncated": torn = Array(good.prefix(good.count - 20))
        case "flipped":
            var bytes = good
            bytes[40] ^= 0x01
            torn = bytes
        default:  // the first half of the store's own record, the rest of another one
            let other = Self.recordB.encoded
            torn = Array(good.prefix(good.count / 2)) + Array(other.dropFirst(good.count / 2))
        }
        try Data(torn).write(to: URL(fileURLWithPath: Self.recordPath(path)))
        #expect(try WriteRecord.read(store: path, system: .real) == nil)
        let calls = PathLoggingCalls()
        let store = try Store.open(at: path, options: Store.Options(), system: SystemCalls(calls: calls))
        #expect(calls.log.contains("readdir \(path)/sessions"), "the open did not check the store in full")
        #expect(store.warnings.isEmpty)
        #expect(try WriteRecord.matches(store: path, system: .real))
    }

    /// The record keeps its inode across writes: no temp file, no rename, no inode freed.
    @Test func aWriteRewritesTheRecordInPlace() throws {
        let dir = TemporaryDirectory()
        let (path, ids) = try ConstantTimeOpenTests.populated(dir, count: 3)
        let inodeBefore = try Self.inode(Self.recordPath(path))
        let recordBefore = try #require(try WriteRecord.read(store: path, system: .real))
        let calls = PathLoggingCalls()
        let store = try Store.open(at: path, options: Store.Options(), system: SystemCalls(calls: calls))
        try store.updateWorkStream(ids[1]) { $0.fields.unreadCount = 9 }
        try store.setCustomName(ids[2], "renamed")
        #expect(try Self.inode(Self.recordPath(path)) == inodeBefore)
        let renames = calls.log.filter { $0.hasPrefix("rename ") }
        #expect(renames.count == 2, "\(renames)")  // the two documents'
        #expect(!renames.contains { $0.contains(StoreLayout.Bookkeeping.writeRecord) }, "\(renames)")
        // open reads it once; the first write reads it under the lock and writes it after; the
        // second only writes it (the record the first stored still matches: `WriterGate.lastStoredRecord`)
        #expect(calls.log.filter { $0.hasPrefix("open ") && $0.hasSuffix("/" + StoreLayout.Bookkeeping.writeRecord) }.count == 1 + 2 + 1)
        let recordAfter = try #require(try WriteRecord.read(store: path, system: .real))
        #expect(recordAfter != recordBefore)
        #expect(recordAfter.sameEntries(as: try WriteRecord.capture(store: path, system: .real)))
        #expect(try WriteRecord.matches(store: path, system: .real))
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasPrefix(AtomicFile.temporaryPrefix) }.isEmpty)
    }

    /// A longer file at the path (an older record, garbage) is cut to the new record's length.
    @Test func aLongerOldFileIsCutToTheRecord() throws {
        let dir = TemporaryDirectory()
        let (path, _) = try ConstantTimeOpenTests.populated(dir, count: 2)
        try Data(repeating: UInt8(ascii: "x"), count: 3000).write(to: URL(fileURLWithPath: Self.recordPath(path)))
        let inodeBefore = try Self.inode(Self.recordPath(path))
        try Self.recordA.write(store: path, system: .real)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: Self.recordPath(path)))) == Self.recordA.encoded)
        #expect(try Self.inode(Self.recordPath(path)) == inodeBefore)
        #expect(try WriteRecord.read(store: path, system: .real) == Self.recordA)
    }

    /// The calls of one write: `open`, `pwrite`, `fstat`, `close`, and an `ftruncate` only over a
    /// longer file. A failure at any of them throws (`store(in:system:)` ignores it) and leaves
    /// either nothing that parses or the whole new record, never another one.
    @Test(arguments: [0, 100, 3000])
    func aWriteMakesTheseCallsAndAFailureAtAnyLeavesNoWrongRecord(oldLength: Int) throws {
        let dir = TemporaryDirectory()
        let (path, _) = try ConstantTimeOpenTests.populated(dir, count: 1)
        try FileManager.default.removeItem(atPath: Self.recordPath(path))
        if oldLength > 0 { plant(Self.recordPath(path), String(repeating: "x", count: oldLength)) }
        let faults = FaultInjectingCalls()
        try Self.recordA.write(store: path, system: .injecting(faults))
        let cut = oldLength > Self.recordA.encoded.count
        #expect(faults.log.map(\.kind) == ["open", "pwrite", "fstat"] + (cut ? ["ftruncate"] : []) + ["close"])
        #expect(try WriteRecord.read(store: path, system: .real) == Self.recordA)

        var runs = 0
        for errno in [EIO, ENOSPC] {
            runs += try forEveryCall(failing: .error(errno)) { faults, _ in
                if oldLength > 0 {
                    plant(Self.recordPath(path), String(repeating: "x", count: oldLength))
                } else if FileManager.default.fileExists(atPath: Self.recordPath(path)) {
                    try FileManager.default.removeItem(atPath: Self.recordPath(path))
                }
                do {
                    try Self.recordB.write(store: path, system: .injecting(faults))
                    #expect(try WriteRecord.read(store: path, system: .real) == Self.recordB)
                } catch let error as StoreError {
                    #expect(error.errno == errno, "\(error)")
                    // Nothing that parses, or the whole new record (a failure after a `pwrite` that
                    // left exactly it: `fstat` or `close`, or `ftruncate`'s caller never got there).
                    let left = try WriteRecord.read(store: path, system: .real)
                    #expect(left == nil || left == Self.recordB, "\(faults.log)")
                    if left == Self.recordB { #expect(faults.succeeded("pwrite") && (!cut || faults.succeeded("ftruncate")), "\(faults.log)") }
                }
            }
        }
        #expect(runs == 2 * (cut ? 5 : 4))
    }

    /// A record created by the write has mode 0600, as the temp file had before.
    @Test func aNewRecordIsCreatedWithMode0600() throws {
        let dir = TemporaryDirectory()
        let (path, _) = try ConstantTimeOpenTests.populated(dir, count: 1)
        try FileManager.default.removeItem(atPath: Self.recordPath(path))
        try Self.recordA.write(store: path, system: .real)
        #expect(try StoreFixtures.mode(Self.recordPath(path)) == 0o600)
        #expect(try WriteRecord.read(store: path, system: .real) == Self.recordA)
    }

    /// A symbolic link at the path is not followed (its target is left as it is), and a FIFO does
    /// not block the write: both fail, which `store(in:system:)` ignores (the next open checks in full).
    @Test func aSymlinkOrFIFOAtThePathIsNotWrittenThrough() throws {
        let dir = TemporaryDirectory()
        let (path, _) = try ConstantTimeOpenTests.populated(dir, count: 1)
        let target = dir("elsewhere")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.removeItem(atPath: Self.recordPath(path))
        try FileManager.default.createSymbolicLink(atPath: Self.recordPath(path), withDestinationPath: target)
        #expect(throws: StoreError.self) { try Self.recordA.write(store: path, system: .real) }
        Self.recordA.store(in: path, system: .real)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("keep".utf8))
        #expect(try WriteRecord.read(store: path, system: .real) == nil)

        try FileManager.default.removeItem(atPath: Self.recordPath(path))
        try #require(mkfifo(Self.recordPath(path), 0o600) == 0)
        #expect(throws: StoreError.self) { try Self.recordA.write(store: path, system: .real) }  // ENXIO: no reader, no wait
        #expect(try WriteRecord.read(store: path, system: .real) == nil)
    }
}
