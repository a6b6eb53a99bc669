import Foundation
import Testing
@testable import StillpointCore

/// The byte encoders behind the built-in export formats: dates, numbers, CSV quoting and JSON escaping.
@Suite("Export encoding")
struct ExportEncodingTests {
    private func csvLine(_ values: [AttributeValue], format: CSVExportFormat = .csv) -> String {
        var line = ""
        format.appendRow(values, columns: values.indices.map { "c\($0)" }, to: &line)
        return line
    }

    private func jsonLine(_ values: [AttributeValue], columns: [String]? = nil) -> String {
        var line = ""
        JSONLinesExportFormat().appendRow(values, columns: columns ?? values.indices.map { "c\($0)" }, to: &line)
        return line
    }

    private func iso(_ seconds: Double) -> String {
        ExportText.iso8601(Date(timeIntervalSince1970: seconds))
    }

    // MARK: Dates

    @Test func datesKeepTheirMillisecondsAndRoundToTheNearest() {
        #expect(iso(0.001) == "1970-01-01T00:00:00.001Z")
        #expect(iso(0.25) == "1970-01-01T00:00:00.250Z")
        #expect(iso(59.9994) == "1970-01-01T00:00:59.999Z")
        #expect(iso(59.9996) == "1970-01-01T00:01:00Z")  // rounds up into the next minute
        #expect(iso(86_399.9996) == "1970-01-02T00:00:00Z")  // and into the next day
        #expect(iso(1_709_623_800.123_456) == "2024-03-05T07:30:00.123Z")
    }

    @Test func datesBeforeNineteenSeventyCountBackwards() {
        #expect(iso(-0.25) == "1969-12-31T23:59:59.750Z")
        #expect(iso(-0.001) == "1969-12-31T23:59:59.999Z")
        #expect(iso(-86_400) == "1969-12-31T00:00:00Z")
        #expect(iso(-86_400.5) == "1969-12-30T23:59:59.500Z")
        #expect(iso(-2_208_988_800) == "1900-01-01T00:00:00Z")
        #expect(iso(-5_364_662_400) == "1800-01-01T00:00:00Z")  // 1800 and 1900 are not leap years
        #expect(iso(-62_135_596_800) == "0001-01-01T00:00:00Z")
    }

    @Test func yearsOutsideFourDigitsAreWrittenWhole() {
        #expect(iso(-62_167_219_200) == "0000-01-01T00:00:00Z")
        #expect(iso(-62_167_219_201) == "-0001-12-31T23:59:59Z")
        #expect(iso(253_402_300_799.5) == "9999-12-31T23:59:59.500Z")
        #expect(iso(253_402_300_800) == "10000-01-01T00:00:00Z")
    }

