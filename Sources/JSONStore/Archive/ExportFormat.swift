import Foundation
import StoreJSON

/// The export format: a whole store as one JSON Lines file (one compact JSON object per line,
/// keys sorted, each line ending with `\n`), so it can be streamed in both directions.
///
/// ```
/// {"created_at":"…","files":15,"folder_modes":{".":"0700","sessions":"0700","user-sessions":"0700"},"format":"work-stream-store-export","format_version":1,"store_schema_version":2,"tool_version":"0.1.0","type":"header"}
/// {"content":"{\n  \"created_at\": …}\n","mode":"0600","path":"store.json","sha256":"…","size":482,"type":"file"}
/// {"content":"…","mode":"0644","path":"sessions/<id>.json","sha256":"…","size":1057,"type":"file"}
/// {"bytes":20278,"files":15,"sha256":"…","type":"trailer"}
/// ```
///
/// - The header comes first; `format_version` above 1 is refused as incompatible.
///   `folder_modes` (optional, like `mode` below) records the modes of the store folder (`.`)
///   and of its document folders; an import gives them those modes, else `0700`. `files`
///   (optional too) is the number of file lines that follow, so that an import can show its
///   progress against a total; it must equal the trailer's. Exports written before it was
///   recorded have none, and older readers ignore it, so adding it did not change `format_version`.
/// - One `file` line per store file: `store.json` first, then the others by path. `content` is
///   the file's exact text (documents are UTF-8), so an import writes byte-identical files;
///   `size` and `sha256` are of those bytes. `mode` is the file's permission bits in the store,
///   four octal digits (`RecordedMode`); an import gives the file that mode. It is optional:
///   exports written before it was recorded have none, and their files are imported `0600`. An
///   older reader ignores it (and imports `0600`), so adding it did not change `format_version`.
/// - The trailer comes last: the number of files, their total size, and the SHA-256 of every
///   byte before the trailer (header and file lines, newlines included). A file without it, or
///   with anything after it, is truncated or damaged.
enum ExportFormat {
    static let format = "work-stream-store-export"
    static let formatVersion = 1

    /// A member value of the flat objects this format uses.
    enum Value {
        case string(String)
        case int(Int64)
        /// A flat object of strings, members sorted by key.
        case strings([(String, String)])
    }

    /// - Parameters:
    ///   - files: The number of file lines the export holds.
    ///   - folderModes: The permission bits of the store folder (`"."`) and of its document
    ///     folders, by name (`RecordedMode.folderModes`).
    static func header(toolVersion: String, storeSchemaVersion: Int, createdAt: Date, files: Int, folderModes: [String: mode_t]) -> [UInt8] {
        let folders = folderModes.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, RecordedMode.text($0.value)) }
        return encode([
            ("created_at", .string(RFC3339.format(createdAt))), ("files", .int(Int64(files))),
            ("folder_modes", .strings(folders)), ("format", .string(format)),
            ("format_version", .int(Int64(formatVersion))), ("store_schema_version", .int(Int64(storeSchemaVersion))),
            ("tool_version", .string(toolVersion)), ("type", .string("header")),
        ])
    }

    /// The line of one file, or nil when `content` is not valid UTF-8 (the caller names the file).
    ///
    /// - Parameter mode: The file's permission bits; setuid, setgid and sticky are dropped.
    static func file(_ path: StoreFilePath, content: [UInt8], mode: mode_t) -> [UInt8]? {
        // The members after "content": `{"mode":…}` with its "{" replaced by the "," that
        // follows the content (keys stay sorted: "content" < "mode").
        var suffix = encode([
            ("mode", .string(RecordedMode.text(mode))), ("path", .string(path.rawValue)),
            ("sha256", .string(SHA256.hex(of: content))), ("size", .int(Int64(content.count))),
            ("type", .string("file")),
        ])
        suffix[0] = UInt8(ascii: ",")
        return line(content: content, suffix: suffix)
    }

    static func trailer(files: Int, bytes: Int64, sha256: String) -> [UInt8] {
        encode([("bytes", .int(bytes)), ("files", .int(Int64(files))), ("sha256", .string(sha256)), ("type", .string("trailer"))])
    }

    /// True when `bytes` is valid UTF-8 (decoding and re-encoding gives the same bytes).
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// `{"a":…,"b":…}`: compact, members in the given order, which must be sorted by key.
    static func encode(_ members: [(String, Value)]) -> [UInt8] {
        precondition(
            zip(members, members.dropFirst()).allSatisfy { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) },
            "ExportFormat: keys must be sorted")
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, (key, value)) in members.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            switch value {
            case .string(let text): appendString(text, to: &out)
            case .int(let number): out.append(contentsOf: String(number).utf8)
            case .strings(let members): out.append(contentsOf: encode(members.map { ($0.0, .string($0.1)) }))
            }
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A JSON string (RFC 8259 §7): `"` and `\` escaped, control characters as `\n`, `\t`, ... or
    /// `\u00xx`; everything else, newline-free, as raw UTF-8. So a line never contains a raw `\n`.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20: out.append(contentsOf: #"\u00"#.utf8 + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
