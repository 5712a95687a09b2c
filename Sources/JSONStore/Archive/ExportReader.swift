import StoreJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// Reads an export line by line and checks everything (see `ExportFormat`), handing each
/// verified file to `onFile`. Stops at the first problem, naming the line and the entry.
///
/// The checks: a header first, with this format and a known version; then `file` lines, each
/// with a path the spec allows (STORE-FORMAT §1; `../x`, `/etc/passwd`, an uppercase UUID, a dot
/// name are refused), not seen before, its content's size and SHA-256 equal to the recorded ones,
/// and a document that decodes; then a trailer whose counts and SHA-256 match, then the end.
struct ExportReader {
    /// What the header said.
    struct Header {
        var storeSchemaVersion: Int
        var toolVersion: String
        /// The recorded modes of the store folder (`"."`) and its document folders; empty in an
        /// export written before they were recorded.
        var folderModes: [String: mode_t] = [:]
        /// The number of file lines the header announces; nil in an export written before it was recorded.
        var files: Int?
    }

    let reader: LineReader

    private var hasher = SHA256()
    private var lineNumber = 0
    private var seen = Set<StoreFilePath>()
    private var totalBytes: Int64 = 0
    private(set) var header: Header?

    init(reader: LineReader) { self.reader = reader }

    /// Reads the whole input.
    ///
    /// - Parameters:
    ///   - onHeader: Called once the header is read and checked, before the first file.
    ///   - onFile: Called for each verified file, in input order, with its bytes and its recorded
    ///     permission bits (nil in an export written before modes were recorded), and the header's
    ///     store schema version (every file was checked against it).
    /// - Throws: `ArchiveProblem` for the input's first problem; `StoreError` from reading or from `onFile`.
    mutating func read(
        onHeader: (Header) -> Void = { _ in },
        onFile: (StoreFilePath, [UInt8], mode_t?, Int) throws(StoreError) -> Void
    ) throws(ExportReadError) {
        while let line = try next() {
            guard line.terminated else { throw problem("the last line is cut off (no newline): the export is truncated") }
            let object = try parse(line.bytes)
            guard case .string(let type)? = object["type"] else { throw problem("has no string 'type'") }
            switch (type, header) {
            case ("header", nil):
                let read = try readHeader(object)
                header = read
                onHeader(read)
            case ("file", .some(let header)):
                let (path, bytes, mode) = try readFile(object, storeSchemaVersion: header.storeSchemaVersion)
                do { try onFile(path, bytes, mode, header.storeSchemaVersion) } catch { throw .store(error) }
            case ("trailer", .some):
                try readTrailer(object)
                if try next() != nil { throw problem("there is more after the trailer, which must be the last line") }
                return
            case (_, nil):
                throw problem("the first line must be the header of a work-stream store export; this is not an export")
            default:
                throw problem("has type '\(type)'; an export has one header, file lines and a trailer")
            }
            if type != "trailer" {
                hasher.update(line.bytes)
                hasher.update(CollectionOfOne(UInt8(ascii: "\n")))
            }
        }
        throw header == nil
            ? problem("the input is empty: this is not an export")
            : problem("the export ends without its trailer line: it is truncated")
    }

    private mutating func next() throws(ExportReadError) -> LineReader.Line? {
        do {
            let line = try reader.next()
            if line != nil { lineNumber += 1 }
            return line
        } catch {
            throw .store(error)
        }
    }

    private func parse(_ bytes: ArraySlice<UInt8>) throws(ExportReadError) -> JSONObject {
        guard case .object(let object)? = try? JSONParser.parse(Array(bytes)) else {
            throw problem("is not a JSON object: the export is damaged")
        }
        return object
    }

