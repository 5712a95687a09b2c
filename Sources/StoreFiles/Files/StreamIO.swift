#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes lines to a file descriptor in 64 KiB chunks, so an export streams to standard output
/// or a file without holding the whole store in memory.
///
/// The descriptor is borrowed, not owned: its owner (a `FileDescriptor`, or the process for
/// standard output) keeps it open while the writer is used, and closes it.
package final class LineWriter {
    private let fd: Int32
    private let context: ErrorContext
    private let system: SystemCalls
    private var buffer: [UInt8] = []
    /// Start write-back every this many bytes (nil: never); see `init`.
    private let writebackEvery: Int64?
    /// Bytes written so far, and how many of them write-back was started for.
    private var written: Int64 = 0
    private var writebackStarted: Int64 = 0

    /// - Parameter writebackEvery: For a file that is fsynced at the end: every this many bytes,
    ///   ask the kernel to start writing what was written so far (`SystemCalls.startWriteback`),
    ///   so that the disk works while the export computes and the final `fsync` has only the
    ///   tail to wait for (otherwise that `fsync` is most of the wait of a large export). The
    ///   default is nil: never (standard output, a pipe).
    package init(fd: Int32, context: ErrorContext, system: SystemCalls, writebackEvery: Int64? = nil) {
        self.fd = fd
        self.context = context
        self.system = system
        self.writebackEvery = writebackEvery
        buffer.reserveCapacity(64 * 1024)
    }

    /// Appends `line` and a newline; writes when the buffer is full.
    package func write(_ line: [UInt8]) throws(StoreError) {
        buffer.append(contentsOf: line)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 64 * 1024 { try flush() }
    }

    /// Writes what is buffered (retrying short writes and `EINTR`).
    package func flush() throws(StoreError) {
        guard !buffer.isEmpty else { return }
        try system.writeAll(fd, buffer, context: context)
        written += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
        if let every = writebackEvery, written - writebackStarted >= every {
            system.startWriteback(fd, offset: writebackStarted, length: written - writebackStarted)
            writebackStarted = written
        }
    }
}

/// Reads `\n`-terminated lines from a file descriptor (a file, a pipe, standard input), in
/// 64 KiB reads, so an import streams.
///
/// The descriptor is borrowed, not owned: its owner (a `FileDescriptor`, or the process for
/// standard input) keeps it open while the reader is used, and closes it.
package final class LineReader {
    /// One line without its newline, and whether it had one (false only for a last, cut-off line).
    package struct Line {
        package var bytes: ArraySlice<UInt8>
        package var terminated: Bool
    }

    private let fd: Int32
    private let limit: Int
    private let context: ErrorContext
    private let system: SystemCalls
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false

    /// - Parameter limit: The longest line accepted, in bytes.
    package init(fd: Int32, limit: Int, context: ErrorContext, system: SystemCalls) {
        self.fd = fd
        self.limit = limit
        self.context = context
        self.system = system
    }

    /// The next line; nil at the end of the input.
    ///
    /// - Throws: `StoreError` `.fileTooLarge` for a line longer than the limit, or the code of a
    ///   failed `read`.
    package func next() throws(StoreError) -> Line? {
        var scanned = 0  // bytes after `start` already searched for a newline
        while true {
            if let newline = buffer[(start + scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Line(bytes: buffer[start..<newline], terminated: true)
                start = newline + 1
                return line
            }
            scanned = buffer.count - start
            guard scanned <= limit else {
                throw StoreError(
                    .fileTooLarge,
                    "Can't import '\(context.path)': a line is longer than \(limit) bytes, more than "
                        + "any store document. The file is not an export.", path: context.path)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return Line(bytes: buffer[start...], terminated: false)
            }
            try fill()
        }
    }

    /// Reads one chunk, first dropping the lines already returned.
    private func fill() throws(StoreError) {
        if start > 0 {
            buffer.removeSubrange(..<start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            // withUnsafeMutableBytes rethrows untyped errors, so the typed one travels in a Result.
            let result = chunk.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) -> Int in try system.calls.system_read(fd, raw) }
            }
            switch result {
            case .success(0):
                atEnd = true
                return
            case .success(let count):
                buffer.append(contentsOf: chunk[..<count])
                return
            case .failure(let error) where error.rawValue == EINTR:
                continue
            case .failure(let error):
                throw .systemCall("read", errno: error.rawValue, context: context)
            }
        }
    }
}
