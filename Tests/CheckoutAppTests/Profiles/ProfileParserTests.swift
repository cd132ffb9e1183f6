@testable import CheckoutApp
import Foundation
import PaymentFlow
import Testing

/// The config file as a user writes it: the example `config init` writes is valid, every
/// mistake names its line and field, and a secret in the file needs mode 0600.
@Suite struct ProfileParserTests {
    private func parse(_ text: String) throws(ConfigFileError) -> ProfileConfiguration {
        try ProfileParser.parse(text, file: "config.yaml")
    }

    private func problem(_ text: String) -> ConfigFileError? {
        do {
            _ = try parse(text)
            return nil
        } catch { return error }
    }

    @Test func theExampleFileIsAValidConfigurationWithEveryKindOfSource() throws {
        let configuration = try parse(ProfileTemplate.text)
        #expect(configuration.names == ["team-sandbox", "square-sandbox", "adyen-test", "cashapp-sandbox"])
        let adyen = try #require(configuration.profile("adyen-test"))
        #expect(adyen.providers == ["adyen"])
        #expect(adyen.options["adyen-merchant-account"] == "YourMerchantAccountECOM")
        #expect(adyen.credentials["adyen-api-key"] == .command("pass show adyen/test-api-key"))
        #expect(adyen.credentials["adyen-hmac-key"] == .file("~/.config/checkout/adyen-hmac.key"))
        #expect(configuration.profile("square-sandbox")?.credentials["square-access-token"] == .environment("SQUARE_ACCESS_TOKEN"))
        #expect(configuration.profile("team-sandbox")?.sandboxURL == "http://sandbox.example.internal:8080")
    }

    @Test func mistakesNameTheLineTheFieldAndWhatIsAllowed() {
        let unknownKey = problem("profiles:\n  a:\n    provider: [square]\n")
        #expect(unknownKey?.line == 3)
        #expect(unknownKey?.field == "profiles.a.provider")
        #expect(unknownKey?.problem.contains("takes description, providers, sandbox_url, sandbox_store, options, credentials") == true)

        let unknownProvider = problem("profiles:\n  a:\n    providers: [sqaure]\n")
        #expect(unknownProvider?.problem.contains("\"sqaure\" is not a provider; use cashapp, afterpay, adyen, square, antom, wallet") == true)

        let unknownOption = problem("profiles:\n  a:\n    providers: [square]\n    options:\n      square-location: L1\n")
        #expect(unknownOption?.field == "profiles.a.options.square-location")
        #expect(unknownOption?.problem.contains("square-location-id") == true)

        let badURL = problem("profiles:\n  a:\n    sandbox_url: localhost:8080\n")
        #expect(badURL?.problem.contains("is not an http(s) URL") == true)

        let twoSources = problem("profiles:\n  a:\n    credentials:\n      square-access-token: { env: A, file: /b }\n")
        #expect(twoSources?.problem == "give exactly one of env, file, command or value")

        let badName = problem("profiles:\n  \"a b\":\n    description: x\n")
        #expect(badName?.problem.contains("a profile name is") == true)
    }

    @Test func aSecretUnderOptionsIsSentToCredentials() {
        let error = problem("profiles:\n  a:\n    options:\n      square-access-token: EAAAsecret\n")
        #expect(error?.field == "profiles.a.options.square-access-token")
        #expect(error?.problem.contains("is a secret: put it under credentials with env, file or command") == true)
        // The message never repeats the secret.
        #expect(error?.description.contains("EAAAsecret") == false)
    }

    @Test func aSecretWrittenInTheFileNeedsAFileOnlyItsOwnerCanRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("config.yaml").path
        try "profiles:\n  a:\n    credentials:\n      square-access-token: { value: EAAAsecret }\n".write(toFile: path, atomically: true, encoding: .utf8)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        do {
            _ = try ProfileParser.load(path: path)
            Issue.record("a 0644 file with a secret was read")
        } catch {
            #expect(error.field == "profiles.a.credentials.square-access-token")
            #expect(error.problem.contains("mode 644, which lets others read it; run `chmod 600 \(path)`"))
        }

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let configuration = try #require(try ProfileParser.load(path: path))
        #expect(configuration.profile("a")?.credentials["square-access-token"] == .inline("EAAAsecret"))
    }

    @Test func withoutSecretsInItTheFileMayBeReadableByOthers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("config.yaml").path
        try ProfileTemplate.text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(try ProfileParser.load(path: path)?.profiles.count == 4)
        #expect(try ProfileParser.load(path: folder.appendingPathComponent("none.yaml").path) == nil)
    }

    @Test func theConfigFileFollowsXDG() {
        #expect(ConfigLocation.file(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"]) == "/x/cfg/checkout/config.yaml")
        #expect(ConfigLocation.file(environment: ["HOME": "/home/u"]) == "/home/u/.config/checkout/config.yaml")
        // A relative XDG_CONFIG_HOME is ignored, as the specification says.
        #expect(ConfigLocation.file(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/u"]) == "/home/u/.config/checkout/config.yaml")
    }
}

/// The wallet sheet's request options (issue 28) as a profile sets them: read as the flags are,
/// and a bad value named as the flag names it.
@Suite struct WalletProfileOptionsTests {
    @Test func theWalletsRequestOptionsAreProfileOptions() throws {
        let configuration = try ProfileParser.parse(
            """
            profiles:
              pickup:
                providers: [wallet]
                options:
                  shipping-methods: "free:Free:Soon:0;express:Express:Tomorrow:10.00"
                  shipping-type: storePickup
                  require: email
                  required-billing-fields: name,postal
                  country-code: GB
                  merchant-capabilities: supports3DS,supportsDebit

            """, file: "config.yaml")
        let profile = try #require(configuration.profile("pickup"))
        let descriptor = ProviderDescriptor.wallet
        #expect(descriptor.optionProblem(ProviderOptionValues(profile.options)) == nil)
        let settings = try WalletOptions.settings(ProviderOptionValues(profile.options))
        #expect(settings.shippingType == .storePickup && !settings.collectsAddress)
        #expect(settings.requiredBillingFields == [.name, .postalAddress])
        #expect(settings.countryCode == "GB" && settings.merchantCapabilities == [.supports3DS, .supportsDebit])
        #expect(settings.flatMethods == .list([
            WalletFlatMethod(id: "free", label: "Free", detail: "Soon", amount: "0"), WalletFlatMethod(id: "express", label: "Express", detail: "Tomorrow", amount: "10.00"),
        ]))
        #expect(descriptor.optionProblem(ProviderOptionValues(["shipping-type": "drone"]))?.contains("--shipping-type must be one of") == true)
    }
}
