#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who holds a flock, as Linux tells it in `/proc/locks` (man 5 proc): one line per lock,
///
///     1: FLOCK  ADVISORY  WRITE 6920 fe:00:16220882 0 EOF
///     2: -> FLOCK  ADVISORY  WRITE 7001 fe:00:16220882 0 EOF
///
/// the lock's kind, the process that took it, and the file as `major:minor:inode` (the device
/// numbers in hex, the inode in decimal); a line with `->` is a process waiting for that lock.
/// Elsewhere (Darwin) nothing tells the holder of a flock: `holders` answers nil.
enum ProcLocks {
    /// The processes holding a flock (shared or exclusive) on the file, from `/proc/locks`; nil when
    /// it can't be read (not Linux, no `/proc`).
    @Sendable static func holders(device: UInt64, inode: UInt64) -> [Int32]? {
        #if os(Linux)
        guard let text = read("/proc/locks") else { return nil }
        return holders(in: text, major: linuxMajor(device), minor: linuxMinor(device), inode: inode)
        #else
        return nil
        #endif
    }

    /// The holders `text` (the contents of `/proc/locks`) lists for the file: the process ids of
    /// its `FLOCK` lines that are not waiting (`->`), in the order listed. Ids of 0 or less (a
    /// process outside this pid namespace) are left out.
    static func holders(in text: String, major: UInt32, minor: UInt32, inode: UInt64) -> [Int32] {
        var pids: [Int32] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK" else { continue }  // a waiter has "->" in fields[1]
            let file = fields[5].split(separator: ":")
            guard file.count == 3, UInt32(file[0], radix: 16) == major, UInt32(file[1], radix: 16) == minor,
                UInt64(file[2]) == inode, let pid = Int32(fields[4]), pid > 0
            else { continue }
            pids.append(pid)
        }
        return pids
    }

    /// A process's command name (`/proc/<pid>/comm`, at most 15 characters), or nil.
    @Sendable static func commandName(_ pid: Int32) -> String? {
        #if os(Linux)
        guard let text = read("/proc/\(pid)/comm") else { return nil }
        let name = text.split(separator: "\n").first.map(String.init) ?? ""
        return name.isEmpty ? nil : name
        #else
        return nil
        #endif
    }

    /// glibc's `major(3)` of a `dev_t`: the device numbers `/proc/locks` prints.
    static func linuxMajor(_ device: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: ((device >> 8) & 0xfff) | ((device >> 32) & 0xffff_f000))
    }

    /// glibc's `minor(3)` of a `dev_t`.
    static func linuxMinor(_ device: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (device & 0xff) | ((device >> 12) & 0xffff_ff00))
    }

    #if os(Linux)
    /// The whole of a small `/proc` file (their size reads as 0: read to the end), or nil when it
    /// can't be opened or read: the caller then says it can't tell, which is the honest answer.
    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count < 4 << 20 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
    #endif
}
