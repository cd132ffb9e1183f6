import CheckoutModel
import ProviderClients
import ProviderWire

/// A Cash App customer request as an attempt: created, updated and read the one way, by Cash
/// App Pay itself and by the providers whose payment runs through one (Afterpay, Adyen).
public struct CashAppRequests: Sendable {
    public let provider: String
    public let client: any CustomerRequestAPI
    /// Retrieval retries while refreshing (STATES.md: 3 tries with back-off).
    public let refreshRetry: RetryPolicy

    public init(provider: String, client: any CustomerRequestAPI, refreshRetry: RetryPolicy = .standard.withMaxAttempts(3)) {
        self.provider = provider
        self.client = client
        self.refreshRetry = refreshRetry
    }

    /// What the request for `draft` is created with: `actions`, its reference and the order's metadata.
    public static func createParams(
        _ draft: PaymentAttempt, order: PaymentOrder, actions: [PaymentAction], channel: CustomerRequest.Channel, redirectURL: String
    ) -> CreateCustomerRequestParams {
        CreateCustomerRequestParams(actions: actions, channel: channel, redirectURL: redirectURL, referenceID: draft.reference, metadata: metadata(order))
    }

    /// Creates the request; retries reuse `idempotencyKey`.
    public func create(_ params: CreateCustomerRequestParams, idempotencyKey: String) async throws(ProviderFailure) -> PaymentAttempt {
        do { return PaymentAttempt(cashAppRequest: try await client.create(params, idempotencyKey: idempotencyKey), provider: provider) } catch {
            throw ProviderFailure(error)
        }
    }

    /// Changes the undecided request to `actions`.
    public func update(
        _ attempt: PaymentAttempt, actions: [PaymentAction], reference: String?, metadata: [String: String]?
    ) async throws(ProviderFailure) -> PaymentAttempt {
        let params = UpdateCustomerRequestParams(actions: actions, referenceID: reference, metadata: metadata)
        do { return PaymentAttempt(cashAppRequest: try await client.update(id: attempt.id ?? "", with: params), provider: provider) } catch {
            throw ProviderFailure(error)
        }
    }

    /// Reads the request again: once while polling, with `refreshRetry` when refreshing its link.
    public func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt {
        do {
            let request = try await client.retrieve(id: attempt.id ?? "", retryPolicy: refreshing ? refreshRetry : nil)
            return PaymentAttempt(cashAppRequest: request, provider: provider)
        } catch {
            throw ProviderFailure(error)
        }
    }

    /// The order's metadata, or none when it has none.
    public static func metadata(_ order: PaymentOrder) -> [String: String]? {
        order.metadata.isEmpty ? nil : order.metadata
    }
}
