import Foundation
import TestSupport
import Testing

@testable import Schema
@testable import StoreJSON

/// Conformance against JSONTestSuite (https://github.com/nst/JSONTestSuite), read in place.
///
/// The corpus is not copied into this repository. It is found at `$JSON_TEST_SUITE_DIR`, or
/// else at `shared/corpora/JSONTestSuite` beside the nearest ancestor directory of this file
/// that has one (`/work/shared/...` for a checkout at `/work/wt-json`). Without it the suite
/// is skipped with a message saying where it looked.
///
/// Expected outcomes, derived from the parser's documented rules:
///
/// - `n_*` (must reject): every file is rejected with a `JSONSyntaxError`.
/// - `y_*` (must accept): every file is accepted, except those our strictness rejects:
///   `y_object_duplicated_key.json` and `y_object_duplicated_key_and_value.json`, because a
///   duplicate key is rejected at the second key (a `JSONObject` cannot keep both values).
/// - `i_*` (implementation-defined), see ``implementationDefined``:
///   - accepted: the 10 `i_number_*` files (huge exponents, overflow, underflow and integers
///     beyond 64 bits are kept as literal text, never converted), and
///     `i_structure_500_nested_arrays` (500 levels is within the limit of 512);
///   - rejected: the UTF-8 byte-order mark, UTF-16 input (with or without BOM), every invalid
///     UTF-8 string (bad, truncated, overlong and out-of-range sequences, encoded surrogates,
///     ISO Latin-1), and every lone or inverted surrogate escape (a Swift `String` cannot hold
///     one, and the parser never alters data silently): 24 files in all.
/// - `test_transform`, see ``transforms``: number literals come back exactly as written
///   (`1E6` stays `1E6`, `1.000000000000000005` keeps every digit, `-9223372036854775809` is not
///   clamped); `\u0000` is kept and written back as `\u0000`; duplicate keys are rejected, and so
///   are `"é"` precomposed and decomposed in one object, since Swift `String` equality (and so
///   `Dictionary`) treats canonically equivalent keys as one key; lone surrogate escapes and
///   UTF-8-encoded surrogates are rejected.
///
/// Every accepted file also round-trips through the writer: `parse(document(v))` is `v` with
/// every string and key byte-identical, and writing again gives identical bytes.
@Suite(
    .enabled(
        if: SkippedTests.check(JSONTestSuite.directory != nil, "SchemaTests JSONTestSuiteTests", JSONTestSuite.missingMessage.rawValue),
        JSONTestSuite.missingMessage))
struct JSONTestSuiteTests {
    enum Outcome: Sendable, Equatable {
        case accepted
        /// Rejected with a reason that contains this text.
        case rejected(String)
    }

    /// y_ files that our documented strictness rejects.
    static let rejectedMustAcceptFiles = ["y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json"]

    static let implementationDefined: [String: Outcome] = [
        "i_number_double_huge_neg_exp.json": .accepted,
        "i_number_huge_exp.json": .accepted,
        "i_number_neg_int_huge_exp.json": .accepted,
        "i_number_pos_double_huge_exp.json": .accepted,
        "i_number_real_neg_overflow.json": .accepted,
        "i_number_real_pos_overflow.json": .accepted,
        "i_number_real_underflow.json": .accepted,
        "i_number_too_big_neg_int.json": .accepted,
        "i_number_too_big_pos_int.json": .accepted,
        "i_number_very_big_negative_int.json": .accepted,
        "i_object_key_lone_2nd_surrogate.json": .rejected("lone surrogate \\uDFAA"),
        "i_string_1st_surrogate_but_2nd_missing.json": .rejected("lone surrogate \\uDADA"),
        "i_string_1st_valid_surrogate_2nd_invalid.json": .rejected("lone surrogate \\uD888"),
        "i_string_UTF-16LE_with_BOM.json": .rejected("expected a value, found invalid UTF-8 byte 0xFF"),
        "i_string_UTF-8_invalid_sequence.json": .rejected("invalid UTF-8 byte 0xFA"),
        "i_string_UTF8_surrogate_U+D800.json": .rejected("an encoded UTF-16 surrogate"),
        "i_string_incomplete_surrogate_and_escape_valid.json": .rejected("lone surrogate \\uD800"),
        "i_string_incomplete_surrogate_pair.json": .rejected("lone surrogate \\uDd1e"),
        "i_string_incomplete_surrogates_escape_valid.json": .rejected("lone surrogate \\uD800"),
        "i_string_invalid_lonely_surrogate.json": .rejected("lone surrogate \\ud800"),
        "i_string_invalid_surrogate.json": .rejected("lone surrogate \\ud800"),
        "i_string_invalid_utf-8.json": .rejected("invalid UTF-8 byte 0xFF"),
        "i_string_inverted_surrogates_U+1D11E.json": .rejected("lone surrogate \\uDd1e"),
        "i_string_iso_latin_1.json": .rejected("incomplete UTF-8 sequence 0xE9"),
        "i_string_lone_second_surrogate.json": .rejected("lone surrogate \\uDFAA"),
        "i_string_lone_utf8_continuation_byte.json": .rejected("invalid UTF-8 byte 0x81"),
        "i_string_not_in_unicode_range.json": .rejected("beyond U+10FFFF"),
        "i_string_overlong_sequence_2_bytes.json": .rejected("invalid UTF-8 byte 0xC0"),
        "i_string_overlong_sequence_6_bytes.json": .rejected("invalid UTF-8 byte 0xFC"),
        "i_string_overlong_sequence_6_bytes_null.json": .rejected("invalid UTF-8 byte 0xFC"),
        "i_string_truncated-utf-8.json": .rejected("invalid UTF-8 sequence 0xE0 0xFF"),
        "i_string_utf16BE_no_BOM.json": .rejected("expected a value, found byte 0x00"),
        "i_string_utf16LE_no_BOM.json": .rejected("expected a value, found byte 0x00"),
        "i_structure_500_nested_arrays.json": .accepted,
        "i_structure_UTF-8_BOM_empty_object.json": .rejected("byte-order mark"),
    ]

