import Testing

/// The sandbox against Square's official Python SDK (squareup 46.0.0.20260916): Tests/Conformance/square_conformance.py.
@Suite struct SquareConformanceTests {
    @Test func theOfficialPythonSDKWorksAgainstTheSandbox() async throws {
        try await SquareTestSandbox.with {
            try await ConformanceScript.run("square_conformance.py", library: "squareup==46.0.0.20260916", against: $0.baseURL)
        }
    }
}
