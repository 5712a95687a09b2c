import Foundation
import Testing

@testable import Schema
@testable import StoreJSON

struct RFC3339Tests {
    static let canonical = [
        "1970-01-01T00:00:00.000Z", "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00.001Z",
        "2000-02-29T12:34:56.789Z", "2000-03-01T00:00:00.000Z", "1900-02-28T23:59:59.999Z",
        "2024-12-31T23:59:59.999Z", "2025-10-17T14:30:00.000Z", "1600-02-29T00:00:00.500Z",
        "0000-01-01T00:00:00.000Z", "0000-02-29T00:00:00.000Z", "0001-01-01T00:00:00.000Z",
        "9999-12-31T23:59:59.999Z",
    ]

    @Test(arguments: canonical)
    func canonicalStringsRoundTripExactly(_ text: String) throws {
        let date = try #require(RFC3339.parse(text))
        #expect(RFC3339.format(date) == text)
        #expect(RFC3339.parse(RFC3339.format(date)) == date)
    }

    @Test func knownInstantsHaveTheRightTimeInterval() {
        #expect(RFC3339.parse("1970-01-01T00:00:00Z")?.timeIntervalSince1970 == 0)
        #expect(RFC3339.parse("2025-10-17T14:30:00Z")?.timeIntervalSince1970 == 1_760_711_400)
        #expect(RFC3339.parse("2000-02-29T00:00:00Z")?.timeIntervalSince1970 == 951_782_400)
        #expect(RFC3339.parse("1969-12-31T23:59:59.999Z") == Date(timeIntervalSinceReferenceDate: -978_307_200.001))
        #expect(RFC3339.parse("0001-01-01T00:00:00Z")?.timeIntervalSince1970 == -62_135_596_800)
    }

    @Test func offsetsConvertToTheSameUTCInstant() {
        #expect(RFC3339.parse("2025-10-17T16:30:00.250+02:00").map(RFC3339.format) == "2025-10-17T14:30:00.250Z")
        #expect(RFC3339.parse("2025-10-17T09:00:00-05:30").map(RFC3339.format) == "2025-10-17T14:30:00.000Z")
        #expect(RFC3339.parse("2025-01-01T00:30:00+01:00").map(RFC3339.format) == "2024-12-31T23:30:00.000Z")
        #expect(RFC3339.parse("2025-10-17T14:30:00-00:00") == RFC3339.parse("2025-10-17T14:30:00Z"))
        #expect(RFC3339.parse("2025-10-17T14:30:00+23:59").map(RFC3339.format) == "2025-10-16T14:31:00.000Z")
    }

    @Test func lowercaseSeparatorsAndMissingFractionAreAccepted() {
        #expect(RFC3339.parse("2025-10-17t14:30:00z").map(RFC3339.format) == "2025-10-17T14:30:00.000Z")
        #expect(RFC3339.parse("2025-10-17T14:30:00.1Z").map(RFC3339.format) == "2025-10-17T14:30:00.100Z")
        #expect(RFC3339.parse("2025-10-17T14:30:00.12Z").map(RFC3339.format) == "2025-10-17T14:30:00.120Z")
    }

    @Test func extraFractionDigitsAreTruncatedTowardThePast() {
        #expect(RFC3339.parse("2025-10-17T14:30:00.123999999Z").map(RFC3339.format) == "2025-10-17T14:30:00.123Z")
        #expect(RFC3339.parse("1969-12-31T23:59:59.9999Z").map(RFC3339.format) == "1969-12-31T23:59:59.999Z")
        #expect(RFC3339.parse("1969-12-31T23:59:58.0009Z").map(RFC3339.format) == "1969-12-31T23:59:58.000Z")
        #expect(RFC3339.parse("9999-12-31T23:59:59.99999Z").map(RFC3339.format) == "9999-12-31T23:59:59.999Z")
    }

    static let invalid = [
        "", "2025-10-17", "2025-10-17 14:30:00Z", "2025-10-17T14:30Z", "2025-10-17T14:30:00",
        " 2025-10-17T14:30:00Z", "2025-10-17T14:30:00Z ", "2025-10-17T14:30:00ZZ", "2025-10-17T14:30:00.Z",
        "2025-10-17T14:30:00,5Z", "2025-10-17T14:30:00+0200", "2025-10-17T14:30:00+02", "2025-10-17T14:30:00+2:00",
        "2025-1-17T14:30:00Z", "12025-10-17T14:30:00Z", "-2025-10-17T14:30:00Z", "2025-10-17X14:30:00Z",
        "2025-00-10T00:00:00Z", "2025-13-01T00:00:00Z", "2025-01-00T00:00:00Z", "2025-01-32T00:00:00Z",
        "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2025-04-31T00:00:00Z", "2025-10-17T24:00:00Z",
        "2025-10-17T23:60:00Z", "2025-12-31T23:59:60Z", "2025-10-17T14:30:00+24:00", "2025-10-17T14:30:00+01:60",
        "0000-01-01T00:30:00+01:00", "9999-12-31T23:59:59-00:01", "２025-10-17T14:30:00Z", "2025-10-17T14:30:00.５Z",
    ]

    @Test(arguments: invalid)
    func malformedOrOutOfRangeTextIsRejected(_ text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func formatRoundsDoubleNoiseToTheNearestMillisecond() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 0.0004)) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -0.0004)) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 0.9996)) == "1970-01-01T00:00:01.000Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_760_711_400.25)) == "2025-10-17T14:30:00.250Z")
        #expect(RFC3339.format(Date(timeIntervalSinceReferenceDate: 0)) == "2001-01-01T00:00:00.000Z")
    }

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests need a platform that can spawn processes
    @Test func formattingADateOutsideYears0000To9999StopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = RFC3339.format(Date(timeIntervalSince1970: 253_402_300_800))
        }
        await #expect(processExitsWith: .failure) {
            _ = RFC3339.format(Date(timeIntervalSince1970: -62_167_219_200.001))
        }
    }
    #endif

    @Test func firstAndLastRepresentableMillisecondsFormat() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 253_402_300_799.999)) == "9999-12-31T23:59:59.999Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -62_167_219_200)) == "0000-01-01T00:00:00.000Z")
    }

    @Test func everyMillisecondOfASecondAcrossTheEpochRoundTrips() {
        for ms in Int64(-2_000)...2_000 {
            let text = RFC3339.format(milliseconds: ms)
            #expect(RFC3339.parse(text) == RFC3339.date(milliseconds: ms), "\(text)")
            #expect(RFC3339.format(RFC3339.date(milliseconds: ms)) == text)
        }
    }

    @Test func civilDayArithmeticIsConsistentForEveryDayOfYears0000To9999() {
        var expected = RFC3339.days(fromCivil: 0, 1, 1)
        #expect(expected == -719_528)
        var mismatches = 0
        for year in Int64(0)...9999 {
            for month in Int64(1)...12 {
                for day in 1...RFC3339.daysIn(month: month, year: year) {
                    let days = RFC3339.days(fromCivil: year, month, day)
                    let civil = RFC3339.civil(fromDays: days)
                    if days != expected || civil != (year, month, day) { mismatches += 1 }
                    expected += 1
                }
            }
        }
        #expect(mismatches == 0)
        #expect(expected - 1 == RFC3339.days(fromCivil: 9999, 12, 31))
    }
}