    private func readHeader(_ object: JSONObject) throws(ExportReadError) -> Header {
        guard case .string(ExportFormat.format)? = object["format"] else {
            throw problem("is not the header of a work-stream store export ('format' is not '\(ExportFormat.format)')")
        }
        let version = try integer(object, "format_version")
        guard version <= Int64(ExportFormat.formatVersion) else {
            throw problem(
                "has format_version \(version), but this tool reads version \(ExportFormat.formatVersion); use a newer "
                    + "version of the tool", kind: .incompatible)
        }
        guard version >= 1, case .string(let tool)? = object["tool_version"] else { throw problem("is not a valid export header") }
        var header = Header(storeSchemaVersion: Int(try integer(object, "store_schema_version")), toolVersion: tool)
        if object["files"] != nil { header.files = Int(try integer(object, "files")) }
        if let recorded = object["folder_modes"] {
            guard case .object(let modes) = recorded else { throw problem("has a 'folder_modes' that is not an object") }
            for (key, value) in modes {
                guard RecordedMode.folderKeys.contains(key) else {
                    throw problem("has a folder '\(key)' in 'folder_modes'; only '.', 'sessions' and 'user-sessions' are allowed")
                }
                guard case .string(let text) = value, let bits = RecordedMode.parse(text) else {
                    throw problem(
                        "has an invalid mode for '\(key)' in 'folder_modes': it must be four octal digits starting with 0 "
                            + "(\"0755\"); setuid, setgid and sticky bits are never restored")
                }
                header.folderModes[key] = bits
            }
        }
        return header
    }

    private mutating func readFile(_ object: JSONObject, storeSchemaVersion: Int) throws(ExportReadError) -> (StoreFilePath, [UInt8], mode_t?) {
        guard case .string(let raw)? = object["path"] else { throw problem("has no string 'path'") }
        guard let path = StoreFilePath(raw) else { throw problem(ArchiveContents.invalidPathMessage, entry: raw) }
        guard seen.insert(path).inserted else { throw problem("appears twice in the export", entry: raw) }
        guard case .string(let content)? = object["content"], case .string(let hash)? = object["sha256"], isSHA256Hex(hash) else {
            throw problem("has no string 'content' or no valid 'sha256'", entry: raw)
        }
        let size = try integer(object, "size", entry: raw)
        var mode: mode_t?
        if let recorded = object["mode"] {
            guard case .string(let text) = recorded, let bits = RecordedMode.parse(text) else {
                throw problem(RecordedMode.invalidMessage, entry: raw)
            }
            mode = bits
        }
        let bytes = Array(content.utf8)
        if var found = ArchiveContents.integrityProblem(raw, bytes, size: size, sha256: hash, recordedIn: "its line") {
            found.location = "line \(lineNumber)"
            throw .archive(found)
        }
        let newer = storeSchemaVersion > DocumentVersion.newest
        if path.kind == .manifest, case .success(let version) = DocumentCheck.manifest(bytes), version != storeSchemaVersion {
            throw problem("has schema_version \(version) but the header says \(storeSchemaVersion)", entry: raw)
        }
        if var found = DocumentCheck.check(path, bytes, acceptingNewer: newer, storeSchemaVersion: storeSchemaVersion) {
            found.location = "line \(lineNumber)"
            throw .archive(found)
        }
        totalBytes += size
        return (path, bytes, mode)
    }

    private mutating func readTrailer(_ object: JSONObject) throws(ExportReadError) {
        let files = try integer(object, "files"), bytes = try integer(object, "bytes")
        guard case .string(let hash)? = object["sha256"], isSHA256Hex(hash) else { throw problem("has no valid 'sha256'") }
        guard files == Int64(seen.count) else {
            throw problem("says \(files) files, but the export holds \(seen.count): files were lost or added")
        }
        if let announced = header?.files, announced != seen.count {
            throw problem("ends an export whose header (line 1) says \(announced) files, but it holds \(seen.count): the export was changed or damaged")
        }
        guard bytes == totalBytes else { throw problem("says \(bytes) bytes, but the files hold \(totalBytes)") }
        let actual = hasher.finalize().hexString
        guard actual == hash else {
            throw problem("records SHA-256 \(hash), but the lines before it hash to \(actual): the export was changed or damaged")
        }
        guard seen.contains(where: { $0.kind == .manifest }) else { throw problem("ends an export without store.json, so it is not a store") }
    }

    private func integer(_ object: JSONObject, _ key: String, entry: String? = nil) throws(ExportReadError) -> Int64 {
        guard case .number(let number)? = object[key], let value = number.int64Value, value >= 0 else {
            throw problem("has no valid integer '\(key)'", entry: entry)
        }
        return value
    }

    private func problem(_ message: String, entry: String? = nil, kind: ArchiveProblem.Kind = .corrupt) -> ExportReadError {
        .archive(
            ArchiveProblem(
                kind, entry: entry ?? "line \(lineNumber)", message,
                location: entry == nil ? nil : "line \(lineNumber)"))
    }
}

/// Why reading an export stopped: a problem with the input, or a failure around it.
enum ExportReadError: Error {
    case archive(ArchiveProblem)
    case store(StoreError)
}
