import Foundation
import Schema
import StoreJSON
import Testing

@testable import JSONStore

/// `DocumentIDListing` (the work-stream ids listed straight into UUIDs, issue 19) against
/// `DocumentListing`, the `String` listing it replaces for `Store.workStreamIDs()`.
@Suite struct DocumentIDListingTests {
    /// A folder with every kind of entry: documents (in no particular creation order), an
    /// uppercase id, other names, dot and temp files, a folder and a link named like documents,
    /// a name that is not UTF-8, a dot followed by a combining mark, and non-ASCII look-alikes.
    static func plantEveryKind(_ dir: TemporaryDirectory) -> [UUID] {
        var ids: [UUID] = []
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let id = bytes.withUnsafeMutableBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
            ids.append(id)
            plant(dir("\(id.lowercased).json"), "{}")
        }
        let a = ids[0].lowercased
        plant(dir("\(a.uppercased()).json"), "{}")
        plant(dir("notes.txt"), "")
        plant(dir("\(a).json.tmp"), "")
        plant(dir("\(a)"), "")
        plant(dir(".tmp-0123456789abcdef-\(a).json"), "")
        plant(dir(".DS_Store"), "")
        plant(dir("." + "\u{301}x"), "")
        plant(dir("é" + String(a.dropFirst(2)) + ".json"), "")
        plant(dir("３" + String(a.dropFirst()) + ".json"), "")
        #expect(mkdir(dir("00000000-0000-4000-8000-000000000003.json"), 0o700) == 0)
        #expect(symlink(dir("\(a).json"), dir("00000000-0000-4000-8000-000000000004.json")) == 0)
        // A name that is not UTF-8: the listing reports it with U+FFFD, as `DocumentListing` does.
        var raw = Array(dir.path.utf8) + [UInt8(ascii: "/"), 0xFF, 0xFE, UInt8(ascii: "x"), 0]
        let fd = raw.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { open($0, O_CREAT | O_WRONLY, 0o600) }
        }
        #expect(fd >= 0)
        close(fd)
        return ids
    }

    @Test(arguments: [false, true])
    func listsTheSameIdsAndProblemsAsTheStringListing(throughSeam: Bool) throws {
        let dir = TemporaryDirectory()
        let planted = Self.plantEveryKind(dir)
        // Through a seam: the protocol's default, which visits the seam's `system_readdir`.
        let system = throughSeam ? SystemCalls(calls: CountingCalls()) : .real
        let reference = try DocumentListing.list(dir.path, system: system)
        let listing = try DocumentIDListing.list(dir.path, system: system)

        #expect(listing.ids.count == 300)
        #expect(Set(listing.ids) == Set(planted))
        #expect(listing.ids.map(\.lowercased) == planted.map(\.lowercased).sorted())
        #expect(listing.ids == reference.ids.map { UUIDText.parse($0.rawValue)! })
        #expect(listing.invalid == reference.invalid)
        #expect(listing.invalid.count == 10)
        #expect(listing.invalid.map(\.error.code).filter { $0 == .invalidFileName }.count == 8)
        #expect(listing.invalid.contains { $0.name == "\u{FFFD}\u{FFFD}x" && $0.problem == .invalidName })
        // A dot with a combining mark is not a dot name as a `String` sees it: reported, as before.
        #expect(listing.invalid.contains { $0.name == ".\u{301}x" && $0.problem == .invalidName })
    }

    @Test func anEmptyFolderHasNoIds() throws {
        let dir = TemporaryDirectory()
        #expect(try DocumentIDListing.list(dir.path, system: .real) == DocumentIDListing())
    }

    @Test func aMissingFolderIsEmptyButListingItIsNotFound() throws {
        let path = "/nonexistent-\(UUID().uuidString)"
        #expect(try DocumentIDListing.listDocumentFolder(path, system: .real) == DocumentIDListing())
        let error = #expect(throws: StoreError.self) { _ = try DocumentIDListing.list(path, system: .real) }
        #expect(error?.code == .notFound && error?.syscall == "readdir" && error?.errno == ENOENT)
    }

    @Test func documentNamesAreExactlyLowercaseUUIDsWithJSON() {
        func id(_ name: String) -> UUID? {
            var name = name
            return name.withUTF8 { DocumentIDListing.documentID(fileName: $0) }
        }
        let a = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
        #expect(id("\(a).json") == UUIDText.parse(a))
        for name in [
            "\(a.uppercased()).json", a, "\(a).JSON", "\(a).jsonx", "x\(a).json", "\(a)\u{301}.json",
            "3f2504e0_4f89-11d3-9a0c-0305e82c3301.json", "3f2504e0-4f89-11d3-9a0c-0305e82c330g.json",
        ] {
            #expect(id(name) == nil, "\(name)")
            #expect(DocumentID(fileName: name) == nil, "\(name)")
        }
    }

    @Test func idsSortAsTheirLowercaseSpellings() {
        let ids =
            (0..<2_000).map { _ in UUID() } + [
                UUIDText.parse("00000000-0000-0000-0000-000000000000")!,
                UUIDText.parse("ffffffff-ffff-ffff-ffff-ffffffffffff")!,
                UUIDText.parse("0000000a-0000-0000-0000-000000000000")!,
                UUIDText.parse("00000009-0000-0000-0000-000000000000")!,
            ]
        #expect(ids.sorted(by: DocumentIDListing.precedes).map(\.lowercased) == ids.map(\.lowercased).sorted())
    }
}
