@testable import CheckoutApp
import CheckoutModel
import Foundation
import Testing

/// Files a user names: every way one can be unusable gets its own message, and bytes that are
/// not UTF-8 are placed by line and column.
@Suite struct InputFileTests {
    private func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString).yaml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aScenarioThatIsNotUTF8IsPlacedByLineAndColumn() throws {
        let path = try temporaryFile(Array("name: x\ncart:\n  - sku: ".utf8) + [0xFF, 0xFE])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ScenarioError(file: path, line: 3, column: 10, field: "", problem: "is not UTF-8 text (byte 0xFF); save it as UTF-8")) {
            _ = try ScenarioParser.load(path: path, catalog: try Catalog.bundled())
        }
    }

    @Test func aTruncatedMultibyteCharacterIsNotUTF8() throws {
        #expect(throws: InputFile.Problem.self) { _ = try InputFile.text(Data([0x61, 0xE2, 0x82])) }
        #expect(try InputFile.text(Data("a€\n".utf8)) == "a€\n")
    }

    @Test(arguments: [
        ("/", "is a directory"),
        ("/dev/null", "is not a regular file"),
        ("", "is an empty path"),
        ("/no/such/scenario.yaml", "no such file"),
    ])
    func whatIsNotAFileSaysWhatItIs(path: String, problem: String) throws {
        do {
            _ = try InputFile.contents(of: path, kind: "a scenario", limit: 100)
            Issue.record("read \(path)")
        } catch {
            #expect(error.text.hasPrefix(problem), "\(error.text)")
        }
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        let path = try temporaryFile(Array(repeating: 0x61, count: 101))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try InputFile.contents(of: path, kind: "a scenario", limit: 100)
            Issue.record("read an oversized file")
        } catch {
            #expect(error.text == "is 101 bytes, more than the 100 bytes a scenario may have")
        }
    }
}
