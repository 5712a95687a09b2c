#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's permission bits as a backup (`backup.json`) or an export records them, so that a
/// restore or an import gives each file the mode it had: `"mode": "0644"`, four octal digits.
///
/// Only the permission bits (`0o777`) are recorded. Setuid, setgid and sticky are dropped when
/// recording and refused when reading (a recorded value above `0o777` is a damaged or edited
/// archive): a store file is data, never a program, so those bits have no use on it, and a
/// restore run as root must never create a set-id file from an archive someone else could edit.
///
/// A file is restored with exactly the recorded bits, except that its owner can always read it
/// (`0o400` is added): the restore reads every file back before it swaps the store in, and a
/// store whose owner cannot read its documents does not open. No bit is ever added for the group
/// or for others, so a restored file is never more open to them than recorded. A file without a
/// recorded mode (a backup or export made before modes were recorded) is restored `0o600`, as
/// before. Folders likewise (`folderModes`), except that the owner keeps `rwx` on them.
package enum RecordedMode {
    /// The mode of a file restored without a recorded mode.
    package static let unrecorded: mode_t = 0o600

    /// The text recorded for a file whose `st_mode` permissions are `permissions`: `"0644"`.
    package static func text(_ permissions: mode_t) -> String {
        let octal = String(permissions & 0o777, radix: 8)
        return String(repeating: "0", count: 4 - octal.count) + octal
    }

    /// The permission bits of a recorded `"0644"`: exactly four octal digits, the first `0`.
    /// Nil for anything else (setuid, setgid, sticky, or not a mode at all).
    package static func parse(_ text: String) -> mode_t? {
        let digits = Array(text.utf8)
        guard digits.count == 4, digits[0] == UInt8(ascii: "0"),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) })
        else { return nil }
        return digits.reduce(0) { $0 * 8 + mode_t($1 - UInt8(ascii: "0")) }
    }

    /// The mode a restored or imported file gets: the recorded bits plus owner read, or
    /// `unrecorded` when none was recorded.
    package static func restored(_ recorded: mode_t?) -> mode_t {
        guard let recorded else { return unrecorded }
        return (recorded & 0o777) | 0o400
    }

    /// The mode a restored or imported folder gets: the recorded bits plus the owner's `rwx` (the
    /// restore creates and reads files in it), or `0o700` when none was recorded.
    package static func restoredFolder(_ recorded: mode_t?) -> mode_t {
        guard let recorded else { return 0o700 }
        return (recorded & 0o777) | 0o700
    }

    /// The folders whose modes an archive records: `"."` (the store folder itself), `sessions`
    /// and `user-sessions`.
    package static let folderKeys: Set<String> = Set(["."] + StoreFilePath.folderNames.keys)

    /// The permission bits of the store folder and of each of its document folders that exists
    /// (an absent document folder is an empty one and has no mode), by `folderKeys` name, read
    /// with `lstat`; setuid, setgid and sticky dropped.
    package static func folderModes(of store: String, system: SystemCalls) throws(StoreError) -> [String: mode_t] {
        var modes: [String: mode_t] = [:]
        for key in folderKeys.sorted() {
            let path = key == "." ? store : joinPath(store, key)
            if let status = try system.linkStatus(path, context: ErrorContext("read the mode of", path)), status.type == .directory {
                modes[key] = status.permissions & 0o777
            }
        }
        return modes
    }

    /// What `ArchiveProblem`s say about a `mode` that does not parse.
    package static let invalidMessage =
        "has an invalid 'mode': it must be four octal digits starting with 0 (\"0644\"); "
        + "setuid, setgid and sticky bits are never restored"
}
