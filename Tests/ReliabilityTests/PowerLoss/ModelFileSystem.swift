import Foundation

@testable import JSONStore

/// One inode of the model: a file or a folder, each with what is durable (survives a power loss
/// for sure) and what is only in the page cache ("volatile").
struct ModelInode: Sendable, Hashable {
    var isDirectory: Bool
    var permissions: mode_t
    /// File content as the running system sees it.
    var data: [UInt8] = []
    /// File content as the disk holds it for sure (after the last `fsync` of the file).
    var durableData: [UInt8] = []
    /// Folder entries as the running system sees them: name → inode number.
    var entries: [String: Int] = [:]
    /// Folder entries as the disk holds them for sure (after the last `fsync` of the folder).
    var durableEntries: [String: Int] = [:]
    /// The entry changes since the last `fsync` of the folder, in order. Each operation is atomic
    /// (a `rename` replaces the target and removes the source together), but a crash may keep any
    /// subset of them (they may reach the disk in any order).
    var pending: [EntryOperation] = []

    var hasPendingData: Bool { !isDirectory && data != durableData }
}

/// One atomic change of a folder's entries: each name is set to an inode, or removed (nil).
struct EntryOperation: Sendable, Hashable {
    var changes: [(name: String, inode: Int?)]

    static func == (a: EntryOperation, b: EntryOperation) -> Bool {
        a.changes.map(\.name) == b.changes.map(\.name) && a.changes.map(\.inode) == b.changes.map(\.inode)
    }
    func hash(into hasher: inout Hasher) {
        for change in changes { hasher.combine(change.name); hasher.combine(change.inode) }
    }

    func apply(to entries: inout [String: Int]) {
        for change in changes { entries[change.name] = change.inode }
    }
}

/// The whole model disk: a value, so a snapshot after every call is a cheap copy.
struct ModelState: Sendable, Hashable {
    static let rootInode = 1
    var inodes: [Int: ModelInode] = [rootInode: ModelInode(isDirectory: true, permissions: 0o755)]
    var nextInode = 2

    /// Every regular file reachable from the root, by absolute path, as the running system sees it.
    /// Names starting with a dot are skipped when `includeDotNames` is false (readers skip them).
    func files(includeDotNames: Bool = false) -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        func walk(_ inode: Int, _ path: String) {
            guard let node = inodes[inode] else { return }
            for (name, child) in node.entries {
                if !includeDotNames && name.hasPrefix(".") { continue }
                let childPath = path == "/" ? "/" + name : path + "/" + name
                guard let childNode = inodes[child] else { continue }
                if childNode.isDirectory { walk(child, childPath) } else { out[childPath] = childNode.data }
            }
        }
        walk(Self.rootInode, "/")
        return out
    }

    /// Every folder reachable from the root, by absolute path.
    func directories() -> Set<String> {
        var out: Set<String> = ["/"]
        func walk(_ inode: Int, _ path: String) {
            guard let node = inodes[inode] else { return }
            for (name, child) in node.entries where inodes[child]?.isDirectory == true {
                let childPath = path == "/" ? "/" + name : path + "/" + name
                out.insert(childPath)
                walk(child, childPath)
            }
        }
        walk(Self.rootInode, "/")
        return out
    }

    /// The state as if everything had been fsynced: durable = volatile, nothing pending.
    var allDurable: ModelState {
        var copy = self
        for (number, node) in copy.inodes {
            var node = node
            node.durableData = node.data
            node.durableEntries = node.entries
            node.pending = []
            copy.inodes[number] = node
        }
        return copy
    }
}

/// An in-memory file system behind the fault seam that remembers what is durable, so a test can
/// cut the power after any call and look at every state the disk may then hold (see `CrashStates`).
///
/// - `write`, `pwrite`, `ftruncate` and `open(O_TRUNC)` change a file's volatile content;
///   `fsync` of the file makes it durable.
/// - `open(O_CREAT)`, `rename`, `unlink`, `link`, `mkdir`, `rmdir` change a folder's volatile
///   entries and queue an `EntryOperation`; `fsync` of the folder makes its entries durable.
/// - `flock` follows flock(2): locks belong to an open file; a conflicting `LOCK_NB` request
///   fails with `EWOULDBLOCK`.
///
/// After every call that changes the state, a snapshot is recorded (when `recording`), together
/// with how many operations of the workload had been acknowledged at that instant.
final class ModelFileSystem: FileSystemCalls, @unchecked Sendable {
    struct OpenFile {
        var inode: Int
        var offset: Int
        var writable: Bool
    }

