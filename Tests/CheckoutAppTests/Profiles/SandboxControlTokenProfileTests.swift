@testable import CheckoutApp
import Foundation
import Testing

/// A profile's `sandbox_control_token`: where the shared sandbox's control token comes from,
/// written as the providers' credentials are (env, file, command, or a value in a 0600 file),
/// resolved and checked with the profile, never shown.
@Suite struct SandboxControlTokenProfileTests {
    static let yaml = """
        profiles:
          team:
            sandbox_url: http://sandbox.example.internal:8080
            sandbox_control_token: { env: TEAM_SANDBOX_TOKEN }
        """

    @Test func theTokenComesFromItsSourceAndIsChecked() throws {
        let configuration = try ProfileParser.parse(Self.yaml, file: "config.yaml")
        let team = try #require(configuration.profile("team"))
        #expect(team.sandboxControlToken == .environment("TEAM_SANDBOX_TOKEN"))
        let resolved = try ProfileSelection.resolve(team, environment: ["TEAM_SANDBOX_TOKEN": "team-token-0123456789abcdef"])
        #expect(resolved.sandboxControlToken == "team-token-0123456789abcdef")
        #expect(!ProfileListing.showText(team, path: "config.yaml").contains("team-token"))
        #expect(ProfileListing.showText(team, path: "config.yaml").contains("sandbox control token from env TEAM_SANDBOX_TOKEN"))

        let unset = #expect(throws: ProfileProblem.self) { try ProfileSelection.resolve(team, environment: [:]) }
        #expect(unset?.description.contains("sandbox_control_token (env TEAM_SANDBOX_TOKEN): the environment variable TEAM_SANDBOX_TOKEN is not set") == true)
        let short = #expect(throws: ProfileProblem.self) { try ProfileSelection.resolve(team, environment: ["TEAM_SANDBOX_TOKEN": "short-one"]) }
        #expect(short?.description.contains("must be at least 16 characters") == true)
        #expect(short?.description.contains("short-one") == false)
    }

    @Test func aTokenWrittenInTheFileNeedsMode0600() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("config.yaml").path
        try "profiles:\n  team:\n    sandbox_control_token: team-token-0123456789abcdef\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        let refused = #expect(throws: ConfigFileError.self) { try ProfileParser.load(path: path) }
        #expect(refused?.field == "profiles.team.sandbox_control_token")
        chmod(path, 0o600)
        #expect(try ProfileParser.load(path: path)?.profile("team")?.sandboxControlToken == .inline("team-token-0123456789abcdef"))
    }
}
