import Foundation
import Hummingbird
import ProviderWire

/// createPaymentSession: every field checked (PARAM_ILLEGAL naming it and what it allows), then a
/// session made — or the same one replayed for an identical request, refused for another body
/// under the same paymentRequestId, refused for an order already paid.
struct AntomCreatePaymentSession {
    let api: AntomAPI

    static let productCodes = ["CASHIER_PAYMENT", "AGREEMENT_PAYMENT", "IN_STORE_PAYMENT"]
    static let currencies = ["USD", "THB", "IDR"]
    static let maxURLLength = 2_048
    /// How far ahead paymentSessionExpiryTime may be.
    static let maxExpiry: TimeInterval = 3_600

    /// A request whose every field passed.
    struct Valid {
        let request: AntomCreatePaymentSessionRequest
        let mode: AntomDisplayMode
        let minorUnits: Int
        let expiry: Date?
    }

    func create(client: AntomClients.Client, body: Data, request: Request) async throws -> AntomCreatePaymentSessionResponse {
        let fields = try AntomFields.parse(body)
        let now = api.now
        let valid = try Self.validate(fields, now: now)
        if valid.minorUnits == AntomMagic.createUnknown {
            throw AntomRejection("UNKNOWN_EXCEPTION", "An unknown exception occurred (sandbox magic amount 8201); nothing was created.", resultStatus: "U")
        }
        let base = AntomAPI.base(request)
        let lifetime = max(1, api.settings.requestLifetime)
        let latest = now.addingTimeInterval(lifetime)
        // Whole seconds, as paymentSessionExpiryTime says it.
        let expiresAt = Date(timeIntervalSince1970: (min(valid.expiry ?? latest, latest).timeIntervalSince1970).rounded(.down))
        let fingerprint = fields.canonical
        let outcome = try await api.store.create(
            clientID: client.id, paymentRequestId: valid.request.paymentRequestId, referenceOrderId: valid.request.order.referenceOrderId,
            fingerprint: fingerprint, now: now, limits: api.limits
        ) { sequence in
            var record = AntomSessionRecord(
                id: AntomIDs.sessionID(), clientID: client.id, request: valid.request, fingerprint: fingerprint, mode: valid.mode,
                minorUnits: valid.minorUnits, createdAt: now, expiresAt: expiresAt, base: base, sequence: sequence)
            record.response = Self.response(for: record)
            return record
        }
        switch outcome {
        case .created(let record), .replay(let record):
            return record.response
        case .inconsistent:
            throw AntomRejection("REPEAT_REQ_INCONSISTENT", "paymentRequestId \(valid.request.paymentRequestId) was already used with another request body; a new attempt needs a new paymentRequestId.")
        case .orderClosed(let paidBy):
            throw AntomRejection("ORDER_IS_CLOSED", "Order \(valid.request.order.referenceOrderId) is already paid (paymentRequestId \(paidBy)); it cannot be paid again.")
        }
    }

    /// What the create answers: the session data the component loads, and the hosted cashier page.
    static func response(for record: AntomSessionRecord) -> AntomCreatePaymentSessionResponse {
        let cashier = record.cashierURL(base: record.base)
        let data: String
        switch record.minorUnits {
        case AntomMagic.unreadableSessionData:
            data = AntomMagic.unreadableSessionDataText
        case AntomMagic.productionSessionData:
            data = AntomSessionData(paymentSessionId: record.id, environment: "prod", cashierUrl: cashier).encoded
        default:
            data = AntomSessionData(paymentSessionId: record.id, environment: "sandbox", cashierUrl: cashier).encoded
        }
        return AntomCreatePaymentSessionResponse(
            result: .success, paymentSessionData: data, paymentSessionId: record.id, paymentSessionExpiryTime: AntomTime.string(record.expiresAt),
            normalUrl: "\(cashier)/page")
    }

    // MARK: - Fields