    /// A snapshot: the state after a call, and the operations acknowledged by then.
    struct Snapshot: Sendable {
        var state: ModelState
        var acknowledged: Int
        var call: String
    }

    private let mutex = NSLock()
    private var state: ModelState
    private var open: [Int32: OpenFile] = [:]
    private var nextFD: Int32 = 3
    private var locks: [Int: (fd: Int32, exclusive: Bool, shared: Set<Int32>)] = [:]
    private var acknowledged = 0
    private(set) var recording = false
    private var snapshotList: [Snapshot] = []
    /// How many calls of each kind were made.
    private(set) var callCounts: [String: Int] = [:]

    init(_ state: ModelState = ModelState()) { self.state = state }

    // MARK: Test controls

    var current: ModelState { locked { state } }
    var snapshots: [Snapshot] { locked { snapshotList } }

    /// Starts recording a snapshot after every state-changing call; records the current state first.
    func startRecording() {
        locked {
            recording = true
            acknowledged = 0
            snapshotList = [Snapshot(state: state, acknowledged: 0, call: "start")]
        }
    }

    func stopRecording() { locked { recording = false } }

    /// The workload says: operation number `count` (1-based) has returned without error.
    /// Records a crash point right after the return, so a loss after the acknowledgement is checked.
    func acknowledge(_ count: Int) {
        locked {
            acknowledged = count
            changed("return of operation \(count)")
        }
    }

    /// Makes every change durable, as after a clean shutdown (test setup).
    func syncEverything() { locked { state = state.allDurable } }

    /// True when `fd` is an open folder (the mutants use it to tell file fsync from folder fsync).
    func isDirectory(_ fd: Int32) -> Bool {
        locked { open[fd].flatMap { state.inodes[$0.inode]?.isDirectory } ?? false }
    }

    /// Writes a file directly, durably, creating folders as needed (test setup, not recorded).
    func install(_ path: String, _ bytes: [UInt8]) {
        locked {
            var parent = ModelState.rootInode
            let parts = path.split(separator: "/").map(String.init)
            for name in parts.dropLast() {
                if let child = state.inodes[parent]!.entries[name] { parent = child; continue }
                let number = newInode(ModelInode(isDirectory: true, permissions: 0o700))
                state.inodes[parent]!.entries[name] = number
                parent = number
            }
            let number = newInode(ModelInode(isDirectory: false, permissions: 0o600, data: bytes))
            state.inodes[parent]!.entries[parts.last!] = number
            state = state.allDurable
        }
    }

