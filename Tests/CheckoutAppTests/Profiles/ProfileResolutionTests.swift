@testable import CheckoutApp
import Foundation
import Testing

/// Credentials come from the environment, a file or a command, each failure named; the
/// profile's values sit under the command line's; `config show` never shows a secret.
@Suite struct ProfileResolutionTests {
    let profile = Profile(
        name: "mixed", providers: ["square", "adyen"],
        options: ["square-url": "https://connect.squareupsandbox.com", "adyen-merchant-account": "ShopECOM"],
        credentials: [
            "square-access-token": .environment("MY_SQUARE_TOKEN"),
            "adyen-api-key": .command("printf 'AQE-from-command\\n'"),
        ])

    @Test func credentialsResolveFromTheEnvironmentAFileAndACommand() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("credentials-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "hmac-from-file\n".write(to: folder.appendingPathComponent("hmac.key"), atomically: true, encoding: .utf8)

        var withFile = profile
        withFile.credentials["adyen-hmac-key"] = .file("~/hmac.key")
        let resolved = try ProfileSelection.resolve(withFile, environment: ["MY_SQUARE_TOKEN": "EAAA-from-env", "HOME": folder.path])
        #expect(resolved.values["square-access-token"] == "EAAA-from-env")
        #expect(resolved.values["adyen-api-key"] == "AQE-from-command")
        #expect(resolved.values["adyen-hmac-key"] == "hmac-from-file")
        #expect(resolved.values["adyen-merchant-account"] == "ShopECOM")
        #expect(resolved.registry.ids == ["adyen", "square"])
    }

    @Test func eachUnresolvableSourceSaysWhatToDo() {
        let resolver = CredentialResolver(environment: [:])
        func problem(_ source: CredentialSource) -> String? {
            do {
                _ = try resolver.value(of: "adyen-api-key", from: source)
                return nil
            } catch { return error.description }
        }
        #expect(problem(.environment("NOT_SET")) == "adyen-api-key (env NOT_SET): the environment variable NOT_SET is not set; export it, or change the profile")
        #expect(problem(.file("/nonexistent/key"))?.contains("/nonexistent/key no such file") == true)
        #expect(problem(.command("exit 3")) == "adyen-api-key (command `exit 3`): exited with status 3; run it yourself to see why")
        #expect(problem(.command("true")) == "adyen-api-key (command `true`): is empty")
    }

    @Test func theCommandLineWinsOverTheProfileWhichWinsOverTheEnvironment() throws {
        let resolved = try ProfileSelection.resolve(profile, environment: ["MY_SQUARE_TOKEN": "EAAA-profile"])
        let commandLine = ProviderOptionValues(["square-url": "https://flag.example"])
        let merged = commandLine.filling(from: resolved.values)
            .withEnvironment(["SQUARE_ACCESS_TOKEN": "EAAA-plain-env", "SQUARE_LOCATION_ID": "L-env"], options: ProviderRegistry.builtIn.options)
        #expect(merged["square-url"] == "https://flag.example")
        #expect(merged["square-access-token"] == "EAAA-profile")
        // What neither gives still comes from the option's own environment variable.
        #expect(merged["square-location-id"] == "L-env")
    }

    @Test func theProfileIsNamedByTheFlagElseTheEnvironment() {
        #expect(ProfileSelection.requestedName(flag: "a", environment: ["CHECKOUT_PROFILE": "b"]) == "a")
        #expect(ProfileSelection.requestedName(flag: nil, environment: ["CHECKOUT_PROFILE": "b"]) == "b")
        #expect(ProfileSelection.requestedName(flag: nil, environment: ["CHECKOUT_PROFILE": ""]) == nil)
        #expect(ProfileSelection.requestedName(flag: nil, environment: [:]) == nil)
    }

    @Test func anUnknownProfileOrAMissingFileIsExplained() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CONFIG_HOME": folder.path]
        #expect(throws: ProfileProblem("profile \"x\": there is no config file at \(folder.path)/checkout/config.yaml; `checkout config init` writes an example")) {
            try ProfileSelection.resolve(name: "x", environment: environment)
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("checkout"), withIntermediateDirectories: true)
        try ProfileTemplate.text.write(to: folder.appendingPathComponent("checkout/config.yaml"), atomically: true, encoding: .utf8)
        #expect(throws: ProfileProblem("there is no profile \"x\" in \(folder.path)/checkout/config.yaml; it has team-sandbox, square-sandbox, adyen-test, cashapp-sandbox")) {
            try ProfileSelection.resolve(name: "x", environment: environment)
        }
    }

    @Test func showingAProfileNamesSourcesAndNeverShowsASecret() {
        var shown = profile
        shown.credentials["adyen-hmac-key"] = .inline("0123456789ABCDEF0123")
        let text = ProfileListing.showText(shown, path: "/c/config.yaml")
        #expect(text.contains("--square-access-token from env MY_SQUARE_TOKEN"))
        #expect(text.contains("--adyen-api-key from command `printf 'AQE-from-command\\n'`"))
        #expect(text.contains("--adyen-hmac-key from inline [REDACTED, 20 characters]"))
        #expect(!text.contains("0123456789ABCDEF0123"))
        let json = ProfileListing.showJSON(shown, path: "/c/config.yaml")
        #expect(!json.contains("0123456789ABCDEF0123"))
        #expect(json.contains("\"characters\":20"))
    }
}
