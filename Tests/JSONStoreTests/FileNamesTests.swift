import Foundation
import Testing

@testable import JSONStore

@Suite struct FileNamesTests {
    @Test(arguments: [
        "3f2504e0-4f89-11d3-9a0c-0305e82c3301.json",
        "00000000-0000-0000-0000-000000000000.json",
    ])
    func lowercaseUUIDNamesAreAccepted(name: String) {
        #expect(isLowercaseUUIDFileName(name))
        #expect(DocumentID(fileName: name)?.fileName == name)
    }

    @Test(arguments: [
        "3F2504E0-4F89-11D3-9A0C-0305E82C3301.json", "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
        "3f2504e0-4f89-11d3-9a0c-0305e82c3301.JSON", "3f2504e04f8911d39a0c0305e82c3301.json",
        "3f2504e0-4f89-11d3-9a0c-0305e82c330.json", "3f2504e0-4f89-11d3-9a0c-0305e82c33011.json",
        "3f2504e0_4f89-11d3-9a0c-0305e82c3301.json", "3f2504e0-4f89-11d3-9a0c-0305e82c330g.json",
        "../3f2504e0-4f89-11d3-9a0c-0305e82c.json", "3f2504e0-4f89-11d3-9a0c-0305e82c3301.json.tmp",
        ".json", "", "settings.json", "3f2504e0-4f89-11d3-9a0c-0305e82c3301.json/x", "３f2504e0-4f89-11d3-9a0c-0305e82c3301.json",
    ])
    func otherNamesAreRejected(name: String) {
        #expect(!isLowercaseUUIDFileName(name))
        #expect(DocumentID(fileName: name) == nil)
    }

    @Test func invalidIdIsAnErrorNamingIt() throws {
        let error = #expect(throws: StoreError.self) { _ = try DocumentID(validating: "../../etc/passwd") }
        #expect(error?.code == .invalidFileName)
        #expect(error?.message.hasPrefix("'../../etc/passwd' is not a valid id: it must be a lowercase UUID") == true)
        #expect(try DocumentID(validating: "3f2504e0-4f89-11d3-9a0c-0305e82c3301").fileName == "3f2504e0-4f89-11d3-9a0c-0305e82c3301.json")
    }

    @Test func listingClassifiesEveryEntry() throws {
        let dir = TemporaryDirectory()
        let a = "3f2504e0-4f89-11d3-9a0c-0305e82c3301", b = "00000000-0000-4000-8000-000000000002"
        let asFolder = "00000000-0000-4000-8000-000000000003", asLink = "00000000-0000-4000-8000-000000000004"
        plant(dir("\(b).json"), "{}")
        plant(dir("\(a).json"), "{}")
        plant(dir("\(a.uppercased()).json"), "{}")
        plant(dir("notes.txt"), "")
        plant(dir(".tmp-0123456789abcdef-\(a).json"), "")
        plant(dir(".DS_Store"), "")
        #expect(mkdir(dir("\(asFolder).json"), 0o700) == 0)
        #expect(symlink(dir("\(a).json"), dir("\(asLink).json")) == 0)

        let listing = try DocumentListing.list(dir.path)
        #expect(listing.ids.map(\.rawValue) == [b, a].sorted())
        #expect(listing.skippedDotNames == [".DS_Store", ".tmp-0123456789abcdef-\(a).json"])
        #expect(listing.invalid.map(\.name) == ["\(asFolder).json", "\(asLink).json", "\(a.uppercased()).json", "notes.txt"])
        #expect(listing.invalid.map(\.error.code) == [.notARegularFile, .symlinkRefused, .invalidFileName, .invalidFileName])
        #expect(
            listing.invalid[3].error.message == "'\(dir("notes.txt"))' is not a valid document name: only a lowercase "
                + "UUID followed by '.json' is allowed here. The store ignores it; rename or remove it.")
        #expect(listing.invalid[3].error.path == dir("notes.txt"))
    }

    @Test func listingMissingFolderIsNotFound() {
        let error = #expect(throws: StoreError.self) { _ = try DocumentListing.list("/nonexistent-\(UUID().uuidString)") }
        #expect(error?.code == .notFound && error?.syscall == "readdir" && error?.errno == ENOENT)
    }
}