    static func validate(_ fields: AntomFields, now: Date) throws(AntomRejection) -> Valid {
        let productCode = try fields.oneOf("productCode", productCodes)
        let paymentRequestId = try fields.required("paymentRequestId", length: 1...64)
        let amount = try fields.amount("paymentAmount", positive: true)
        try supported(amount.currency, field: "paymentAmount.currency")

        let orderFields = try fields.requiredObject("order")
        let referenceOrderId = try orderFields.required("referenceOrderId", length: 1...64)
        let orderDescription = try orderFields.required("orderDescription", length: 1...256)
        let orderAmount = try orderFields.amount("orderAmount", positive: false)
        guard orderAmount.currency == amount.currency else {
            throw AntomRejection.illegal("order.orderAmount.currency must equal paymentAmount.currency (\(amount.currency)); got \(orderAmount.currency).")
        }
        var buyer: AntomBuyer?
        if let buyerFields = try orderFields.object("buyer") {
            buyer = AntomBuyer(referenceBuyerId: try buyerFields.string("referenceBuyerId", length: 1...64))
        }

        let methodFields = try fields.requiredObject("paymentMethod")
        let methodType = try methodFields.oneOf("paymentMethodType", ["BANK"])
        let metaData = try methodFields.metaData("paymentMethodMetaData")
        guard let metaData, let mode = AntomDisplayMode(metaData: metaData) else {
            throw AntomRejection.illegal(
                #"paymentMethod.paymentMethodMetaData must be an object (or a JSON string of one) with one of {"bankName": NAME} (NAME: "#
                    + AntomBankCatalogue.banks.map(\.bankName).joined(separator: "|")
                    + #", or the bank's name, e.g. "Siam Commercial Bank"), {"paymentMethodCategory": "# + AntomBankCategory.allCases.map(\.rawValue).joined(separator: "|")
                    + #"} or {"paymentMethodRegion": "# + AntomBankCatalogue.countries.joined(separator: "|") + "}.")
        }

        let redirect = try fields.required("paymentRedirectUrl", length: 1...maxURLLength)
        guard let scheme = URLComponents(string: redirect)?.scheme, !scheme.isEmpty else {
            throw AntomRejection.illegal("paymentRedirectUrl must be an absolute URL (https://shop.example/return or app-scheme://return).")
        }
        let notify = try fields.string("paymentNotifyUrl", length: 1...maxURLLength)
        if let notify { try notifyURL(notify) }

        var expiry: Date?
        let expiryText = try fields.string("paymentSessionExpiryTime", length: 1...64)
        if let expiryText {
            guard let date = AntomTime.date(expiryText) else {
                throw AntomRejection.illegal("paymentSessionExpiryTime must be ISO 8601 with an offset, e.g. 2026-11-23T10:00:00+08:00; got \"\(expiryText)\".")
            }
            guard date > now, date.timeIntervalSince(now) <= maxExpiry else {
                throw AntomRejection.illegal("paymentSessionExpiryTime must be in the future and at most an hour ahead (now is \(AntomTime.string(now))).")
            }
            expiry = date
        }

        var settlement: AntomSettlementStrategy?
        if let strategy = try fields.object("settlementStrategy") {
            let currency = try strategy.string("settlementCurrency", length: 1...3)
            if let currency { try supported(currency, field: "settlementStrategy.settlementCurrency") }
            settlement = AntomSettlementStrategy(settlementCurrency: currency)
        }

        let request = AntomCreatePaymentSessionRequest(
            productCode: productCode, paymentRequestId: paymentRequestId, paymentAmount: amount,
            order: AntomOrder(referenceOrderId: referenceOrderId, orderDescription: orderDescription, orderAmount: orderAmount, buyer: buyer),
            paymentMethod: AntomPaymentMethod(paymentMethodType: methodType, paymentMethodMetaData: metaData), paymentNotifyUrl: notify,
            paymentRedirectUrl: redirect, settlementStrategy: settlement, paymentSessionExpiryTime: expiryText)
        return Valid(request: request, mode: mode, minorUnits: amount.minorUnits ?? 0, expiry: expiry)
    }

    /// USD, THB or IDR; another currency is CURRENCY_NOT_SUPPORT.
    static func supported(_ currency: String, field: String) throws(AntomRejection) {
        guard currencies.contains(currency) else {
            throw AntomRejection("CURRENCY_NOT_SUPPORT", "\(field) \(currency) is not supported; this sandbox takes \(currencies.joined(separator: ", ")).")
        }
    }

    /// An absolute http(s) URL with a host and no credentials: what a notification can be POSTed to.
    static func notifyURL(_ url: String) throws(AntomRejection) {
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = parsed.encodedHost, !host.isEmpty
        else {
            throw AntomRejection.illegal("paymentNotifyUrl must be an absolute http:// or https:// URL with a host, e.g. http://127.0.0.1:9000/antom/notify.")
        }
        guard parsed.user == nil, parsed.password == nil else { throw AntomRejection.illegal("paymentNotifyUrl must not carry credentials.") }
    }
}