    /// What each test_transform file becomes: its canonical document, or the rejection.
    static let transforms: [String: Result<String, TransformRejection>] = [
        "number_-9223372036854775808.json": .success("[\n  -9223372036854775808\n]\n"),
        "number_-9223372036854775809.json": .success("[\n  -9223372036854775809\n]\n"),
        "number_1.0.json": .success("[\n  1.0\n]\n"),
        "number_1.000000000000000005.json": .success("[\n  1.000000000000000005\n]\n"),
        "number_1000000000000000.json": .success("[\n  1000000000000000\n]\n"),
        "number_10000000000000000999.json": .success("[\n  10000000000000000999\n]\n"),
        "number_1e-999.json": .success("[\n  1E-999\n]\n"),
        "number_1e6.json": .success("[\n  1E6\n]\n"),
        "number_9223372036854775807.json": .success("[\n  9223372036854775807\n]\n"),
        "number_9223372036854775808.json": .success("[\n  9223372036854775808\n]\n"),
        "object_key_nfc_nfd.json": .failure(.init("canonically equivalent to the earlier key")),
        "object_key_nfd_nfc.json": .failure(.init("canonically equivalent to the earlier key")),
        "object_same_key_different_values.json": .failure(.init("duplicate key 'a' in object")),
        "object_same_key_same_value.json": .failure(.init("duplicate key 'a' in object")),
        "object_same_key_unclear_values.json": .failure(.init("duplicate key 'a' in object")),
        "string_1_escaped_invalid_codepoint.json": .failure(.init("lone surrogate \\uD800")),
        "string_1_invalid_codepoint.json": .failure(.init("an encoded UTF-16 surrogate")),
        "string_2_escaped_invalid_codepoints.json": .failure(.init("lone surrogate \\uD800")),
        "string_2_invalid_codepoints.json": .failure(.init("an encoded UTF-16 surrogate")),
        "string_3_escaped_invalid_codepoints.json": .failure(.init("lone surrogate \\uD800")),
        "string_3_invalid_codepoints.json": .failure(.init("an encoded UTF-16 surrogate")),
        "string_with_escaped_NULL.json": .success("[\n  \"A\\u0000B\"\n]\n"),
    ]

    struct TransformRejection: Error, Equatable {
        let reasonContains: String
        init(_ text: String) { reasonContains = text }
    }

