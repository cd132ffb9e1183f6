import Foundation
import Testing
import TestSupport

/// A provider's official Python library, unchanged, driving a sandbox: the script in
/// Tests/Conformance runs in the venv `.ci/ensure-packages.sh` makes (`.build/python`).
enum ConformanceScript {
    /// The package root: three levels above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `script` against `baseURL` and expects it to end with `conformance ok`.
    static func run(_ script: String, library: String, against baseURL: String) async throws {
        let python = root.appendingPathComponent(".build/python/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("The Python venv with \(library) is missing (\(python)): run `make test` (or .ci/ensure-packages.sh) to create it.")
            return
        }
        let child = try ChildProcess([python, root.appendingPathComponent("Tests/Conformance/\(script)").path, baseURL])
        let status = await child.exit(timeout: 120)
        #expect(status == 0, "\(script) exited \(status):\n\(child.stdout)\n\(child.stderr)")
        #expect(child.stdout.contains("conformance ok"), "\(child.stdout)\n\(child.stderr)")
    }
}
