import Foundation
import StoreJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `backup.json`: what a backup holds, written by `Backup.create` next to the store's files.
///
/// ```json
/// {
///   "created_at": "2025-11-20T09:00:00.000Z",
///   "files": [ { "mode": "0600", "path": "queue.json", "sha256": "<64 hex>", "size": 1161 }, ... ],
///   "folder_modes": { ".": "0700", "sessions": "0700", "user-sessions": "0700" },
///   "format": "work-stream-store-backup",
///   "format_version": 1,
///   "store_created_at": "2025-10-14T07:52:18.000Z",
///   "store_format": "work-stream-store",
///   "store_schema_version": 2,
///   "tool_version": "0.1.0"
/// }
/// ```
///
/// `store_created_at` and `store_format` are the backed-up `store.json`'s `created_at` and
/// `format`: the store's identity (`StoreIdentity`), checked by a restore over an existing store.
/// Backups written before they existed have neither; both are optional for readers, so the
/// format version stays 1.
///
/// `files` is sorted by path (byte order) and lists every store file of the backup, nothing else
/// (`backup.json` and `SHA256SUMS` are not in it). Written in the store's canonical JSON form.
/// Readers ignore keys they do not know; a `format_version` above 1 is refused as incompatible.
///
/// `mode` is the file's permission bits in the store, four octal digits (`RecordedMode`); a
/// restore gives the file that mode. It is optional: backups written before it was recorded
/// have none, and their files are restored `0600`. An older reader ignores it (and restores
/// `0600`), so adding it did not change `format_version`. `folder_modes` likewise records the
/// modes of the store folder (`.`) and of its document folders; without it they are restored
/// `0700`.
public struct BackupManifest: Sendable, Equatable {
    /// One file of the backup.
    public struct Entry: Sendable, Equatable {
        /// The path as written in `backup.json`: not yet validated when read from disk.
        public var path: String
        public var size: Int64
        /// 64 lowercase hex digits.
        public var sha256: String
        /// The file's permission bits in the store (`0o644`), at most `0o777`; nil in a backup
        /// written before modes were recorded (such a file is restored `0o600`).
        public var mode: Int?

        package init(path: String, size: Int64, sha256: String, mode: Int? = nil) {
            self.path = path
            self.size = size
            self.sha256 = sha256
            self.mode = mode
        }
    }

    package static let fileName = "backup.json"
    package static let format = "work-stream-store-backup"
    /// The only version this code writes and reads.
    package static let currentFormatVersion = 1

    public var formatVersion: Int
    public var toolVersion: String
    /// The `schema_version` of the backed-up `store.json`.
    public var storeSchemaVersion: Int
    /// RFC 3339, UTC, milliseconds.
    public var createdAt: String
    /// The identity of the store the backup was taken from; nil in backups made before it was recorded.
    public var storeIdentity: StoreIdentity?
    public var files: [Entry]
    /// The permission bits of the store folder (`"."`) and of each document folder it had, by
    /// name; empty in a backup written before folder modes were recorded (restored `0o700`).
    public var folderModes: [String: Int] = [:]

    /// The total size of the listed files, in bytes.
    public var totalBytes: Int64 { files.reduce(0) { $0 + $1.size } }

    package init(
        toolVersion: String, storeSchemaVersion: Int, createdAt: Date, storeIdentity: StoreIdentity? = nil, files: [Entry],
        folderModes: [String: Int] = [:]
    ) {
        self.formatVersion = Self.currentFormatVersion
        self.toolVersion = toolVersion
        self.storeSchemaVersion = storeSchemaVersion
        self.createdAt = RFC3339.format(createdAt)
        self.storeIdentity = storeIdentity
        self.files = files
        self.folderModes = folderModes
    }

    /// The canonical bytes of `backup.json`.
    var encoded: [UInt8] {
        let entries: [JSONValue] = files.map { entry in
            var object: JSONObject = [
                "path": .string(entry.path), "size": .number(JSONNumber(entry.size)),
                "sha256": .string(entry.sha256),
            ]
            if let mode = entry.mode { object["mode"] = .string(RecordedMode.text(mode_t(mode))) }
            return .object(object)
        }
        var object: JSONObject = [
            "format": .string(Self.format), "format_version": .number(JSONNumber(formatVersion)),
            "tool_version": .string(toolVersion), "store_schema_version": .number(JSONNumber(storeSchemaVersion)),
            "created_at": .string(createdAt), "files": .array(entries),
        ].merging(storeIdentity?.backupManifestFields ?? [:]) { kept, _ in kept }
        if !folderModes.isEmpty {
            object["folder_modes"] = .object(folderModes.mapValues { .string(RecordedMode.text(mode_t($0))) })
        }
        return JSONWriter.document(.object(object))
    }

