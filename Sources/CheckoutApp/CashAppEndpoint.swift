import Foundation
import ProviderClients
import Sandbox

/// Where Cash App Pay calls go: the embedded sandbox, or a real host with the user's credentials.
public struct CashAppEndpointOptions: Sendable {
    public static let sandboxClientID = "CAS-CI_TERMINALCHECKOUT"
    public static let sandboxBrandID = "BRAND_terminalcheckout"

    /// The API host root; nil starts the embedded sandbox.
    public var baseURL: String?
    public var clientID: String?
    public var brandID: String?

    public init(baseURL: String? = nil, clientID: String? = nil, brandID: String? = nil) {
        self.baseURL = baseURL
        self.clientID = clientID
        self.brandID = brandID
    }

    /// Fills client and brand id from CASHAPP_CLIENT_ID / CASHAPP_BRAND_ID where flags left them out.
    public func withEnvironment(_ environment: [String: String]) -> CashAppEndpointOptions {
        var copy = self
        copy.clientID = clientID ?? environment.nonEmpty("CASHAPP_CLIENT_ID")
        copy.brandID = brandID ?? environment.nonEmpty("CASHAPP_BRAND_ID")
        return copy
    }

    /// A problem with the options, worded for the user; nil when they are usable.
    public var problem: String? {
        guard let baseURL else { return nil }
        guard let url = URL(string: baseURL), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            return "--cashapp-url \(baseURL) is not an http(s) URL; give the API host root, e.g. \(CashAppConfiguration.sandboxHost)"
        }
        if clientID == nil {
            return "--cashapp-url needs your client id: pass --client-id or set CASHAPP_CLIENT_ID"
        }
        if brandID == nil {
            return "--cashapp-url needs your brand id: pass --brand-id or set CASHAPP_BRAND_ID"
        }
        return nil
    }

    public var usesEmbeddedSandbox: Bool { baseURL == nil }

    /// The configuration to use, given the embedded sandbox's URL when one runs.
    public func configuration(sandboxURL: String?) -> CashAppConfiguration {
        CashAppConfiguration(
            baseURL: baseURL ?? sandboxURL ?? "",
            clientID: clientID ?? Self.sandboxClientID,
            brandID: brandID ?? Self.sandboxBrandID)
    }
}
