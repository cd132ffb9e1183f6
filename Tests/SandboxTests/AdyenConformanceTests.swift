import Testing

/// The sandbox against Adyen's official Python library (16.0.0): Tests/Conformance/adyen_conformance.py.
@Suite struct AdyenConformanceTests {
    @Test func theOfficialPythonLibraryWorksAgainstTheSandbox() async throws {
        try await AdyenTestSandbox.with { try await ConformanceScript.run("adyen_conformance.py", library: "Adyen==16.0.0", against: $0.baseURL) }
    }
}