    @Test(arguments: JSONTestSuite.names(in: "test_parsing", prefix: "n_"))
    func mustRejectFileIsRejected(_ name: String) throws {
        let bytes = try JSONTestSuite.contents(of: "test_parsing/" + name)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) }
    }

    @Test(arguments: JSONTestSuite.names(in: "test_parsing", prefix: "y_"))
    func mustAcceptFileIsAcceptedUnlessItHasDuplicateKeys(_ name: String) throws {
        let bytes = try JSONTestSuite.contents(of: "test_parsing/" + name)
        if Self.rejectedMustAcceptFiles.contains(name) {
            expectRejection(bytes, containing: "duplicate key", name)
        } else {
            try expectRoundTrip(bytes, name)
        }
    }

    @Test func documentedTablesCoverExactlyTheCorpusFiles() {
        let mustAccept = Set(JSONTestSuite.names(in: "test_parsing", prefix: "y_"))
        #expect(Set(Self.rejectedMustAcceptFiles).isSubset(of: mustAccept))
        #expect(Set(JSONTestSuite.names(in: "test_parsing", prefix: "i_")) == Set(Self.implementationDefined.keys))
        #expect(Set(JSONTestSuite.names(in: "test_transform", prefix: "")) == Set(Self.transforms.keys))
    }

    @Test(arguments: JSONTestSuite.names(in: "test_parsing", prefix: "i_"))
    func implementationDefinedFileHasTheDocumentedOutcome(_ name: String) throws {
        let bytes = try JSONTestSuite.contents(of: "test_parsing/" + name)
        switch try #require(Self.implementationDefined[name], "\(name) is missing from the table") {
        case .accepted: try expectRoundTrip(bytes, name)
        case .rejected(let reason): expectRejection(bytes, containing: reason, name)
        }
    }

    @Test(arguments: JSONTestSuite.names(in: "test_transform", prefix: ""))
    func transformFileIsWrittenBackAsDocumented(_ name: String) throws {
        let bytes = try JSONTestSuite.contents(of: "test_transform/" + name)
        switch try #require(Self.transforms[name], "\(name) is missing from the table") {
        case .success(let document):
            #expect(try JSONWriter.document(JSONParser.parse(bytes)) == Array(document.utf8), "\(name)")
            try expectRoundTrip(bytes, name)
        case .failure(let rejection):
            expectRejection(bytes, containing: rejection.reasonContains, name)
        }
    }

    /// Parses, writes, parses again: the value is equal and a second write is byte-identical.
    func expectRoundTrip(_ bytes: [UInt8], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let value = try JSONParser.parse(bytes)
        let document = JSONWriter.document(value)
        let reread = try JSONParser.parse(document)
        #expect(identical(reread, value), "\(name)", sourceLocation: sourceLocation)
        #expect(JSONWriter.document(reread) == document, "\(name)", sourceLocation: sourceLocation)
    }

    func expectRejection(
        _ bytes: [UInt8], containing text: String, _ name: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let value = try JSONParser.parse(bytes)
            Issue.record("\(name) was accepted as \(value.briefDescription)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.reason.contains(text), "\(name): \(error)", sourceLocation: sourceLocation)
        }
    }
}

/// Finds and reads the JSONTestSuite corpus without copying it into the repository.
enum JSONTestSuite {
    static let environmentKey = "JSON_TEST_SUITE_DIR"
    static let relativePath = "shared/corpora/JSONTestSuite"

    /// `$JSON_TEST_SUITE_DIR` if set, else `<ancestor>/shared/corpora/JSONTestSuite` for the
    /// nearest ancestor of this source file that has one; nil when neither has `test_parsing`.
    static let directory: URL? = locate(from: #filePath)

    static let missingMessage: Comment = """
        JSONTestSuite not found: set \(environmentKey) to its directory, or put it at \
        \(relativePath) beside an ancestor of \(#filePath)
        """

    static func locate(from sourceFile: String) -> URL? {
        if let configured = ProcessInfo.processInfo.environment[environmentKey] {
            let url = URL(fileURLWithPath: configured, isDirectory: true)
            return hasCorpus(url) ? url : nil
        }
        var directory = URL(fileURLWithPath: sourceFile).deletingLastPathComponent()
        while true {
            let candidate = directory.appendingPathComponent(relativePath, isDirectory: true)
            if hasCorpus(candidate) { return candidate }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path || parent.path.count >= directory.path.count { return nil }
            directory = parent
        }
    }

    static func hasCorpus(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        let parsing = url.appendingPathComponent("test_parsing").path
        return FileManager.default.fileExists(atPath: parsing, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The `.json` files in a corpus folder whose names start with `prefix`, sorted.
    static func names(in folder: String, prefix: String) -> [String] {
        guard let directory else { return [] }
        let url = directory.appendingPathComponent(folder, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    static func contents(of relativeFile: String) throws -> [UInt8] {
        let directory = try #require(directory)
        return Array(try Data(contentsOf: directory.appendingPathComponent(relativeFile)))
    }
}
