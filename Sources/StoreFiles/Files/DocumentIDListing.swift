import Foundation
import StoreJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ids of a document folder, listed without a `String` per entry: each id is a 16-byte UUID
/// (at 50,000 work streams the names, then a `DocumentID` per name, would be 11.5 MB of
/// migrate's peak heap).
package struct DocumentIDListing: Sendable, Equatable {
    /// Regular files named `<lowercase uuid>.json`, in the order of their names.
    package var ids: [UUID] = []
    /// Everything else that is not a dot name, sorted by name, exactly as `DocumentListing` finds it.
    package var invalid: [InvalidEntry] = []

    package init(ids: [UUID] = [], invalid: [InvalidEntry] = []) {
        self.ids = ids
        self.invalid = invalid
    }
}

extension DocumentIDListing {
    /// What `DocumentListing.listDocumentFolder(directory)` finds, as UUIDs: the same ids in the
    /// same order, the same invalid entries; dot names are skipped without being kept. An absent
    /// `directory` is an empty one.
    ///
    /// - Throws: `StoreError` if the folder exists and cannot be listed.
    package static func listDocumentFolder(_ directory: String, system: SystemCalls) throws(StoreError) -> DocumentIDListing {
        do {
            return try list(directory, system: system)
        } catch  where error.errno == ENOENT {
            return DocumentIDListing()
        }
    }

    package static func list(_ directory: String, system: SystemCalls) throws(StoreError) -> DocumentIDListing {
        let context = ErrorContext("list", directory)
        var listing = DocumentIDListing()
        // d_type is DT_UNKNOWN on some file systems: those documents are asked with lstat after
        // the listing (never stat: no following).
        var untyped: [(id: UUID, name: String)] = []
        try system.visitDirectory(
            directory, context: context,
            restart: {
                listing = DocumentIDListing()
                untyped = []
            },
            visit: { name, type in
                if Self.isDotName(name) { return }
                guard let id = Self.documentID(fileName: name) else {
                    let string = String(decoding: name, as: UTF8.self)
                    listing.invalid.append(InvalidEntry(name: string, path: joinPath(directory, string), problem: .invalidName))
                    return
                }
                switch type {
                case .regular: listing.ids.append(id)
                case nil: untyped.append((id, String(decoding: name, as: UTF8.self)))
                case let other?:
                    let string = String(decoding: name, as: UTF8.self)
                    listing.invalid.append(InvalidEntry(name: string, path: joinPath(directory, string), problem: .notARegularFile(other)))
                }
            })
        for entry in untyped {
            let path = joinPath(directory, entry.name)
            switch try system.linkStatus(path, context: context)?.type {
            case .regular: listing.ids.append(entry.id)
            case nil: continue  // removed between readdir and lstat
            case let other?: listing.invalid.append(InvalidEntry(name: entry.name, path: path, problem: .notARegularFile(other)))
            }
        }
        listing.ids.sort(by: Self.precedes)
        listing.invalid.sort { $0.name < $1.name }
        return listing
    }

    /// `name.hasPrefix(".")` on the name's `String`: a leading `.` followed by nothing or by an
    /// ASCII byte is its own first character; only a non-ASCII byte after it (a combining mark
    /// could join the dot) needs the `String`.
    static func isDotName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.first == UInt8(ascii: ".") else { return false }
        if name.count == 1 || name[1] < 0x80 { return true }
        return String(decoding: name, as: UTF8.self).hasPrefix(".")
    }

    /// The id of `<lowercase uuid>.json` (exactly 41 bytes, as `DocumentID(fileName:)` accepts), nil otherwise.
    package static func documentID(fileName name: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard name.count == 41, name[36] == UInt8(ascii: "."), name[37] == UInt8(ascii: "j"), name[38] == UInt8(ascii: "s"),
            name[39] == UInt8(ascii: "o"), name[40] == UInt8(ascii: "n")
        else { return nil }
        let text = UnsafeBufferPointer(rebasing: name[..<36])
        guard DocumentID.isLowercaseUUID(text) else { return nil }
        return UUIDText.parse(text)
    }

    /// The order of the ids' lowercase spellings: the order of their 16 bytes (hex digits spell
    /// each byte's nibbles in order, `0`-`9` before `a`-`f`; the dashes sit at the same places).
    package static func precedes(_ a: UUID, _ b: UUID) -> Bool {
        let (a0, a1) = halves(a), (b0, b1) = halves(b)
        return a0 != b0 ? a0 < b0 : a1 < b1
    }

    private static func halves(_ id: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: id.uuid) { raw in
            (
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
    }
}
