import CheckoutModel
import Foundation
import Hummingbird
import ProviderWire

/// Afterpay's checkout (create and get), sign, validate, capture and get-payment endpoints (its
/// captures are in `GET /sandbox/ledger`).
struct AfterpayRoutes {
    let merchant: AfterpayMerchant
    let store: AfterpayStore
    let customerRequests: CustomerRequestStore
    let signer: AfterpaySigner
    let settings: SandboxSettings

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.post("v2/checkouts") { request, context in
            try await answer { try await createCheckout(request, context) }
        }
        router.get("v2/configuration") { request, context in
            try await answer { try configuration(request) }
        }
        router.get("v2/configuration/mappings") { request, _ in
            try await answer {
                try authenticate(request)
                return SandboxResponse.json(AfterpayConfigurationMappings(name: merchant.brandName, externalBrandId: merchant.brandID))
            }
        }
        router.get("v2/checkouts/{token}") { request, context in
            try await answer { try await checkout(request, context) }
        }
        router.post("v2/payments/sign-payment") { request, context in
            try await answer { try await sign(request, context) }
        }
        router.post("v2/payments/validate-payment") { request, context in
            try await answer { try await validate(request, context) }
        }
        router.post("v2/payments/capture") { request, context in
            try await answer { try await capture(request, context) }
        }
        router.get("v2/payments/{reference}") { request, context in
            try await answer { try await payment(request, context) }
        }
    }

    /// Every endpoint first forgets checkouts past their retention, so they answer as unknown.
    /// Each is one transaction of the sandbox's store.
    private func answer(_ handler: () async throws -> Response) async throws -> Response {
        try await settings.storage.atomically {
            try await store.evictDue(now: settings.now(), limits: settings.limits)
            return try await afterpayAnswer(handler)
        }
    }

    /// Get Payment By Token (`token:{token}`) or by order id: what a capture created, so a client
    /// whose capture response was lost can learn whether money moved.
    private func payment(_ request: Request, _ context: SandboxRequestContext) async throws -> Response {
        try authenticate(request)
        let reference = context.parameters.get("reference") ?? ""
        let found = reference.hasPrefix("token:")
            ? try await store.checkout(token: String(reference.dropFirst("token:".count)))?.payment
            : try await store.payment(id: reference)
        guard let found else {
            throw AfterpayRejection(.notFound, "not_found", "No payment exists for \(reference).")
        }
        return SandboxResponse.json(found)
    }

    /// Get Configuration: the merchant's order limits (and with `include=publicid` its public id).
    /// Afterpay's answer has no Cash App client id: the SDK takes that from its environment.
    private func configuration(_ request: Request) throws(AfterpayRejection) -> Response {
        try authenticate(request)
        func money(_ cents: Int) -> AfterpayMoney {
            AfterpayMoney(amount: "\(cents / 100).\(String(format: "%02d", cents % 100))", currency: "USD")
        }
        let includes = request.uri.queryParameters.getAll("include").map { $0.lowercased() }
        return SandboxResponse.json(AfterpayMerchantConfiguration(
            minimumAmount: money(merchant.minimumCents), maximumAmount: money(merchant.maximumCents),
            publicId: includes.contains("publicid") ? merchant.publicID : nil))
    }

    private func authenticate(_ request: Request) throws(AfterpayRejection) {
        let expected = "Basic " + Data("\(merchant.merchantID):\(merchant.secretKey)".utf8).base64EncodedString()
        guard request.headers.value(.authorization) == expected else {
            throw AfterpayRejection(.unauthorized, "unauthorized", "Credentials are required to access this resource: send HTTP Basic merchantId:secretKey.")
        }
    }

    private func decode<Body: Decodable>(_ request: Request, _ context: SandboxRequestContext) async throws(AfterpayRejection) -> Body {
        let data: Data
        do { data = try await request.readBody(limit: settings.limits.maxBodyBytes) } catch let error as BodyTooLarge {
            throw AfterpayRejection(.contentTooLarge, "payload_too_large", "The \(error).")
        } catch {
            throw AfterpayRejection(.badRequest, "invalid_json", "The request body could not be read.")
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: data) else {
            throw AfterpayRejection(.badRequest, "invalid_json", "The request body is not valid JSON for this endpoint.")
        }
        return body
    }

    private func createCheckout(_ request: Request, _ context: SandboxRequestContext) async throws -> Response {
        try authenticate(request)
        let body: AfterpayCheckoutRequest = try await decode(request, context)
        func missing(_ field: String) -> AfterpayRejection {
            AfterpayRejection(.unprocessableContent, "invalid_object", "\(field) is required.")
        }
        guard let amount = body.amount else { throw missing("amount") }
        guard let email = body.consumer?.email, !email.isEmpty else { throw missing("consumer.email") }
        if body.isCashAppPay == true {
            guard let confirm = body.merchant?.redirectConfirmUrl, !confirm.isEmpty else { throw missing("merchant.redirectConfirmUrl") }
            guard let cancel = body.merchant?.redirectCancelUrl, !cancel.isEmpty else { throw missing("merchant.redirectCancelUrl") }
        }
        let cents = try AfterpayMoneyFormat.minorUnits(amount, field: "amount")
        try checkOtherMoney(body)
        guard let currency = Currency.withCode(amount.currency), currency == .usd else {
            throw AfterpayRejection(.unprocessableContent, "unsupported_currency", "Currency \(amount.currency) is not supported by this merchant.")
        }
        guard (merchant.minimumCents...merchant.maximumCents).contains(cents) else {
            throw AfterpayRejection(
                .unprocessableContent, "unsupported_payment_type",
                "The order amount is outside the merchant's Afterpay limits (\(merchant.minimumCents / 100).00–\(merchant.maximumCents / 100).00).")
        }
        guard (body.items?.count ?? 0) <= 100 else { throw AfterpayRejection(.unprocessableContent, "invalid_object", "items has more than 100 entries.") }
        let token = "002." + SandboxIDs.make("", length: 40)
        let now = settings.now()
        let expires = now.addingTimeInterval(3600)
        try await store.add(.init(token: token, request: body, cents: cents, currency: currency.code, expires: expires), now: now, limits: settings.limits)
        return SandboxResponse.json(AfterpayCheckoutResponse(
            token: token, expires: ISO8601Milliseconds.string(from: expires),
            redirectCheckoutUrl: "\(request.baseURL)/sandbox/afterpay/checkout?token=\(token)"), status: .created)
    }

    /// Get Checkout: the checkout as it was created, with its token, expiry and redirect URL,
    /// while the sandbox keeps it.
    private func checkout(_ request: Request, _ context: SandboxRequestContext) async throws -> Response {
        try authenticate(request)
        let token = context.parameters.get("token") ?? ""
        guard let checkout = try await store.checkout(token: token) else {
            throw AfterpayRejection(.notFound, "not_found", "No checkout exists for token \(token.prefix(128)).")
        }
        return SandboxResponse.json(AfterpayCheckoutDetails(
            token: checkout.token, expires: ISO8601Milliseconds.string(from: checkout.expires),
            redirectCheckoutUrl: "\(request.baseURL)/sandbox/afterpay/checkout?token=\(checkout.token)", request: checkout.request))
    }

    /// Every other Money in a checkout must be written as Afterpay writes money, too.
    private func checkOtherMoney(_ body: AfterpayCheckoutRequest) throws(AfterpayRejection) {
        var fields: [(String, AfterpayMoney)] = []
        if let tax = body.taxAmount { fields.append(("taxAmount", tax)) }
        if let shipping = body.shippingAmount { fields.append(("shippingAmount", shipping)) }
        for (index, item) in (body.items ?? []).enumerated() { fields.append(("items[\(index)].price", item.price)) }
        for (index, discount) in (body.discounts ?? []).enumerated() { fields.append(("discounts[\(index)].amount", discount.amount)) }
        for (field, money) in fields { _ = try AfterpayMoneyFormat.minorUnits(money, field: field) }
    }

    private func sign(_ request: Request, _ context: SandboxRequestContext) async throws -> Response {
        let body: AfterpaySignRequest = try await decode(request, context)
        let checkout = try await liveCheckout(body.token)
        var signFails = checkout.cents == AfterpayMagic.signFailsAlwaysCents
        if !signFails, checkout.cents == AfterpayMagic.signFailsOnceCents { signFails = try await !store.signFailedBefore(checkout) }
        if signFails {
            _ = try await store.update(token: checkout.token) { $0.signFailed = true }
            throw AfterpayRejection(
                .internalServerError, "error",
                "Sandbox magic amount \(checkout.cents / 100).\(String(format: "%02d", checkout.cents % 100)): the payment could not be signed; retry with a new checkout token.")
        }
        let payment = AfterpaySignedPayment(
            amount: .init(amount: checkout.request.amount?.amount ?? "0.00", currency: checkout.currency, symbol: "$"),
            token: checkout.token, externalMerchantId: merchant.externalMerchantID,
            redirectUrl: checkout.request.merchant?.redirectConfirmUrl ?? "")
        let jwt: String
        do { jwt = try await signer.sign(payment) } catch {
            throw AfterpayRejection(.internalServerError, "error", "Signing failed: \(error).")
        }
        return SandboxResponse.json(AfterpaySignResponse(externalBrandId: merchant.brandID, jwtToken: jwt, redirectUrl: payment.redirectUrl))
    }

    private func validate(_ request: Request, _ context: SandboxRequestContext) async throws -> Response {
        let body: AfterpayValidateRequest = try await decode(request, context)
        func invalid(_ message: String) -> Response {
            SandboxResponse.json(AfterpayValidateResponse(cashAppTag: nil, status: "INVALID", callbackBaseUrl: nil, message: message))
        }
        guard let signed = await signer.verify(body.jwt) else { return invalid("The jwt was not signed by Afterpay.") }
        guard let checkout = try await store.checkout(token: signed.token) else { return invalid("The jwt names an unknown checkout token.") }
        guard let (customerRequest, grant) = try await customerRequests.grant(id: body.externalGrantId) else {
            return invalid("No grant \(body.externalGrantId) exists.")
        }
        guard checkout.cents != AfterpayMagic.invalidValidationCents else {
            return invalid("Sandbox magic amount 55.50: Cash App could not validate this payment.")
        }
        guard customerRequest.status == .APPROVED, grant.status == .ACTIVE else { return invalid("The grant is not active on an approved request.") }
        guard grant.customerID == body.externalCustomerId else { return invalid("The grant belongs to another customer.") }
        guard grant.action.scopeID == merchant.brandID, grant.action.amount == checkout.cents else {
            return invalid("The grant is for another merchant or amount than this checkout.")
        }
        _ = try await store.update(token: checkout.token) { $0.validated = .init(grantID: grant.id, customerID: grant.customerID) }
        return SandboxResponse.json(AfterpayValidateResponse(
            cashAppTag: customerRequest.customerProfile?.cashtag, status: "SUCCESS",
            callbackBaseUrl: "\(request.baseURL)/sandbox/afterpay/callbacks"))
    }

    private func capture(_ request: Request, _ context: SandboxRequestContext) async throws -> Response {
        try authenticate(request)
        let body: AfterpayCaptureRequest = try await decode(request, context)
        _ = try await liveCheckout(body.token, allowExpired: true)
        let now = ISO8601Milliseconds.string(from: settings.now())
        let captured = try await store.update(token: body.token) { checkout in
            checkout.captureRequests += 1
            guard checkout.payment == nil else { return }  // Idempotent on the token: the same payment again.
            let approved = checkout.validated != nil && (body.grantId == nil || body.grantId == checkout.validated?.grantID)
                && checkout.cents != AfterpayMagic.declinedCaptureCents
            let amount = checkout.request.amount ?? AfterpayMoney(amount: "0.00", currency: checkout.currency)
            let zero = AfterpayMoney(amount: "0.00", currency: checkout.currency)
            checkout.payment = AfterpayPayment(
                id: String(100_000_000 + Int.random(in: 0..<899_999_999)), token: checkout.token,
                status: approved ? "APPROVED" : "DECLINED", created: now, originalAmount: amount,
                openToCaptureAmount: approved ? zero : amount, paymentState: approved ? "CAPTURED" : "CAPTURE_DECLINED",
                merchantReference: body.merchantReference ?? checkout.request.merchantReference,
                events: approved ? [.init(id: SandboxIDs.make("EVT_", length: 12), created: now, type: "CAPTURED", amount: amount)] : [])
            if approved { checkout.captures = 1 }
        }
        guard let payment = captured?.payment else { throw unknownToken(body.token) }
        return SandboxResponse.json(payment, status: .created)
    }

    private func liveCheckout(_ token: String, allowExpired: Bool = false) async throws -> AfterpayStore.Checkout {
        guard let checkout = try await store.checkout(token: token) else { throw unknownToken(token) }
        guard allowExpired || checkout.expires > settings.now() else {
            throw AfterpayRejection(HTTPResponse.Status(code: 402, reasonPhrase: "Payment Required"), "invalid_token", "The checkout token has expired; create a new checkout.")
        }
        return checkout
    }

    private func unknownToken(_ token: String) -> AfterpayRejection {
        AfterpayRejection(HTTPResponse.Status(code: 402, reasonPhrase: "Payment Required"), "invalid_token", "The checkout token \(token) is not known.")
    }
}

/// Get Checkout's answer: the create request's fields beside the create answer's.
struct AfterpayCheckoutDetails: Encodable {
    let token: String
    let expires: String
    let redirectCheckoutUrl: String
    let request: AfterpayCheckoutRequest

    private enum CodingKeys: String, CodingKey { case token, expires, redirectCheckoutUrl }

    func encode(to encoder: any Encoder) throws {
        try request.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
        try container.encode(expires, forKey: .expires)
        try container.encode(redirectCheckoutUrl, forKey: .redirectCheckoutUrl)
    }
}

/// An Afterpay error with its HTTP status.
struct AfterpayRejection: Error {
    let status: HTTPResponse.Status
    let code: String
    let message: String

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    var response: Response {
        SandboxResponse.json(
            AfterpayError(errorCode: code, errorId: SandboxIDs.make("", length: 16), message: message, httpStatusCode: Int(status.code)),
            status: status)
    }
}

/// Runs a handler, turning its rejection into Afterpay's error response; a store failure goes on
/// up (`SandboxResponder` answers it).
func afterpayAnswer(_ handler: () async throws -> Response) async throws -> Response {
    do { return try await handler() } catch let rejection as AfterpayRejection { return rejection.response }
}
