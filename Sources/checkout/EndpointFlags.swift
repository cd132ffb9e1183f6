import ArgumentParser
import CheckoutApp
import Foundation

/// Where Cash App Pay calls go; shared by the screen and `checkout run`.
struct EndpointFlags: ParsableArguments {
    @Option(name: .customLong("cashapp-url"), help: ArgumentHelp(
        "Cash App API host root, e.g. https://sandbox.api.cash.app (default: the embedded sandbox).", valueName: "url"))
    var cashAppURL: String?

    @Option(name: .customLong("client-id"), help: ArgumentHelp("Cash App client id (or CASHAPP_CLIENT_ID).", valueName: "id"))
    var clientID: String?

    @Option(name: .customLong("brand-id"), help: ArgumentHelp("Cash App brand id used as the scope (or CASHAPP_BRAND_ID).", valueName: "id"))
    var brandID: String?

    var endpoint: CashAppEndpointOptions {
        CashAppEndpointOptions(baseURL: cashAppURL, clientID: clientID, brandID: brandID)
            .withEnvironment(ProcessInfo.processInfo.environment)
    }

    func validate() throws {
        if let problem = endpoint.problem { throw ValidationError(problem) }
    }
}