    private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }

    private func newInode(_ node: ModelInode) -> Int {
        let number = state.nextInode
        state.nextInode += 1
        state.inodes[number] = node
        return number
    }

    /// Records a snapshot after a state-changing call.
    private func changed(_ call: String) {
        if recording { snapshotList.append(Snapshot(state: state, acknowledged: acknowledged, call: call)) }
    }

    private func count(_ call: String) { callCounts[call, default: 0] += 1 }

    // MARK: Paths

    /// The folder holding `path` and the last component. Throws ENOENT/ENOTDIR like the kernel.
    private func parentAndName(_ path: String) throws(Errno) -> (parent: Int, name: String) {
        let parts = path.split(separator: "/").map(String.init)
        guard path.hasPrefix("/"), let name = parts.last else { throw Errno(EINVAL) }
        var directory = ModelState.rootInode
        for component in parts.dropLast() {
            guard let child = state.inodes[directory]!.entries[component] else { throw Errno(ENOENT) }
            guard state.inodes[child]!.isDirectory else { throw Errno(ENOTDIR) }
            directory = child
        }
        return (directory, name)
    }

    private func lookup(_ path: String) throws(Errno) -> Int {
        if path == "/" { return ModelState.rootInode }
        let (parent, name) = try parentAndName(path)
        guard let inode = state.inodes[parent]!.entries[name] else { throw Errno(ENOENT) }
        return inode
    }

    private func record(_ directory: Int, _ changes: [(name: String, inode: Int?)]) {
        let operation = EntryOperation(changes: changes)
        operation.apply(to: &state.inodes[directory]!.entries)
        state.inodes[directory]!.pending.append(operation)
    }

    private func status(_ inode: Int) -> FileStatus {
        let node = state.inodes[inode]!
        let type: mode_t = node.isDirectory ? 0o040000 : 0o100000
        return FileStatus(mode: type | node.permissions, size: Int64(node.data.count), device: 7, inode: UInt64(inode))
    }

    private func file(_ fd: Int32) throws(Errno) -> OpenFile {
        guard let file = open[fd] else { throw Errno(EBADF) }
        return file
    }

    // MARK: FileSystemCalls

    func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        try locked { () throws(Errno) -> Int32 in
            count("open")
            let access = flags & O_ACCMODE
            let (parent, name) = path == "/" ? (0, "") : try parentAndName(path)
            var inode: Int
            if let existing = path == "/" ? ModelState.rootInode : state.inodes[parent]!.entries[name] {
                if flags & O_CREAT != 0 && flags & O_EXCL != 0 { throw Errno(EEXIST) }
                let node = state.inodes[existing]!
                if flags & O_DIRECTORY != 0 && !node.isDirectory { throw Errno(ENOTDIR) }
                if node.isDirectory && access != O_RDONLY { throw Errno(EISDIR) }
                inode = existing
                if flags & O_TRUNC != 0 && access != O_RDONLY && !state.inodes[inode]!.data.isEmpty {
                    state.inodes[inode]!.data = []
                    changed("open(O_TRUNC) \(path)")
                }
            } else {
                guard flags & O_CREAT != 0 else { throw Errno(ENOENT) }
                inode = newInode(ModelInode(isDirectory: false, permissions: mode & 0o7777))
                record(parent, [(name, inode)])
                changed("open(O_CREAT) \(path)")
            }
            let fd = nextFD
            nextFD += 1
            open[fd] = OpenFile(inode: inode, offset: 0, writable: access != O_RDONLY)
            return fd
        }
    }

    func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try locked { () throws(Errno) -> Int in
            count("read")
            var handle = try file(fd)
            let node = state.inodes[handle.inode]!
            if node.isDirectory { throw Errno(EISDIR) }
            let available = max(0, node.data.count - handle.offset)
            let n = min(available, buffer.count)
            if n > 0 {
                node.data.withUnsafeBytes { source in
                    buffer.baseAddress!.copyMemory(from: source.baseAddress! + handle.offset, byteCount: n)
                }
            }
            handle.offset += n
            open[fd] = handle
            return n
        }
    }

    private func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, at offset: Int?) throws(Errno) -> Int {
        var handle = try file(fd)
        guard handle.writable else { throw Errno(EBADF) }
        let start = offset ?? handle.offset
        var data = state.inodes[handle.inode]!.data
        if data.count < start { data += [UInt8](repeating: 0, count: start - data.count) }
        let end = start + buffer.count
        if data.count < end { data += [UInt8](repeating: 0, count: end - data.count) }
        data.replaceSubrange(start..<end, with: buffer)
        state.inodes[handle.inode]!.data = data
        if offset == nil {
            handle.offset = end
            open[fd] = handle
        }
        return buffer.count
    }

    func system_write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try locked { () throws(Errno) -> Int in
            count("write")
            let n = try write(fd, buffer, at: nil)
            changed("write")
            return n
        }
    }

    func system_pwrite(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ offset: Int64) throws(Errno) -> Int {
        try locked { () throws(Errno) -> Int in
            count("pwrite")
            let n = try write(fd, buffer, at: Int(offset))
            changed("pwrite")
            return n
        }
    }

    func system_fsync(_ fd: Int32) throws(Errno) {
        try locked { () throws(Errno) in
            count("fsync")
            let inode = try file(fd).inode
            var node = state.inodes[inode]!
            if node.isDirectory {
                node.durableEntries = node.entries
                node.pending = []
            } else {
                node.durableData = node.data
            }
            state.inodes[inode] = node
            changed(node.isDirectory ? "fsync(folder)" : "fsync(file)")
        }
    }

    func system_fchmod(_ fd: Int32, _ mode: mode_t) throws(Errno) {
        try locked { () throws(Errno) in
            count("fchmod")
            let inode = try file(fd).inode
            state.inodes[inode]!.permissions = mode & 0o7777
        }
    }

    func system_fstat(_ fd: Int32) throws(Errno) -> FileStatus {
        try locked { () throws(Errno) -> FileStatus in
            count("fstat")
            return status(try file(fd).inode)
        }
    }

    func system_lstat(_ path: String) throws(Errno) -> FileStatus {
        try locked { () throws(Errno) -> FileStatus in
            count("lstat")
            return status(try lookup(path))
        }
    }

    func system_rename(_ from: String, _ to: String) throws(Errno) {
        try locked { () throws(Errno) in
            count("rename")
            let (sourceParent, sourceName) = try parentAndName(from)
            let (targetParent, targetName) = try parentAndName(to)
            guard let inode = state.inodes[sourceParent]!.entries[sourceName] else { throw Errno(ENOENT) }
            if let existing = state.inodes[targetParent]!.entries[targetName] {
                let sourceIsDirectory = state.inodes[inode]!.isDirectory
                let targetIsDirectory = state.inodes[existing]!.isDirectory
                if targetIsDirectory && !sourceIsDirectory { throw Errno(EISDIR) }
                if !targetIsDirectory && sourceIsDirectory { throw Errno(ENOTDIR) }
                if targetIsDirectory && !state.inodes[existing]!.entries.isEmpty { throw Errno(ENOTEMPTY) }
                if existing == inode { return }
            }
            if sourceParent == targetParent {
                record(targetParent, [(targetName, inode), (sourceName, nil)])
            } else {
                record(targetParent, [(targetName, inode)])
                record(sourceParent, [(sourceName, nil)])
            }
            changed("rename \(from) -> \(to)")
        }
    }

    func system_unlink(_ path: String) throws(Errno) {
        try locked { () throws(Errno) in
            count("unlink")
            let (parent, name) = try parentAndName(path)
            guard let inode = state.inodes[parent]!.entries[name] else { throw Errno(ENOENT) }
            if state.inodes[inode]!.isDirectory { throw Errno(EISDIR) }
            record(parent, [(name, nil)])
            changed("unlink \(path)")
        }
    }

    func system_mkdir(_ path: String, _ mode: mode_t) throws(Errno) {
        try locked { () throws(Errno) in
            count("mkdir")
            let (parent, name) = try parentAndName(path)
            if state.inodes[parent]!.entries[name] != nil { throw Errno(EEXIST) }
            let inode = newInode(ModelInode(isDirectory: true, permissions: mode & 0o7777))
            record(parent, [(name, inode)])
            changed("mkdir \(path)")
        }
    }

    func system_rmdir(_ path: String) throws(Errno) {
        try locked { () throws(Errno) in
            count("rmdir")
            let (parent, name) = try parentAndName(path)
            guard let inode = state.inodes[parent]!.entries[name] else { throw Errno(ENOENT) }
            guard state.inodes[inode]!.isDirectory else { throw Errno(ENOTDIR) }
            guard state.inodes[inode]!.entries.isEmpty else { throw Errno(ENOTEMPTY) }
            record(parent, [(name, nil)])
            changed("rmdir \(path)")
        }
    }

    func system_close(_ fd: Int32) throws(Errno) {
        try locked { () throws(Errno) in
            count("close")
            guard let handle = open.removeValue(forKey: fd) else { throw Errno(EBADF) }
            releaseLock(fd, inode: handle.inode)
        }
    }

    private func releaseLock(_ fd: Int32, inode: Int) {
        guard var lock = locks[inode] else { return }
        if lock.fd == fd { lock.fd = -1; lock.exclusive = false }
        lock.shared.remove(fd)
        locks[inode] = lock.fd == -1 && lock.shared.isEmpty ? nil : lock
    }

    func system_flock(_ fd: Int32, _ operation: Int32) throws(Errno) {
        try locked { () throws(Errno) in
            count("flock")
            let inode = try file(fd).inode
            let kind = operation & ~LOCK_NB
            if kind == LOCK_UN { releaseLock(fd, inode: inode); return }
            var lock = locks[inode] ?? (fd: -1, exclusive: false, shared: [])
            let othersShared = lock.shared.subtracting([fd])
            let otherExclusive = lock.fd != -1 && lock.fd != fd
            if kind == LOCK_EX {
                guard !otherExclusive && othersShared.isEmpty else { throw Errno(EWOULDBLOCK) }
                lock.fd = fd; lock.exclusive = true; lock.shared.remove(fd)
            } else {
                guard !otherExclusive else { throw Errno(EWOULDBLOCK) }
                if lock.fd == fd { lock.fd = -1 }
                lock.shared.insert(fd)
            }
            locks[inode] = lock
        }
    }

    func system_ftruncate(_ fd: Int32, _ length: Int64) throws(Errno) {
        try locked { () throws(Errno) in
            count("ftruncate")
            let handle = try file(fd)
            guard handle.writable else { throw Errno(EBADF) }
            var data = state.inodes[handle.inode]!.data
            let n = Int(length)
            if data.count > n { data.removeSubrange(n...) } else { data += [UInt8](repeating: 0, count: n - data.count) }
            state.inodes[handle.inode]!.data = data
            changed("ftruncate")
        }
    }

    func system_link(_ from: String, _ to: String) throws(Errno) {
        try locked { () throws(Errno) in
            count("link")
            let inode = try lookup(from)
            if state.inodes[inode]!.isDirectory { throw Errno(EPERM) }
            let (parent, name) = try parentAndName(to)
            if state.inodes[parent]!.entries[name] != nil { throw Errno(EEXIST) }
            record(parent, [(name, inode)])
            changed("link \(from) -> \(to)")
        }
    }

    func system_readdir(_ path: String) throws(Errno) -> [DirectoryEntry] {
        try locked { () throws(Errno) -> [DirectoryEntry] in
            count("readdir")
            let inode = try lookup(path)
            guard state.inodes[inode]!.isDirectory else { throw Errno(ENOTDIR) }
            return state.inodes[inode]!.entries.sorted { $0.key < $1.key }.map { name, child in
                DirectoryEntry(name: name, type: state.inodes[child]!.isDirectory ? .directory : .regular)
            }
        }
    }

    /// The type the model reports for every path and descriptor; it also decides what `syncfs`
    /// does (below). "ext4" by default; "fuse.lazyfs" models a FUSE mount.
    var fileSystemTypeName = "ext4"

    func system_fileSystemType(_ path: String) throws(Errno) -> String? { fileSystemTypeName }
    func system_fileSystemType(descriptor fd: Int32) throws(Errno) -> String? {
        try locked { () throws(Errno) in _ = try file(fd) }
        return fileSystemTypeName
    }

    /// Set false to model a platform or file system that cannot exchange two paths: `ENOSYS`.
    var supportsExchange = true

    /// `renameat2(RENAME_EXCHANGE)`: both names swap inodes in one atomic entry operation of
    /// their folder (two operations, each kept or lost on its own, across folders).
    func system_exchange(_ a: String, _ b: String) throws(Errno) {
        try locked { () throws(Errno) in
            guard supportsExchange else {
                count("exchange (unsupported)")
                throw Errno(ENOSYS)
            }
            count("exchange")
            let (parentA, nameA) = try parentAndName(a)
            let (parentB, nameB) = try parentAndName(b)
            guard let inodeA = state.inodes[parentA]!.entries[nameA], let inodeB = state.inodes[parentB]!.entries[nameB] else {
                throw Errno(ENOENT)
            }
            if parentA == parentB {
                record(parentA, [(nameA, inodeB), (nameB, inodeA)])
            } else {
                record(parentA, [(nameA, inodeB)])
                record(parentB, [(nameB, inodeA)])
            }
            changed("exchange \(a) <-> \(b)")
        }
    }

    /// Set false to model a platform without `syncfs` (Darwin): the call reports `ENOSYS`.
    var supportsSyncFS = true

    /// `syncfs(2)`: every file's content and every folder's entries become durable, as on a block
    /// file system. On a FUSE mount Linux returns 0 and sends nothing to the file system, so
    /// there it changes nothing.
    func system_syncfs(_ fd: Int32) throws(Errno) {
        try locked { () throws(Errno) in
            count("syncfs")
            guard supportsSyncFS else { throw Errno(ENOSYS) }
            _ = try file(fd)
            guard !fileSystemTypeName.hasPrefix("fuse") else { return }
            state = state.allDurable
            changed("syncfs")
        }
    }
}
