import Foundation
import Hummingbird
import ProviderWire

/// The hosted cashier under `/sandbox/antom/cashier/{paymentSessionId}`: the JSON the client
/// component loads (its banks, each with its page), the HTML pages a customer uses, and the
/// control routes `pay|fail|abandon` the pages' buttons (and tests, and headless runs) POST to.
struct AntomCashierRoutes: Sendable {
    let api: AntomAPI

    /// What the control routes answer.
    struct Outcome: Codable, Sendable {
        let paymentRequestId: String
        let paymentId: String?
        let paymentStatus: String
        let paymentResultCode: String?
    }

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        let cashier = router.group("sandbox/antom/cashier")
        cashier.get(":sessionID") { request, context in try await json(session: context.parameters.get("sessionID") ?? "", request: request) }
        cashier.get(":sessionID/page") { request, context in
            try await page(session: context.parameters.get("sessionID") ?? "", bank: nil, request: request)
        }
        cashier.get(":sessionID/banks/:bankName") { request, context in
            try await page(session: context.parameters.get("sessionID") ?? "", bank: context.parameters.get("bankName") ?? "", request: request)
        }
        for action in ["pay", "fail", "abandon"] {
            cashier.post(":sessionID/\(action)") { request, context in
                try await control(action, session: context.parameters.get("sessionID") ?? "", request: request)
            }
        }
    }

    // MARK: - What the component loads

    private func json(session id: String, request: Request) async throws(SandboxStoreUnavailable) -> Response {
        guard let record = try await api.store.session(id, now: api.now) else {
            return AntomJSON.result(AntomResult(resultCode: "ORDER_NOT_EXIST", resultStatus: "F", resultMessage: "No payment session \(id.prefix(64))."), status: .notFound)
        }
        switch record.minorUnits {
        case AntomMagic.cashierUnavailable:
            return AntomJSON.result(
                AntomResult(resultCode: "UNKNOWN_EXCEPTION", resultStatus: "U", resultMessage: "The cashier is unavailable (sandbox magic amount 8102)."),
                status: .serviceUnavailable)
        case AntomMagic.cashierMalformed:
            return AntomJSON.response(["sandbox": "this is not a cashier (sandbox magic amount 8103)", "banks": "none"])
        default:
            let base = AntomAPI.base(request)
            let cashierURL = record.cashierURL(base: base)
            let banks = record.banks.map { bank in
                AntomCashierBank(
                    bankName: bank.bankName, displayName: bank.displayName, localName: bank.localName, categories: bank.categories,
                    bankPageUrl: "\(cashierURL)/banks/\(bank.bankName)")
            }
            return AntomJSON.response(AntomCashier(
                paymentSessionId: record.id, paymentRequestId: record.paymentRequestId, displayMode: record.mode.spelling, paymentAmount: record.amount,
                banks: banks, cashierPageUrl: "\(cashierURL)/page", paymentSessionExpiryTime: AntomTime.string(record.expiresAt)))
        }
    }

    // MARK: - Pages

    private func page(session id: String, bank name: String?, request: Request) async throws(SandboxStoreUnavailable) -> Response {
        let locale = AntomLocale(query: request.uri.queryParameters.get("locale"))
        guard let record = try await api.store.session(id, now: api.now) else {
            return SandboxResponse.html(AntomCashierPage.notFound(locale: locale, what: String(id.prefix(64))), status: .notFound)
        }
        let page = AntomCashierPage(record: record, merchant: api.settings.merchantName, locale: locale)
        guard let name else { return SandboxResponse.html(page.cashier()) }
        guard let bank = record.banks.first(where: { $0.bankName == name.uppercased() }) else {
            return SandboxResponse.html(AntomCashierPage.notFound(locale: locale, what: String(name.prefix(32))), status: .notFound)
        }
        return SandboxResponse.html(page.bank(bank))
    }

    // MARK: - The customer's buttons

    private func control(_ action: String, session id: String, request: Request) async throws(SandboxStoreUnavailable) -> Response {
        let query = request.uri.queryParameters
        let locale = AntomLocale(query: query.get("locale"))
        let fromBrowser = request.isFromBrowser
        guard let record = try await api.store.session(id, now: api.now) else {
            if fromBrowser { return SandboxResponse.html(AntomCashierPage.notFound(locale: locale, what: String(id.prefix(64))), status: .notFound) }
            return AntomJSON.result(AntomRejection.orderNotExist.result, status: .notFound)
        }
        let asked = query.get("bank")
        let bank: String?
        if let asked {
            guard let offered = record.banks.first(where: { $0.bankName == asked.uppercased() }) else {
                return AntomJSON.result(
                    AntomRejection.illegal("bank \(asked.prefix(32)) is not offered for this session; it offers \(record.banks.map(\.bankName).joined(separator: ", ")).").result,
                    status: .badRequest)
            }
            bank = offered.bankName
        } else {
            bank = action == "pay" ? record.banks.first?.bankName : nil
        }
        let step: AntomSessionStore.Action
        switch action {
        case "pay":
            guard let bank else { return AntomJSON.result(AntomRejection.illegal("This session offers no bank.").result, status: .conflict) }
            step = .pay(bank: bank)
        case "fail": step = .fail(bank: bank)
        default: step = .abandon
        }
        let back = "/sandbox/antom/cashier/\(record.id)/" + (bank.map { "banks/\($0)" } ?? "page") + "?locale=\(locale.rawValue)"
        return answer(try await api.act(step, on: record.id), fromBrowser: fromBrowser, back: back, locale: locale)
    }

    /// The JSON outcome (a 409 when the session had moved on), or for a browser the page again.
    func answer(
        _ outcome: Result<AntomSessionRecord, AntomSessionStore.Refusal>, fromBrowser: Bool, back: String, locale: AntomLocale
    ) -> Response {
        switch outcome {
        case .success(let record):
            if fromBrowser { return SandboxResponse.redirect(to: back) }
            return AntomJSON.response(Self.outcome(record))
        case .failure(.notFound):
            return AntomJSON.result(AntomRejection.orderNotExist.result, status: .notFound)
        case .failure(.notOpen(let record)), .failure(.orderTaken(let record)):
            let message =
                switch outcome {
                case .failure(.orderTaken(let paid)):
                    "Order \(record.referenceOrderId) is already paid (paymentRequestId \(paid.paymentRequestId)); nothing moved."
                default:
                    "Payment session \(record.id) is \(record.status.rawValue)\(record.resultCode.map { " (\($0))" } ?? ""); the customer can no longer act on it and nothing moved."
                }
            if fromBrowser {
                guard case .failure(.notOpen(let current)) = outcome else {
                    return SandboxResponse.html(AntomCashierPage.plain(title: locale.words.title, message: message, lang: locale.lang), status: .conflict)
                }
                let page = AntomCashierPage(record: current, merchant: api.settings.merchantName, locale: locale)
                return SandboxResponse.html(page.refused(message), status: .conflict)
            }
            let refusal = AntomResult(resultCode: "ORDER_IS_CLOSED", resultStatus: "F", resultMessage: message)
            return AntomJSON.response(ConflictBody(result: refusal, outcome: Self.outcome(record)), status: .conflict)
        }
    }

    /// A refusal: why, and the session as it is.
    private struct ConflictBody: Encodable {
        let result: AntomResult
        let paymentRequestId: String
        let paymentId: String?
        let paymentStatus: String
        let paymentResultCode: String?

        init(result: AntomResult, outcome: Outcome) {
            self.result = result
            paymentRequestId = outcome.paymentRequestId
            paymentId = outcome.paymentId
            paymentStatus = outcome.paymentStatus
            paymentResultCode = outcome.paymentResultCode
        }
    }

    static func outcome(_ record: AntomSessionRecord) -> Outcome {
        let failed = record.status == .fail || record.status == .cancelled
        return Outcome(
            paymentRequestId: record.paymentRequestId, paymentId: record.paymentId, paymentStatus: record.status.rawValue,
            paymentResultCode: failed ? record.resultCode : nil)
    }
}
