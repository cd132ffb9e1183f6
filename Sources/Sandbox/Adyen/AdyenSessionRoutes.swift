import Foundation
import Hummingbird
import ProviderWire

/// Adyen's sessions flow. The merchant's side (`X-API-Key`): `POST /vNN/sessions` and
/// `GET /vNN/sessions/{id}?sessionResult=…`. The component's side, on the client-key host's
/// paths (`?clientKey=test_…`, never the API key): `POST /checkoutshopper/v1/sessions/{id}/setup`,
/// `/payments` and `/paymentDetails`, each answer carrying the `sessionData` the next call must
/// send; and the page a `RedirectShopper` action sends the shopper to
/// (`GET /checkoutshopper/checkoutPaymentRedirect?redirectData=…`, 302 to the returnUrl with
/// `redirectResult`). Payments go through `AdyenPayments`, as `/payments` does.
struct AdyenSessionRoutes {
    let endpoint: AdyenEndpoint
    let sessions: AdyenSessionStore

    /// Adyen's default session lifetime, and the longest `expiresAt` may ask for.
    static let defaultLifetime: TimeInterval = 3_600
    static let longestLifetime: TimeInterval = 86_400

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.post(":version/sessions") { request, context in
            try await endpoint.post(request, context) { body, _ throws in try await create(body) }
        }
        router.get(":version/sessions/:sessionId") { request, context in
            let id = context.parameters.get("sessionId") ?? ""
            return try await endpoint.read(request, context) { () throws -> Response in try await result(id, request) }
        }
        router.post("checkoutshopper/v1/sessions/:sessionId/setup") { request, context in try await component(.setup, request, context) }
        router.post("checkoutshopper/v1/sessions/:sessionId/payments") { request, context in try await component(.payments, request, context) }
        router.post("checkoutshopper/v1/sessions/:sessionId/paymentDetails") { request, context in
            try await component(.paymentDetails, request, context)
        }
        router.get("checkoutshopper/checkoutPaymentRedirect") { request, _ in try await redirectPage(request) }
    }

    // MARK: - The merchant's side

    /// A `POST /sessions` body whose fields are all present and in range.
    struct ValidSession {
        let merchantAccount: String
        let amount: AdyenAmount
        let reference: String
        let returnUrl: String
        let expiresAt: Date
        let storeMode: AdyenStorePaymentMethodMode
    }

    /// Adyen's checks on a `POST /sessions` body: the order's fields as `/payments` checks them,
    /// the enums, and `expiresAt` (default an hour from `now`, at most 24 hours ahead).
    static func validate(_ body: AdyenIncoming.Session, now: Date) throws -> ValidSession {
        let order = try AdyenPaymentValidation.checkOrder(
            merchantAccount: body.merchantAccount, amount: body.amount, reference: body.reference, returnUrl: body.returnUrl,
            shopperReference: body.shopperReference)
        try oneOf(body.storePaymentMethodMode, AdyenIncoming.Session.storeModes, "storePaymentMethodMode")
        try oneOf(body.recurringProcessingModel, AdyenIncoming.Session.processingModels, "recurringProcessingModel")
        try oneOf(body.shopperInteraction, AdyenIncoming.Session.shopperInteractions, "shopperInteraction")
        try oneOf(body.channel, AdyenIncoming.Session.channels, "channel")
        try oneOf(body.mode, AdyenIncoming.Session.modes, "mode")
        for (field, value) in [("countryCode", body.countryCode), ("shopperLocale", body.shopperLocale)] {
            if let value, value.isEmpty || value.count > 32 {
                throw AdyenRejection.invalid("14_0", "Field '\(field)' must be 1 to 32 characters.")
            }
        }
        var expiresAt = now.addingTimeInterval(defaultLifetime)
        if let text = body.expiresAt {
            guard let date = date(text) else {
                throw AdyenRejection.invalid("14_0", "Field 'expiresAt' is not an ISO 8601 date-time, e.g. 2026-11-26T10:00:00+00:00.")
            }
            guard date <= now.addingTimeInterval(longestLifetime) else {
                throw AdyenRejection.invalid("14_0", "Field 'expiresAt' is more than 24 hours after the session is created.")
            }
            expiresAt = date
        }
        return ValidSession(
            merchantAccount: order.merchantAccount, amount: order.amount, reference: order.reference, returnUrl: order.returnUrl,
            expiresAt: expiresAt, storeMode: body.storePaymentMethodMode.flatMap(AdyenStorePaymentMethodMode.init(rawValue:)) ?? .disabled)
    }

    private func create(_ data: Data) async throws -> AdyenEndpoint.Answer {
        let body = try endpoint.reader.decode(AdyenIncoming.Session.self, from: data)
        let now = endpoint.settings.now()
        let order = try Self.validate(body, now: now)
        let expiresAt = order.expiresAt
        let sessionData = AdyenSessionStore.newSessionData()
        let response = AdyenSessionResponse(
            id: AdyenSessionStore.newSessionID(), sessionData: sessionData, expiresAt: AdyenNotifier.eventDate(expiresAt), amount: order.amount,
            merchantAccount: order.merchantAccount, reference: order.reference, returnUrl: order.returnUrl, mode: body.mode ?? "embedded",
            countryCode: body.countryCode, shopperReference: body.shopperReference, storePaymentMethodMode: body.storePaymentMethodMode,
            recurringProcessingModel: body.recurringProcessingModel, shopperInteraction: body.shopperInteraction, channel: body.channel,
            shopperLocale: body.shopperLocale)
        _ = try await sessions.add(
            AdyenSessionStore.Session(id: response.id, created: response, expiresAt: expiresAt, storeMode: order.storeMode, sessionData: sessionData),
            now: now, limits: endpoint.settings.limits)
        return AdyenEndpoint.Answer(response, status: .created)
    }

    /// The session's status now; `sessionResult` is required but not decoded (see `newSessionResult`).
    private func result(_ id: String, _ request: Request) async throws -> Response {
        guard let sessionResult = request.uri.queryParameters.get("sessionResult"), !sessionResult.isEmpty else {
            throw AdyenRejection.invalid("14_0", "Query parameter 'sessionResult' is required: the sessionResult of the component's last answer.")
        }
        let session = try await known(id)
        let now = endpoint.settings.now()
        try await endpoint.payments.evictDue(now: now, limits: endpoint.settings.limits)
        var payments: [AdyenPaymentStore.Payment] = []
        for psp in session.payments { if let payment = try await endpoint.payments.payment(psp) { payments.append(payment) } }
        let status = session.status(latest: session.payments.last.flatMap { last in payments.last { $0.pspReference == last } }, now: now)
        // The document's Payment lists Authorised, Received and Pending payments only.
        let listed = payments.filter { [.authorised, .received, .pending].contains($0.resultCode) }.map {
            AdyenSessionPayment(pspReference: $0.pspReference, resultCode: $0.resultCode.rawValue, amount: $0.amount)
        }
        return AdyenJSON.response(
            AdyenSessionResultResponse(id: session.id, status: status.rawValue, reference: session.created.reference, payments: listed.isEmpty ? nil : listed))
    }

    // MARK: - The component's side

    private func component(_ call: AdyenSessionPaths.ComponentCall, _ request: Request, _ context: SandboxRequestContext) async throws -> Response {
        try await adyenAnswer { () throws -> Response in
            try Self.authenticateClientKey(request)
            let data = try await endpoint.reader.body(request)
            let body = try endpoint.reader.decode(AdyenIncoming.SessionCall.self, from: data)
            let id = context.parameters.get("sessionId") ?? ""
            guard let sessionData = body.sessionData, !sessionData.isEmpty else {
                throw AdyenRejection.invalid("14_0", "Required field 'sessionData' is not provided.")
            }
            let now = endpoint.settings.now()
            try await sessions.evictDue(now: now, limits: endpoint.settings.limits)
            let fingerprint = AdyenIdempotencyStore.fingerprint(path: request.uri.path, body: data)
            switch try await sessions.begin(id, sessionData: sessionData, call: fingerprint) {
            case .unknown:
                throw Self.unknownSession(id)
            case .stale:
                throw AdyenRejection.invalid(
                    "14_0", "Invalid sessionData: it is not the latest this session gave (each answer carries the sessionData the next call must send).")
            case .replay(let answer):
                return AdyenJSON.response(data: answer, status: .ok)
            case .fresh(let session, let next):
                do {
                    // One transaction: the payment, the session's answer and its webhooks together.
                    let answer = try await endpoint.settings.storage.atomically {
                        let (answer, payment) = try await handle(call, body, session: session, sessionData: next, baseURL: request.baseURL, now: now)
                        try await sessions.finish(id, sessionData: next, answer: answer, payment: payment)
                        return answer
                    }
                    return AdyenJSON.response(data: answer, status: .ok)
                } catch let rejection as AdyenRejection {
                    // Refused before anything moved: the session takes the same sessionData again.
                    try? await sessions.abort(id, sessionData: next)
                    throw rejection
                }
                // Any other failure (the store) may come after the payment was made: the session is
                // not rolled back, so the same sessionData cannot pay twice.
            }
        }
    }

    private func handle(
        _ call: AdyenSessionPaths.ComponentCall, _ body: AdyenIncoming.SessionCall, session: AdyenSessionStore.Session, sessionData: String,
        baseURL: String, now: Date
    ) async throws -> (answer: Data, payment: String?) {
        var latest: AdyenPaymentStore.Payment?
        if let last = session.payments.last { latest = try await endpoint.payments.payment(last) }
        let status = session.status(latest: latest, now: now)
        switch call {
        case .setup:
            if status == .expired { throw Self.expired }
            return (AdyenJSON.data(try await setup(session, sessionData: sessionData)), nil)
        case .payments:
            guard status == .active else {
                throw status == .expired
                    ? Self.expired : AdyenRejection.invalid("14_0", "This session is \(status.rawValue): create a new session to pay again.")
            }
            let payment = try await pay(body, session: session, baseURL: baseURL)
            return (AdyenJSON.data(Self.answer(payment, sessionData: sessionData)), payment.pspReference)
        case .paymentDetails:
            let payment = try await details(body, session: session, latest: latest)
            return (AdyenJSON.data(Self.answer(payment, sessionData: sessionData)), nil)
        }
    }

    /// Cash App Pay with PayKit's ids, as `/paymentMethods` gives them; the shopper's stored
    /// methods when the session has a shopperReference and does not disable storing.
    private func setup(_ session: AdyenSessionStore.Session, sessionData: String) async throws -> AdyenSessionSetupResponse {
        let cashApp = AdyenPaymentMethod(
            type: AdyenCashAppDetails.type, name: AdyenCashAppConfiguration.name,
            configuration: .init(clientId: AdyenCashAppConfiguration.clientID, scopeId: AdyenCashAppConfiguration.scopeID))
        var stored: [AdyenStoredPaymentMethod]?
        if session.storesMethods, let shopper = session.shopperReference {
            try await endpoint.storedMethods.evictDue(now: endpoint.settings.now(), limits: endpoint.settings.limits)
            stored = try await endpoint.storedMethods.active(shopperReference: shopper, merchantAccount: session.created.merchantAccount).map(\.listed)
        }
        let created = session.created
        return AdyenSessionSetupResponse(
            id: session.id, sessionData: sessionData, amount: created.amount, countryCode: created.countryCode,
            shopperLocale: created.shopperLocale ?? "en-US", expiresAt: created.expiresAt, returnUrl: created.returnUrl,
            paymentMethods: AdyenPaymentMethodsResponse(paymentMethods: [cashApp], storedPaymentMethods: stored),
            configuration: .init(enableStoreDetails: session.storeMode == .askForConsent && session.shopperReference != nil))
    }

    /// The session's amount, reference and shopper with the component's method: paid as
    /// `/payments` pays, storing as the session's storePaymentMethodMode says.
    private func pay(_ body: AdyenIncoming.SessionCall, session: AdyenSessionStore.Session, baseURL: String) async throws -> AdyenPaymentStore.Payment {
        guard let method = body.paymentMethod else { throw AdyenRejection.invalid("14_0", "Required field 'paymentMethod' is not provided.") }
        try AdyenPaymentValidation.checkMethod(method)
        guard method.type == AdyenCashAppDetails.type else {
            throw AdyenRejection.invalid("14_0", "paymentMethod.type '\(method.type ?? "")' is not offered in this sandbox's sessions: \"cashapp\" only.")
        }
        let paysWithStored = method.storedPaymentMethodId != nil || method.recurringDetailReference != nil
        if paysWithStored, !session.storesMethods {
            throw AdyenRejection.invalid(
                "14_0", "Stored methods are not offered in this session: it needs a shopperReference and storePaymentMethodMode askForConsent or enabled.")
        }
        let store =
            session.storesMethods && !paysWithStored
            && (session.storeMode == .enabled || (session.storeMode == .askForConsent && body.storePaymentMethod == true))
        let created = session.created
        let valid = AdyenValidPayment(
            amount: created.amount, merchantAccount: created.merchantAccount, method: method, reference: created.reference,
            returnUrl: created.returnUrl, shopperReference: created.shopperReference, storePaymentMethod: store)
        return try await AdyenPayments(endpoint: endpoint, baseURL: baseURL).pay(valid, idempotencyKey: nil)
    }

    /// Completes the session's payment with the `redirectResult` its action's page handed back;
    /// without one, the session's latest payment as it stands.
    private func details(
        _ body: AdyenIncoming.SessionCall, session: AdyenSessionStore.Session, latest: AdyenPaymentStore.Payment?
    ) async throws -> AdyenPaymentStore.Payment {
        guard let details = body.details else { throw AdyenRejection.invalid("14_0", "Required field 'details' is not provided.") }
        if let redirectResult = details["redirectResult"] {
            guard let (psp, _) = AdyenPaymentStore.Payment.decodeRedirectResult(redirectResult), session.payments.contains(psp),
                let completed = try await AdyenPayments(endpoint: endpoint).complete(redirectResult: redirectResult)
            else {
                throw AdyenRejection.invalid("14_0", "details.redirectResult is not one a payment of this session was handed back.")
            }
            return completed
        }
        guard let latest else { throw AdyenRejection.invalid("14_0", "This session has no payment to give details for.") }
        return latest
    }

    private static func answer(_ payment: AdyenPaymentStore.Payment, sessionData: String) -> AdyenSessionPaymentResponse {
        AdyenSessionPaymentResponse(
            sessionData: sessionData, resultCode: payment.resultCode.rawValue, action: payment.action,
            sessionResult: AdyenSessionStore.newSessionResult(), refusalReason: payment.refusalReason)
    }

    /// The page a `RedirectShopper` action opens: the shopper is sent back to the returnUrl with
    /// the `redirectResult` that completes the payment.
    private func redirectPage(_ request: Request) async throws -> Response {
        let psp = request.uri.queryParameters.get("redirectData") ?? ""
        try await endpoint.payments.evictDue(now: endpoint.settings.now(), limits: endpoint.settings.limits)
        guard let payment = try await endpoint.payments.payment(psp), let redirectResult = payment.redirectResult, let returnUrl = payment.returnUrl else {
            return AdyenRejection(.notFound, "000", "No payment of this sandbox awaits a redirect with this redirectData.").response
        }
        let separator = returnUrl.contains("?") ? "&" : "?"
        return Response(status: .found, headers: [.location: returnUrl + separator + "redirectResult=" + redirectResult])
    }

    // MARK: - Checks

    private func known(_ id: String) async throws -> AdyenSessionStore.Session {
        try await sessions.evictDue(now: endpoint.settings.now(), limits: endpoint.settings.limits)
        guard let session = try await sessions.session(id) else { throw Self.unknownSession(id) }
        return session
    }

    private static func unknownSession(_ id: String) -> AdyenRejection {
        AdyenRejection.invalid("14_0", "No session '\(id.prefix(64))' in this sandbox: create one with POST /v71/sessions.")
    }

    private static var expired: AdyenRejection { AdyenRejection.invalid("14_0", "Session expired: create a new session.") }

    /// The client-key host takes a client key in `clientKey` (`test_…`), never the API key.
    static func authenticateClientKey(_ request: Request) throws {
        if request.headers.contains(HTTPFields.Element.Name("X-API-Key")!) {
            throw AdyenRejection(
                .unauthorized, "000", "HTTP Status Response - Unauthorized: the client-key host takes ?clientKey=test_…; the API key never goes here.",
                type: "security")
        }
        guard let key = request.uri.queryParameters.get("clientKey"), key.hasPrefix("test_"), AdyenClientKey.isWellFormed(String(key)) else {
            throw AdyenRejection(.unauthorized, "000", "HTTP Status Response - Unauthorized: no valid test client key (?clientKey=test_…).", type: "security")
        }
    }

    private static func oneOf(_ value: String?, _ allowed: [String], _ field: String) throws {
        guard let value, !allowed.contains(value) else { return }
        throw AdyenRejection.invalid("14_0", "Field '\(field)' must be one of \(allowed.joined(separator: ", ")).")
    }

    /// ISO 8601 with seconds (and optional fractions) and a zone.
    static func date(_ text: String) -> Date? {
        guard text.count <= 40 else { return nil }
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
