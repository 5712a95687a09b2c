/// Tells whether a store sits on a file system where `flock(2)` between processes or computers
/// is unreliable: network file systems (NFS, SMB/CIFS, AFP, WebDAV, ...) and FUSE.
///
/// Linux NFS emulates flock with byte-range locks that other NFS clients may not honour the same
/// way, and SMB, AFP, WebDAV and many FUSE file systems do not propagate it at all (man 2 flock,
/// NOTES). The store still works there from one process on one computer at a time.
enum FileSystemWarning {
    /// File system type names reported by Linux (`/proc/self/mountinfo`) and Darwin (`f_fstypename`).
    static let networkTypes: Set<String> = [
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "smb2", "ncpfs", "afs", "9p", "ceph", "glusterfs",
        "lustre", "gpfs", "davfs", "afpfs", "webdav", "ftp",
    ]

    /// A sentence for the user when the type is a network or FUSE file system, else nil.
    static func message(store: String, fileSystemType type: String?) -> String? {
        guard let type else { return nil }
        if networkTypes.contains(type) {
            return "The store '\(store)' is on a network file system (\(type)), where locking between "
                + "computers is not reliable. Use the store from one computer at a time."
        }
        if type == "fuse" || type.hasPrefix("fuse.") || type.hasPrefix("fuseblk") || type.hasSuffix("fuse") {
            return "The store '\(store)' is on a FUSE file system (\(type)), which may not support locking "
                + "between processes. Use the store from one program at a time, or move it to a local disk."
        }
        return nil
    }
}
