import Testing

/// The sandbox against Antom's official Python SDK (global-open-sdk-python 1.7.1):
/// Tests/Conformance/antom_conformance.py, with only the SDK's HTTPS transport replaced by plain
/// HTTP to the sandbox. The sandbox runs on the real clock, as the SDK's request times are real.
@Suite struct AntomConformanceTests {
    @Test func theOfficialPythonSDKWorksAgainstTheSandbox() async throws {
        try await AntomTestSandbox.with(clock: nil) {
            try await ConformanceScript.run("antom_conformance.py", library: "global-open-sdk-python==1.7.1", against: $0.baseURL)
        }
    }
}
