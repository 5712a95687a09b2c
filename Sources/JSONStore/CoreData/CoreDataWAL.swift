import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What SQLite will take from a `-wal` file, read the way SQLite's own recovery reads it
/// (sqlite.org/fileformat.html §4): a 32-byte header (magic, version 3007000, page size, salts,
/// a checksum), then frames of a 24-byte header and one page. Frames count while their salts
/// match the header's and their running checksum holds; SQLite applies them up to the last
/// commit frame among those and ignores the rest (an unfinished transaction, a cut file, or
/// frames of an earlier generation that a checkpoint already copied into the main file).
///
/// Reading it first lets the import say whether the `-wal` was applied, and blame the `-wal`
/// (not the main file) when it is foreign or damaged.
struct CoreDataWAL: Sendable, Equatable {
    /// The file's size in bytes.
    let size: Int64
    /// Commit frames SQLite applies (0: none of the file is applied).
    let commits: Int
    /// Frames applied (up to the last commit frame).
    let frames: Int
    /// Bytes after the last applied frame, which SQLite ignores.
    var ignoredBytes: Int64 { size - (frames == 0 ? 0 : 32 + Int64(frames) * (24 + Int64(pageSize))) }
    let pageSize: Int

    /// Reads the `-wal` at `path` (the private copy) for the database `source` (as the user named
    /// it) of `databasePageSize` bytes a page.
    ///
    /// - Throws: `StoreError` `.corruptDocument` naming `shownPath` (the user's `-wal`) when the
    ///   file has something but no valid WAL header, or pages of another size than the database's
    ///   (a `-wal` of another database): SQLite would skip it in silence and lose its commits.
    static func read(_ path: String, shownPath: String, source: String, databasePageSize: Int, system: SystemCalls) throws(StoreError) -> CoreDataWAL {
        let context = ErrorContext("read", shownPath)
        let file = try FileDescriptor(opening: path, flags: O_RDONLY | O_CLOEXEC, system: system, context: context)
        let size = try file.status(context: context).size
        if size == 0 { return CoreDataWAL(size: 0, commits: 0, frames: 0, pageSize: databasePageSize) }
        let moveAside = "Move it aside to import the main file alone (its commits would be lost), or give the -wal that belongs to it."
        func refuse(_ what: String) -> StoreError {
            StoreError(.corruptDocument, "Can't import '\(source)': its -wal file '\(shownPath)' \(what). \(moveAside) Nothing was written.", path: shownPath)
        }
        let reader = ChunkReader(fd: file.rawValue, context: context)
        let header = try reader.read(32)
        guard header.count == 32 else { throw refuse("is cut short (\(size) bytes, shorter than a WAL file's 32-byte header)") }
        let magic = bigEndian(header, 0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683, bigEndian(header, 4) == 3_007_000 else {
            throw refuse("is not an SQLite WAL file (its first bytes are not a WAL header)")
        }
        let big = magic & 1 == 1
        var sums = checksum(header[0..<24], big: big, (0, 0))
        guard sums == (bigEndian(header, 24), bigEndian(header, 28)) else {
            throw refuse("is damaged (its header's checksum does not match)")
        }
        let raw = Int(bigEndian(header, 8)), pageSize = raw == 1 ? 65536 : raw
        guard pageSize == databasePageSize else {
            throw refuse("has pages of \(pageSize) bytes and the database \(databasePageSize): it belongs to another database")
        }
        let salts = (bigEndian(header, 16), bigEndian(header, 20))
        var frames = 0, commits = 0, read = 0
        while true {
            let frame = try reader.read(24 + pageSize)
            guard frame.count == 24 + pageSize, bigEndian(frame, 0) != 0, (bigEndian(frame, 8), bigEndian(frame, 12)) == salts else { break }
            let next = checksum(frame[24...], big: big, checksum(frame[0..<8], big: big, sums))
            guard next == (bigEndian(frame, 16), bigEndian(frame, 20)) else { break }
            sums = next
            read += 1
            if bigEndian(frame, 4) != 0 { frames = read; commits += 1 }
        }
        return CoreDataWAL(size: size, commits: commits, frames: frames, pageSize: pageSize)
    }

    /// The page size in an SQLite file's header (bytes 16–17; 1 means 65536).
    static func pageSize(header: [UInt8]) -> Int {
        let raw = Int(header[16]) << 8 | Int(header[17])
        return raw == 1 ? 65536 : raw
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    /// SQLite's WAL checksum: over 32-bit words, two at a time, in the byte order the magic names.
    private static func checksum(_ bytes: ArraySlice<UInt8>, big: Bool, _ start: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (s0, s1) = start
        var i = bytes.startIndex
        func word(_ at: Int) -> UInt32 {
            big
                ? UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
                : UInt32(bytes[at + 3]) << 24 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at])
        }
        while i + 8 <= bytes.endIndex {
            s0 = s0 &+ word(i) &+ s1
            s1 = s1 &+ word(i + 4) &+ s0
            i += 8
        }
        return (s0, s1)
    }
}

/// Reads a descriptor in pieces of an exact size (fewer bytes only at the end of the file).
private struct ChunkReader {
    let fd: Int32
    let context: ErrorContext

    func read(_ count: Int) throws(StoreError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                Glibc.read(fd, buffer.baseAddress! + filled, count - filled)
                #else
                Darwin.read(fd, buffer.baseAddress! + filled, count - filled)
                #endif
            }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                throw StoreError.systemCall("read", errno: code, context: context)
            }
            if n == 0 { break }
            filled += n
        }
        return Array(bytes[..<filled])
    }
}
