import Foundation
import TestSupport
import Testing

@testable import Schema

/// Every file of JSONTestSuite's `test_parsing/` fed to the work-stream document decoder
/// (`WorkStreamDocument(bytes:)`), which is what the store runs on every file it reads.
///
/// Outcomes, all asserted:
/// - `n_` (must reject): a `.syntax` error with a position inside the input. No crash.
/// - `y_` (must accept as JSON): valid JSON, but none is a work-stream document, so each is
///   refused by the schema (`.notAnObject`, or `.missingKey` for `schema_version`), never with a
///   syntax error, except the two duplicate-key files, which our parser rejects on purpose.
/// - `i_` (either): the parser's table in `JSONTestSuiteTests.implementationDefined` decides:
///   files it accepts are refused by the schema as above, files it rejects give a positioned
///   `.syntax` error.
@Suite(
    .enabled(
        if: SkippedTests.check(JSONTestSuite.directory != nil, "SchemaTests DocumentDecoderCorpusTests", JSONTestSuite.missingMessage.rawValue),
        JSONTestSuite.missingMessage))
struct DocumentDecoderCorpusTests {
    static func decode(_ name: String) throws -> SchemaError? {
        let bytes = try JSONTestSuite.contents(of: "test_parsing/" + name)
        do { _ = try WorkStreamDocument(bytes: bytes) } catch { return error }
        return nil
    }

    static func expectPositionedSyntaxError(_ error: SchemaError?, _ name: String, size: Int) {
        #expect(error?.code == .syntax, "\(name)")
        if let syntax = error?.syntax {
            #expect(syntax.offset >= 0 && syntax.offset <= size && syntax.line >= 1 && syntax.column >= 1, "\(name)")
        }
    }

    @Test(arguments: JSONTestSuite.names(in: "test_parsing", prefix: "n_"))
    func mustRejectFilesGiveAPositionedSyntaxError(name: String) throws {
        let size = try JSONTestSuite.contents(of: "test_parsing/" + name).count
        Self.expectPositionedSyntaxError(try Self.decode(name), name, size: size)
    }

    @Test(arguments: JSONTestSuite.names(in: "test_parsing", prefix: "y_"))
    func mustAcceptFilesAreValidJSONButNotWorkStreams(name: String) throws {
        let error = try Self.decode(name)
        if JSONTestSuiteTests.rejectedMustAcceptFiles.contains(name) {
            #expect(error?.code == .syntax)
            #expect(error?.syntax?.reason.hasPrefix("duplicate key") == true)
        } else {
            #expect(error?.code == .notAnObject || error?.code == .missingKey, "\(name): \(String(describing: error))")
        }
    }

    @Test(arguments: JSONTestSuite.names(in: "test_parsing", prefix: "i_"))
    func implementationDefinedFilesFollowTheParsersTable(name: String) throws {
        let error = try Self.decode(name)
        switch JSONTestSuiteTests.implementationDefined[name] {
        case .accepted?: #expect(error?.code == .notAnObject || error?.code == .missingKey, "\(name)")
        case .rejected?: Self.expectPositionedSyntaxError(error, name, size: try JSONTestSuite.contents(of: "test_parsing/" + name).count)
        case nil: Issue.record("\(name) is not in the parser's table")
        }
    }
}
