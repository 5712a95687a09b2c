#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The id of a document under `sessions/` or `user-sessions/`: a lowercase UUID, `8-4-4-4-12`
/// hex digits (STORE-FORMAT §1). The only way to get one is to validate a string, so a path
/// built from a `DocumentID` can never contain `/`, `..` or anything else unexpected.
package struct DocumentID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The lowercase UUID string, without `.json`.
    package let rawValue: String

    /// Accepts exactly a lowercase UUID string; nil for anything else (uppercase included).
    package init?(_ string: String) {
        guard Self.isLowercaseUUID(string) else { return nil }
        rawValue = string
    }

    /// Accepts exactly `<lowercase uuid>.json`; nil for anything else.
    package init?(fileName: String) {
        guard fileName.hasSuffix(".json") else { return nil }
        self.init(String(fileName.dropLast(5)))
    }

    /// Accepts exactly a lowercase UUID string, or throws `.invalidFileName` naming it.
    ///
    /// - Parameter what: How to call the value in the message. The default is `"id"`.
    package init(validating string: String, what: String = "id") throws(StoreError) {
        guard let id = DocumentID(string) else {
            throw StoreError(
                .invalidFileName,
                "'\(string)' is not a valid \(what): it must be a lowercase UUID such as "
                    + "'3f2504e0-4f89-11d3-9a0c-0305e82c3301'. Use the id exactly as the store lists it.")
        }
        self = id
    }

    /// The file name: `<id>.json`.
    package var fileName: String { rawValue + ".json" }

    package var description: String { rawValue }

    package static func < (lhs: DocumentID, rhs: DocumentID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// True for `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with every `x` in `0-9a-f`.
    static func isLowercaseUUID(_ string: String) -> Bool {
        isLowercaseUUID(Array(string.utf8))
    }

    /// `isLowercaseUUID` on the bytes of the text.
    static func isLowercaseUUID<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool where Bytes.Index == Int {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
        }
        return true
    }
}

/// True for a file name the store may read or write under `sessions/` and `user-sessions/`:
/// a lowercase UUID followed by `.json`.
package func isLowercaseUUIDFileName(_ name: String) -> Bool { DocumentID(fileName: name) != nil }

/// A directory entry under `sessions/` or `user-sessions/` that is not a document.
package struct InvalidEntry: Sendable, Equatable {
    package enum Problem: Sendable, Equatable {
        /// The name is not `<lowercase uuid>.json`.
        case invalidName
        /// The name is valid but the entry is a folder, a link or another non-regular file.
        case notARegularFile(FileType)
    }

    /// The entry's name as listed.
    package var name: String
    /// The entry's full path.
    var path: String
    package var problem: Problem

    /// The error to report for this entry. Each invalid entry is reported; none hides another.
    package var error: StoreError {
        switch problem {
        case .invalidName:
            return StoreError(
                .invalidFileName,
                "'\(path)' is not a valid document name: only a lowercase UUID followed by '.json' is allowed here. "
                    + "The store ignores it; rename or remove it.",
                path: path)
        case .notARegularFile(let type):
            let code: StoreError.Code = type == .symbolicLink ? .symlinkRefused : .notARegularFile
            let what = type == .symbolicLink ? "a symbolic link" : type == .directory ? "a folder" : "not a regular file"
            return StoreError(
                code, "'\(path)' is \(what), not a document. The store ignores it; replace it with a regular file or remove it.",
                path: path)
        }
    }
}

/// What a listing of `sessions/` or `user-sessions/` found.
package struct DocumentListing: Sendable, Equatable {
    /// Regular files named `<lowercase uuid>.json`, sorted.
    package var ids: [DocumentID] = []
    /// Everything else that is not a dot name, sorted by name.
    package var invalid: [InvalidEntry] = []
    /// Names starting with a dot (temp files, bookkeeping), which readers ignore (STORE-FORMAT §1), sorted.
    package var skippedDotNames: [String] = []
}

extension DocumentListing {
    /// Lists the documents in `directory`, classifying every entry; nothing is opened or followed.
    ///
    /// - Throws: `StoreError` if the folder cannot be listed (`.notFound` if it does not exist).
    package static func list(_ directory: String, system: SystemCalls = .real) throws(StoreError) -> DocumentListing {
        let context = ErrorContext("list", directory)
        var listing = DocumentListing()
        for entry in try system.listDirectory(directory, context: context) {
            if entry.name.hasPrefix(".") {
                listing.skippedDotNames.append(entry.name)
                continue
            }
            let path = joinPath(directory, entry.name)
            guard let id = DocumentID(fileName: entry.name) else {
                listing.invalid.append(InvalidEntry(name: entry.name, path: path, problem: .invalidName))
                continue
            }
            // d_type is DT_UNKNOWN on some file systems: ask lstat then (never stat: no following).
            var type = entry.type
            if type == nil { type = try system.linkStatus(path, context: context)?.type }
            switch type {
            case .regular: listing.ids.append(id)
            case nil: continue  // removed between readdir and lstat
            case let other?: listing.invalid.append(InvalidEntry(name: entry.name, path: path, problem: .notARegularFile(other)))
            }
        }
        listing.ids.sort()
        listing.invalid.sort { $0.name < $1.name }
        listing.skippedDotNames.sort()
        return listing
    }

    /// `list`, with an absent `directory` read as an empty one: a store's `sessions/` or
    /// `user-sessions/` may be missing (an old writer, a hand-made store), and an absent folder
    /// holds no documents; the first write that needs it creates it (`Store.write`).
    ///
    /// - Throws: `StoreError` if the folder exists and cannot be listed.
    package static func listDocumentFolder(_ directory: String, system: SystemCalls) throws(StoreError) -> DocumentListing {
        do {
            return try list(directory, system: system)
        } catch  where error.errno == ENOENT {
            return DocumentListing()
        }
    }
}
