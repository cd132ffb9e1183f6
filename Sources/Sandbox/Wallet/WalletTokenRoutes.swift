import Foundation
import Hummingbird
import ProviderWire

/// `POST /wallet/tokens`: the sandbox standing in for PassKit. The customer has authorized the
/// sheet; this answers the payment token Apple would hand the app (and the Square nonce for the
/// same authorization), valid for its amount only, for five minutes. The same request with the
/// same transactionIdentifier again (a retry) gets the same token, so a retried charge stays
/// the same charge.
struct WalletTokenRoutes {
    let settings: SandboxSettings
    let tokens: WalletTokenStore

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.post("wallet/tokens") { request, _ -> Response in
            try await issue(request)
        }
    }

    func issue(_ request: Request) async throws(SandboxStoreUnavailable) -> Response {
        let data: Data
        do { data = try await request.readBody(limit: settings.limits.maxBodyBytes) } catch let error as BodyTooLarge {
            return SandboxResponse.json(WalletErrorBody(error: "The \(error)."), status: .contentTooLarge)
        } catch {
            return SandboxResponse.json(WalletErrorBody(error: "the request body could not be read"), status: .badRequest)
        }
        let valid: WalletTokenRequest
        do throws(WalletTokenRejection) { valid = try WalletTokenCheck.validate(data) } catch {
            return SandboxResponse.json(error.body, status: .badRequest)
        }
        let now = settings.now()
        let transactionID = valid.transactionIdentifier ?? WalletTokenCheck.randomTransactionID()
        let outcome = try await tokens.issue(valid, transactionID: transactionID, now: now, limits: settings.limits) {
            WalletTokenSigner.issue(WalletTokenPayload(
                network: valid.network, last4: valid.last4, amount: valid.amount, currency: valid.currency,
                merchantIdentifier: valid.merchantIdentifier, transactionId: transactionID, issuedAt: Int(now.timeIntervalSince1970.rounded(.down)),
                countryCode: valid.countryCode, merchantCapabilities: valid.merchantCapabilities))
        }
        switch outcome {
        case .issued(let response), .replay(let response):
            return SandboxResponse.json(response)
        case .conflict:
            return SandboxResponse.json(
                WalletErrorBody(
                    error: "transactionIdentifier \(transactionID.prefix(64)) was already authorized for another payment request; use a new one",
                    field: "transactionIdentifier"),
                status: .conflict)
        }
    }
}
