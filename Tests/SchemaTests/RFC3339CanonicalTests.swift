import Foundation
import Testing

@testable import Schema
@testable import StoreJSON

/// `RFC3339.canonicalDate` reads only the store's own form, `YYYY-MM-DDTHH:MM:SS.mmmZ`; for
/// such text it must give exactly the general reader's answer, and for any other text nil.
@Suite struct RFC3339CanonicalTests {
    static let separators: [Int: UInt8] = [
        4: UInt8(ascii: "-"), 7: UInt8(ascii: "-"), 10: UInt8(ascii: "T"),
        13: UInt8(ascii: ":"), 16: UInt8(ascii: ":"), 19: UInt8(ascii: "."), 23: UInt8(ascii: "Z"),
    ]

    /// 24 bytes: the canonical separators, and a digit everywhere else.
    static func isCanonicalShape(_ text: [UInt8]) -> Bool {
        text.count == 24
            && text.indices.allSatisfy { index in
                separators[index].map { text[index] == $0 } ?? (text[index] >= UInt8(ascii: "0") && text[index] <= UInt8(ascii: "9"))
            }
    }

    func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = RFC3339.canonicalDate(text), general = RFC3339.parse(text)
        if Self.isCanonicalShape(Array(text.utf8)) {
            #expect(fast == general, "\(text)", sourceLocation: sourceLocation)
        } else {
            #expect(fast == nil, "\(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func everyMonthAndDayOfBoundaryYearsReadsAsTheGeneralReaderDoes() {
        for year in [0, 1, 4, 100, 400, 1899, 1900, 1969, 1970, 1999, 2000, 2024, 2025, 2100, 9999] {
            for month in 0...13 {
                for day in 0...32 {
                    check(String(format: "%04d-%02d-%02dT12:34:56.789Z", year, month, day))
                }
            }
        }
    }

    @Test func timeFieldsAtAndBeyondTheirLimitsReadAsTheGeneralReaderDoes() {
        for (hour, minute, second) in [(0, 0, 0), (23, 59, 59), (24, 0, 0), (0, 60, 0), (0, 0, 60), (99, 99, 99)] {
            for millisecond in [0, 1, 10, 100, 999] {
                check(String(format: "2025-10-17T%02d:%02d:%02d.%03dZ", hour, minute, second, millisecond))
                check(String(format: "9999-12-31T%02d:%02d:%02d.%03dZ", hour, minute, second, millisecond))
                check(String(format: "0000-01-01T%02d:%02d:%02d.%03dZ", hour, minute, second, millisecond))
            }
        }
    }

    @Test func everyByteAtEveryPositionIsReadAsTheGeneralReaderDoesOrLeftToIt() {
        let sample = Array("2024-02-29T23:59:59.999Z".utf8)
        for position in 0..<24 {
            for value in 0...255 {
                var text = sample
                text[position] = UInt8(value)
                check(String(decoding: text, as: UTF8.self))
            }
        }
    }

    @Test func otherFormsAreLeftToTheGeneralReader() {
        for text in [
            "2025-10-17T14:30:00Z", "2025-10-17t14:30:00.000Z", "2025-10-17T14:30:00.000z", "2025-10-17T14:30:00.0000Z",
            "2025-10-17T16:30:00.000+02:00", "2025-10-17T14:30:00.00Z", "",
        ] {
            #expect(RFC3339.canonicalDate(text) == nil, "\(text)")
        }
    }
}