    /// Reads `backup.json`. Paths are kept as written; the verifier validates each one.
    ///
    /// - Throws: `ArchiveProblem` on `backup.json`: `.incompatible` for a newer format version,
    ///   `.corrupt` for anything else that is wrong.
    init(bytes: [UInt8]) throws(ArchiveProblem) {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw Self.corrupt("is not valid JSON: \(error)")
        }
        guard case .object(let object) = json else { throw Self.corrupt("is not a JSON object") }
        guard case .string(Self.format)? = object["format"] else {
            throw Self.corrupt("does not describe a backup: 'format' is not '\(Self.format)'")
        }
        let version = try Self.integer(object, "format_version")
        guard version <= Self.currentFormatVersion else {
            throw ArchiveProblem(
                .incompatible, entry: Self.fileName,
                "has format_version \(version), but this tool reads version \(Self.currentFormatVersion); use a newer version of the tool")
        }
        guard version >= 1 else { throw Self.corrupt("has format_version \(version); versions start at 1") }
        guard case .string(let tool)? = object["tool_version"] else { throw Self.corrupt("has no string 'tool_version'") }
        guard case .string(let created)? = object["created_at"], RFC3339.parse(created) != nil else {
            throw Self.corrupt("has no RFC 3339 'created_at'")
        }
        guard case .array(let list)? = object["files"] else { throw Self.corrupt("has no array 'files'") }
        self.formatVersion = Int(version)
        self.toolVersion = tool
        self.storeSchemaVersion = Int(try Self.integer(object, "store_schema_version"))
        self.createdAt = created
        self.storeIdentity = try StoreIdentity(backupManifest: object)
        self.files = try list.enumerated().map { (index, value) throws(ArchiveProblem) in try Self.entry(value, index: index) }
        if let recorded = object["folder_modes"] {
            guard case .object(let modes) = recorded else { throw Self.corrupt("has a 'folder_modes' that is not an object") }
            for (key, value) in modes {
                guard RecordedMode.folderKeys.contains(key) else {
                    throw Self.corrupt("has a folder '\(key)' in 'folder_modes'; only '.', 'sessions' and 'user-sessions' are allowed")
                }
                guard case .string(let text) = value, let bits = RecordedMode.parse(text) else {
                    throw Self.corrupt(
                        "has an invalid mode for '\(key)' in 'folder_modes': it must be four octal digits "
                            + "starting with 0 (\"0755\"); setuid, setgid and sticky bits are never restored")
                }
                folderModes[key] = Int(bits)
            }
        }
    }

    private static func entry(_ value: JSONValue, index: Int) throws(ArchiveProblem) -> Entry {
        guard case .object(let object) = value, case .string(let path)? = object["path"] else {
            throw corrupt("files[\(index)] has no string 'path'")
        }
        guard case .string(let hash)? = object["sha256"], isSHA256Hex(hash) else {
            throw ArchiveProblem(.corrupt, entry: path, "has no valid 'sha256' in \(fileName) (64 lowercase hex digits)")
        }
        guard case .number(let number)? = object["size"], let size = number.int64Value, size >= 0 else {
            throw ArchiveProblem(.corrupt, entry: path, "has no valid 'size' in \(fileName) (an integer of at least 0)")
        }
        var mode: Int?
        if let recorded = object["mode"] {
            guard case .string(let text) = recorded, let bits = RecordedMode.parse(text) else {
                throw ArchiveProblem(.corrupt, entry: path, "\(RecordedMode.invalidMessage) in \(fileName)")
            }
            mode = Int(bits)
        }
        return Entry(path: path, size: size, sha256: hash, mode: mode)
    }

    private static func integer(_ object: JSONObject, _ key: String) throws(ArchiveProblem) -> Int64 {
        guard case .number(let number)? = object[key], let value = number.int64Value,
            value >= 0, value <= Int64(Int32.max)
        else { throw corrupt("has no valid integer '\(key)'") }
        return value
    }

    private static func corrupt(_ message: String) -> ArchiveProblem { ArchiveProblem(.corrupt, entry: fileName, message) }
}

/// True for exactly 64 lowercase hexadecimal digits.
func isSHA256Hex(_ text: String) -> Bool {
    text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
}

/// `SHA256SUMS`: one line per file, `<64 hex>  <relative path>\n`, sorted by path: the format
/// `sha256sum` writes and `sha256sum -c SHA256SUMS` checks when run inside the backup folder
/// (two spaces: text mode, which is the same as binary mode on POSIX systems; see sha256sum(1)).
enum ChecksumFile {
    static let fileName = "SHA256SUMS"

    /// The file's bytes for `entries` (already sorted).
    static func render(_ entries: [BackupManifest.Entry]) -> [UInt8] {
        Array(entries.map { "\($0.sha256)  \($0.path)\n" }.joined().utf8)
    }

    /// Parses the file strictly: every line `<64 lowercase hex>  <path>`, ending with a newline.
    /// Returns (path, hash) pairs in file order.
    ///
    /// - Throws: `ArchiveProblem` naming `SHA256SUMS` and the line.
    static func parse(_ bytes: [UInt8]) throws(ArchiveProblem) -> [(path: String, sha256: String)] {
        guard bytes.isEmpty || bytes.last == UInt8(ascii: "\n") else {
            throw ArchiveProblem(.corrupt, entry: fileName, "does not end with a newline (truncated?)")
        }
        var pairs: [(path: String, sha256: String)] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().enumerated() {
            let text = String(decoding: line, as: UTF8.self)
            let hash = String(text.prefix(64))
            let rest = text.dropFirst(64)
            guard isSHA256Hex(hash), rest.hasPrefix("  "), rest.count > 2 else {
                throw ArchiveProblem(.corrupt, entry: fileName, "line \(index + 1) is not '<sha256>  <path>'")
            }
            pairs.append((String(rest.dropFirst(2)), hash))
        }
        return pairs
    }
}
