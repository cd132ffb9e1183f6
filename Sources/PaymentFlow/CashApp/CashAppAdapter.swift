import CheckoutModel
import ProviderClients
import ProviderWire

/// Cash App Pay's Customer Request API as the coordinator's steps: create with the attempt's
/// idempotency key, update the amount before authorizing, retrieve to poll or refresh.
public struct CashAppAdapter: PaymentProviderAdapter {
    public static let redirectURL = "terminalcheckout://checkout/return"

    public let provider: String
    public let client: any CustomerRequestAPI
    public let brandID: String
    /// Retrieval retries while refreshing (STATES.md: 3 tries with back-off).
    public let refreshRetry: RetryPolicy

    public init(provider: String, client: any CustomerRequestAPI, brandID: String, refreshRetry: RetryPolicy = .standard.withMaxAttempts(3)) {
        self.provider = provider
        self.client = client
        self.brandID = brandID
        self.refreshRetry = refreshRetry
    }

    /// The one-time payment the request asks for.
    public static func actions(scopeID: String, amount: Money) -> [PaymentAction] {
        [.oneTimePayment(scopeID: scopeID, amount: amount.minorUnits, currency: amount.currency.code)]
    }

    public static func createParams(_ draft: PaymentAttempt, order: PaymentOrder, brandID: String) -> CreateCustomerRequestParams {
        CreateCustomerRequestParams(
            actions: actions(scopeID: brandID, amount: draft.amount ?? order.amount), channel: .ONLINE, redirectURL: redirectURL,
            referenceID: draft.reference, metadata: order.metadata.isEmpty ? nil : order.metadata)
    }

    public func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        let params = Self.createParams(draft, order: order, brandID: brandID)
        do { return PaymentAttempt(cashAppRequest: try await client.create(params, idempotencyKey: ids.idempotencyKey), provider: provider) } catch {
            throw ProviderFailure(cashApp: error)
        }
    }

    public func update(
        _ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers
    ) async throws(ProviderFailure) -> PaymentAttempt {
        let params = UpdateCustomerRequestParams(
            actions: Self.actions(scopeID: brandID, amount: draft.amount ?? order.amount), referenceID: attempt.reference,
            metadata: order.metadata.isEmpty ? nil : order.metadata)
        do { return PaymentAttempt(cashAppRequest: try await client.update(id: attempt.id ?? "", with: params), provider: provider) } catch {
            throw ProviderFailure(cashApp: error)
        }
    }

    public func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt {
        do {
            let request = try await client.retrieve(id: attempt.id ?? "", retryPolicy: refreshing ? refreshRetry : nil)
            return PaymentAttempt(cashAppRequest: request, provider: provider)
        } catch {
            throw ProviderFailure(cashApp: error)
        }
    }
}
