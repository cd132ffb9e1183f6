import Foundation
import Hummingbird
import ProviderWire

/// `GET /vNN/storedPaymentMethods` and `DELETE /vNN/storedPaymentMethods/{id}` (the merchant's
/// side); `POST /vNN/storedPaymentMethods`, which tokenizes card details, checked as Adyen
/// checks it and then refused as Adyen refuses payment details it cannot store (this sandbox
/// stores Cash App Pay methods only, through a payment with `storePaymentMethod`); and the control route `POST /sandbox/adyen/stored-payment-methods/{id}/disable` (the
/// shopper removing the method in Cash App, which Adyen reports as recurring.token.disabled).
struct AdyenStoredMethodRoutes {
    let endpoint: AdyenEndpoint

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.get(":version/storedPaymentMethods") { request, context in
            try await endpoint.read(request, context) { () throws -> Response in try await list(request) }
        }
        router.post(":version/storedPaymentMethods") { request, context in
            try await endpoint.post(request, context) { body, _ throws in try store(body) }
        }
        router.delete(":version/storedPaymentMethods/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await endpoint.read(request, context) { () throws -> Response in try await delete(id, request) }
        }
        router.post("sandbox/adyen/stored-payment-methods/:id/disable") { _, context in
            try await disable(context.parameters.get("id") ?? "")
        }
    }

    /// The shopperReference and merchantAccount query parameters, both required.
    private func owner(_ request: Request) throws -> (shopper: String, merchant: String) {
        let query = request.uri.queryParameters
        let merchant = try AdyenEndpoint.merchant(query.get("merchantAccount"))
        guard let shopper = query.get("shopperReference"), !shopper.isEmpty,
            shopper.count <= AdyenPaymentValidation.maxShopperReferenceLength
        else {
            throw AdyenRejection.invalid("14_0", "Query parameter 'shopperReference' is required (1 to 256 characters).")
        }
        return (shopper, merchant)
    }

    private func list(_ request: Request) async throws -> Response {
        let (shopper, merchant) = try owner(request)
        try await endpoint.storedMethods.evictDue(now: endpoint.settings.now(), limits: endpoint.settings.limits)
        let methods = try await endpoint.storedMethods.active(shopperReference: shopper, merchantAccount: merchant).map(\.resource)
        return AdyenJSON.response(AdyenStoredPaymentMethodsResponse(merchantAccount: merchant, shopperReference: shopper, storedPaymentMethods: methods))
    }

    private func delete(_ id: String, _ request: Request) async throws -> Response {
        let (shopper, merchant) = try owner(request)
        guard try await endpoint.storedMethods.delete(id: id, shopperReference: shopper, merchantAccount: merchant) else {
            throw AdyenRejection.invalid("800", "Contract not found: \(id.prefix(64)) is not a stored method of shopper \(shopper.prefix(64)).")
        }
        return Response(status: .noContent)
    }

    /// The request's required fields, then `905`: nothing this sandbox can tokenize that way.
    private func store(_ data: Data) throws -> AdyenEndpoint.Answer {
        let body = try endpoint.reader.decode(AdyenIncoming.StoredMethod.self, from: data)
        _ = try AdyenEndpoint.merchant(body.merchantAccount)
        guard let shopper = body.shopperReference, !shopper.isEmpty, shopper.count <= AdyenPaymentValidation.maxShopperReferenceLength else {
            throw AdyenRejection.invalid("14_0", "Required field 'shopperReference' is not provided (1 to 256 characters).")
        }
        guard body.paymentMethod != nil else { throw AdyenRejection.invalid("14_0", "Required field 'paymentMethod' is not provided.") }
        guard let model = body.recurringProcessingModel, AdyenIncoming.StoredMethod.processingModels.contains(model) else {
            throw AdyenRejection.invalid("14_0", "Field 'recurringProcessingModel' must be CardOnFile, Subscription or UnscheduledCardOnFile.")
        }
        throw AdyenRejection.invalid(
            "905", "Payment details are not supported: this sandbox stores Cash App Pay methods only, through POST /payments with storePaymentMethod.")
    }

    private func disable(_ id: String) async throws(SandboxStoreUnavailable) -> Response {
        guard let method = try await endpoint.storedMethods.disable(id: id) else {
            return SandboxError(.notFound, "NOT_FOUND", "No active Adyen stored payment method \(id.prefix(64)).").response
        }
        try await endpoint.notifier.token(
            AdyenTokenNotification.disabled, merchantAccount: method.merchantAccount, shopperReference: method.shopperReference,
            storedPaymentMethodID: method.id, operation: nil)
        return SandboxResponse.json(["id": method.id, "shopperReference": method.shopperReference, "status": "disabled"])
    }
}
