@testable import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import Synchronization
import TerminalUI
import Testing

/// A provider added with new files and one registry entry (`ProviderRegistry.withTestPay`)
/// shows up everywhere providers are listed or chosen, and checks out end to end.
@Suite struct TestProviderTests {
    let registry = ProviderRegistry.withTestPay

    @Test func itIsInThePaymentPane() throws {
        var state = AppState(
            catalog: try Catalog.bundled(), endpointLabel: "embedded sandbox", customerSimulated: true,
            paymentMethods: registry.paymentMethods, now: Screens.start)
        #expect(state.paymentMethods.map(\.id) == ProviderRegistry.builtIn.ids + ["testpay"])
        let text = CheckoutView.render(state).text
        #expect(text.contains("Test Pay"))
        let downs = [Key](repeating: .down, count: ProviderRegistry.builtIn.ids.count)
        _ = Screens.apply(([.tab, .tab] + downs + [.enter]).map { .key($0) }, to: &state)
        #expect(state.selectedPaymentMethod.label == "Test Pay")
        guard case .session(.pay(_, let provider))? = Screens.apply([.key(.character("p"))], to: &state).first else {
            Issue.record("p did not pay")
            return
        }
        #expect(provider == ProviderPlan(id: "testpay"))
    }

    @Test func checkoutProvidersListsIt() throws {
        let text = ProvidersListing.text(registry)
        #expect(text.contains("testpay — Test Pay (tests only)"))
        #expect(text.contains("POST /testpay/v1/payments"))
        #expect(text.contains("--testpay-url <url>"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ProvidersListing.json(registry).utf8)) as? [String: Any])
        let providers = try #require(json["providers"] as? [[String: Any]])
        #expect(providers.map { $0["id"] as? String } == ProviderRegistry.builtIn.ids + ["testpay"])
        #expect((providers.last?["magic_values"] as? [[String: Any]])?.count == 1)
    }

    @Test func providerNamesItAndItsOptionsAreSplitOffTheCommandLine() throws {
        #expect(try registry.resolve("testpay").method.label == "Test Pay")
        #expect(throws: UnknownProvider.self) { try ProviderRegistry.builtIn.resolve("testpay") }
        let (values, rest) = try ProviderArguments.split(
            ["run", "--provider", "testpay", "--testpay-url=https://testpay.example", "--json"], options: registry.options)
        #expect(values["testpay-url"] == "https://testpay.example")
        #expect(rest == ["run", "--provider", "testpay", "--json"])
        #expect(ProviderArguments.help(registry).contains("--testpay-url <url>"))
    }

    @Test func scenariosNameIt() throws {
        let catalog = try Catalog.bundled()
        let scenario = try ScenarioParser.parse("name: t\nprovider: testpay\ncustomer: decline\n", file: "t.yaml", catalog: catalog, registry: registry)
        #expect(scenario.provider == "testpay")
        do {
            _ = try ScenarioParser.parse("name: t\nprovider: testpay\ncustomer: approve-after 3\n", file: "t.yaml", catalog: catalog, registry: registry)
            Issue.record("testpay does not list approve-after")
        } catch {
            #expect(error.description.contains("testpay does not support \"approve-after\""), "\(error)")
        }
        do {
            _ = try ScenarioParser.parse("name: t\nprovider: testpay\n", file: "t.yaml", catalog: catalog)
            Issue.record("the built-in registry has no testpay")
        } catch {
            #expect(error.description.contains("use one of cashapp, afterpay"), "\(error)")
        }
    }

    @Test func itBringsItsOwnSubcommand() throws {
        #expect(registry.commands.map(\.name) == ProviderRegistry.builtIn.commands.map(\.name) + ["testpay-status"])
        let command = try #require(registry.commands.last)
        #expect(try command.type.parseAsRoot(["--json"]) is TestPayStatusCommand)
        // The root finds a provider's command by the name its descriptor gives, without building its help.
        for command in registry.commands { #expect(command.type._commandName == command.name) }
    }

    @Test func itsExampleProfileIsInTheTemplate() throws {
        let text = ProfileTemplate.text(for: registry)
        #expect(text.hasPrefix(ProfileTemplate.text))
        #expect(text.hasSuffix("\n  # Test Pay's own host.\n  testpay-live:\n    providers: [testpay]\n    options:\n      testpay-url: https://testpay.example\n"))
        let configuration = try ProfileParser.parse(text, file: "config.yaml", registry: registry)
        #expect(configuration.profile("testpay-live")?.options["testpay-url"] == "https://testpay.example")
    }

    @Test func scenariosKeepItsReferenceLimit() throws {
        let catalog = try Catalog.bundled()
        let fits = try ScenarioParser.parse("name: t\nprovider: testpay\nreference_id: abcdefgh\n", file: "t.yaml", catalog: catalog, registry: registry)
        #expect(fits.referenceID == "abcdefgh")
        do {
            _ = try ScenarioParser.parse("name: t\nprovider: testpay\nreference_id: abcdefghi\n", file: "t.yaml", catalog: catalog, registry: registry)
            Issue.record("a 9-character reference passed Test Pay's limit of 8")
        } catch {
            #expect(error.description.contains("reference_id: is 9 characters; Test Pay allows 8"), "\(error)")
        }
    }

    @Test(arguments: [(CustomerBehaviour.approve, CheckoutApp.ExitStatus.approved, "approved"), (.decline, .declined, "declined")])
    func itChecksOutEndToEndThroughTheCoordinatorAndItsSandbox(customer: CustomerBehaviour, exit: CheckoutApp.ExitStatus, end: String) async throws {
        var scenario = Scenario(name: "test pay")
        scenario.provider = "testpay"
        scenario.customer = customer
        let lines = Mutex<[String]>([])
        let options = HeadlessOptions(session: SessionOptions(registry: registry), scenario: scenario, timeoutSeconds: 20)
        let status = await HeadlessCheckout(options: options, write: { line in lines.withLock { $0.append(line) } }, writeError: { _ in }).run()
        #expect(status == exit)
        let states = lines.withLock { $0 }.filter { $0.hasPrefix("state: ") }.map { String($0.split(separator: " ")[1]) }
        #expect(states == ["notStarted", "creatingCustomerRequest", "readyToAuthorize", "redirecting", "polling", end])
    }
}