    @Test func datesMatchFoundationsFormatterWithFractionalSeconds() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var seconds = -3_000_000_000.0
        while seconds < 5_000_000_000 {
            let date = Date(timeIntervalSince1970: seconds)
            // Foundation always writes the milliseconds; the export leaves out ".000".
            let expected = formatter.string(from: date).replacingOccurrences(of: ".000Z", with: "Z")
            #expect(ExportText.iso8601(date) == expected, "at \(seconds)")
            seconds += 7_654_321.25  // exact in binary: no doubt about rounding
        }
    }

    @Test func theDayCacheNeverLeaksIntoAnotherDay() {
        // One writer across days in any order writes what a fresh writer writes for each date.
        let instants: [Double] = [0, 10, 86_399.999, 86_400, 5, -1, -86_401.5, 86_400 * 365, 86_400 * 365 + 3, 1.5, 1.5]
        var writer = ExportDateWriter()
        for seconds in instants {
            var bytes: [UInt8] = []
            writer.append(secondsSince1970: seconds, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == iso(seconds), "at \(seconds)")
        }
    }

    @Test func datesTooFarAwayAreWrittenAsFoundationDescribesThem() {
        let date = Date(timeIntervalSince1970: 1e15)
        #expect(ExportText.iso8601(date) == date.description)
    }

    // MARK: Numbers

    @Test func numbersAreWrittenAsSwiftPrintsThem() {
        #expect(csvLine([.integer(0), .integer(-1), .integer(.max), .integer(.min)])
                == "0,-1,9223372036854775807,-9223372036854775808\r\n")
        #expect(csvLine([.double(1500), .double(-0.1), .double(1e-7), .double(1e16), .double(.nan)])
                == "1500.0,-0.1,1e-07,1e+16,nan\r\n")
        #expect(csvLine([.bool(true), .bool(false), .null]) == "true,false,\r\n")
        #expect(jsonLine([.double(.infinity), .double(2.5), .integer(-7), .bool(true)])
                == #"{"c0":null,"c1":2.5,"c2":-7,"c3":true}"# + "\n")
    }

    // MARK: CSV quoting

    @Test func csvQuotesOnlyWhatNeedsIt() {
        #expect(csvLine([.string(""), .string("plain"), .string("é and 😀")]) == ",plain,é and 😀\r\n")
        #expect(csvLine([.string(" lead"), .string("trail "), .string(" ")]) == "\" lead\",\"trail \",\" \"\r\n")
        #expect(csvLine([.string("in side")]) == "in side\r\n")  // inner spaces need nothing
        #expect(csvLine([.string("a,b")]) == "\"a,b\"\r\n")
        #expect(csvLine([.string("\"")]) == "\"\"\"\"\r\n")
        #expect(csvLine([.string("say \"hi\", \"bye\"")]) == "\"say \"\"hi\"\", \"\"bye\"\"\"\r\n")
        #expect(csvLine([.string("\"\u{301}")]) == "\"\"\"\u{301}\"\r\n")  // a quote with a combining mark is still a quote
    }

    @Test func csvQuotesEveryKindOfLineBreak() {
        for breakText in ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"] {
            #expect(csvLine([.string("a\(breakText)b")]) == "\"a\(breakText)b\"\r\n", "for \(breakText.unicodeScalars.map(\.value))")
        }
        // Bytes that merely start those sequences are ordinary text.
        #expect(csvLine([.string("¢\u{2020}\u{2027}")]) == "¢\u{2020}\u{2027}\r\n")
    }

    @Test func csvHonoursItsDelimiterAndLineEnding() {
        let semicolon = CSVExportFormat.csv(delimiter: ";", lineEnding: "\n")
        #expect(csvLine([.string("a,b"), .string("c;d")], format: semicolon) == "a,b;\"c;d\"\n")
        let tab = CSVExportFormat.csv(delimiter: "\t")
        #expect(csvLine([.string("a b"), .string("a\tb")], format: tab) == "a b\t\"a\tb\"\r\n")
        // A delimiter of several UTF-8 bytes: only the whole sequence counts.
        let arrow = CSVExportFormat.csv(delimiter: "→")
        #expect(csvLine([.string("a→b"), .string("a⇒b"), .string("x")], format: arrow) == "\"a→b\"→a⇒b→x\r\n")
        #expect(arrow.header(columns: ["start", "to→from"]) == "start→\"to→from\"\r\n")
        #expect(CSVExportFormat.csv.header(columns: ["a", "b,c", " d"]) == "a,\"b,c\",\" d\"\r\n")
    }

    // MARK: JSON escaping

    @Test func jsonEscapesWhatRFC8259Requires() {
        #expect(jsonLine([.string("q\"b\\s/")]) == #"{"c0":"q\"b\\s/"}"# + "\n")
        #expect(jsonLine([.string("\n\r\t")]) == #"{"c0":"\n\r\t"}"# + "\n")
        #expect(jsonLine([.string("\u{0}\u{1}\u{1F}\u{7F}")]) == "{\"c0\":\"\\u0000\\u0001\\u001f\u{7F}\"}\n")
        #expect(jsonLine([.string("é 😀 \u{2028}")]) == "{\"c0\":\"é 😀 \u{2028}\"}\n")
        #expect(jsonLine([.string("x")], columns: ["a \"key\""]) == #"{"a \"key\"":"x"}"# + "\n")
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(jsonLine([.date(Date(timeIntervalSince1970: 0.5)), .uuid(uuid), .binary(Data([0, 255])), .null])
                == #"{"c0":"1970-01-01T00:00:00.500Z","c1":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","c2":"AP8=","c3":null}"# + "\n")
        // Every line reads back as the values it was made from.
        let text = "a\u{1}b\"c\\d\ne 😀"
        let object = try? JSONSerialization.jsonObject(with: Data(jsonLine([.string(text)]).utf8)) as? [String: String]
        #expect(object?["c0"] == text)
    }
}
