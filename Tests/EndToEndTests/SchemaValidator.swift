import Foundation
import Testing
import TestSupport

/// Checks the commands' real --json output against Schemas/ with Tests/Tools/validate_json_schema.py
/// (PyPI jsonschema), in the venv `.ci/ensure-packages.sh --with-python` makes (`.build/python`):
/// the same files a user's validator would read, not a Swift copy of them.
enum SchemaValidator {
    /// The package root: three levels above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What the validator said: exit 0 valid, 1 invalid (with where and why), 2 it could not check.
    struct Verdict {
        let status: Int32
        let output: String
    }

    static func schemaURL(_ name: String) -> URL { root.appendingPathComponent("Schemas/\(name)") }

    /// A schema's JSON, for the tests that compare its closed lists with the binary's.
    static func schema(_ name: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL(name))) as? [String: Any])
    }

    /// Validates `text` (one document, or with `lines` one per non-empty line) against
    /// Schemas/`schema`; nil (and a recorded issue) when the venv is missing.
    static func check(_ text: String, against schema: String, lines: Bool = true) async throws -> Verdict? {
        let python = root.appendingPathComponent(".build/python/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("The Python venv with jsonschema is missing (\(python)): run `make test` (or .ci/ensure-packages.sh --with-python) to create it.")
            return nil
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("schema-check-\(UUID().uuidString).json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = root.appendingPathComponent("Tests/Tools/validate_json_schema.py").path
        let child = try ChildProcess([python, script, schemaURL(schema).path, file.path] + (lines ? ["--lines"] : []))
        let status = await child.exit(timeout: 60)
        return Verdict(status: status, output: child.stdout + child.stderr)
    }

    /// Expects every document in `text` to be valid against `schema`.
    static func expectValid(
        _ text: String, against schema: String, lines: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        guard let verdict = try await check(text, against: schema, lines: lines) else { return }
        #expect(verdict.status == 0, "\(schema): \(verdict.output)", sourceLocation: sourceLocation)
    }

    /// The JSON objects of line-delimited output; a line that is not one fails the test.
    static func objects(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(
                try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)",
                sourceLocation: sourceLocation)
        }
    }
}
