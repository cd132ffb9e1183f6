import Foundation
import Hummingbird
import ProviderWire

/// `POST /v2/payments` (CreatePayment): checks the body field by field, reads the test nonce,
/// and keeps the payment (COMPLETED, APPROVED with a delay, or FAILED beside the decline's
/// errors), once per idempotency key.
struct SquareCreatePayment {
    let endpoint: SquareEndpoint

    /// Square's documented limits.
    static let idempotencyKeyBytes = 1...45
    static let maxReferenceIDBytes = 40
    static let maxNoteBytes = 500
    /// The sandbox's own bounds on what it stores (Square documents none for these).
    static let sourceIDBytes = 1...512
    static let maxOrderIDBytes = 192
    static let locationIDBytes = 1...32
    static let maxClientCreatedAtBytes = 64
    /// Delay bounds: at least a minute, at most the default threshold (36 h with the card present,
    /// 7 days without), which is also the default.
    static let minDelaySeconds = 60.0
    static let cardPresentDelaySeconds = 36 * 3_600.0
    static let cardNotPresentDelaySeconds = 168 * 3_600.0

    /// The body once every field checks out.
    struct Valid {
        let sourceID: String
        let idempotencyKey: String
        let amount: SquareMoney
        let tip: SquareMoney?
        let appFee: SquareMoney?
        let autocomplete: Bool
        let delaySeconds: Double?
        let delayAction: String?
        let referenceID: String?
        let orderID: String?
        let locationID: String?
        let note: String?
        let offline: SquareOfflinePaymentDetails?
        var acceptPartialAuthorization = false
    }

    func create(_ request: Request) async throws -> Response {
        let body = try SquareBody.parse(try await endpoint.body(request))
        let valid = try Self.validate(body)
        let now = endpoint.now
        let source = try await source(of: valid, now: now)
        let cardPresent = source.entry != .keyed
        let maxDelay = cardPresent ? Self.cardPresentDelaySeconds : Self.cardNotPresentDelaySeconds
        if let delay = valid.delaySeconds, delay > maxDelay {
            throw SquareRejection.invalid(
                "VALUE_TOO_HIGH", "delay_duration must be at most \(SquareDuration.text(seconds: maxDelay)) for a card-\(cardPresent ? "present" : "not-present") payment.",
                field: "delay_duration")
        }
        let receiptBase = SquareEndpoint.receiptBase(request)
        let fingerprint = body.canonical
        let outcome = try await endpoint.store.create(
            key: valid.idempotencyKey, fingerprint: fingerprint, now: now, limits: endpoint.limits, consuming: source.singleUse ? valid.sourceID : nil
        ) {
            Self.record(
                valid, source: source, maxDelay: maxDelay, now: now, timeScale: endpoint.settings.timeScale, fingerprint: fingerprint,
                receiptBase: receiptBase)
        }
        switch outcome {
        case .created(let record), .replay(let record):
            return SquareJSON.response(record.response, status: record.status == "FAILED" ? .badRequest : .ok)
        case .keyReused:
            throw SquareRejection.invalid(
                "IDEMPOTENCY_KEY_REUSED", "The idempotency key can only be retried with the same request data.", field: "idempotency_key")
        case .sourceUsed:
            throw SquareRejection.invalid("CARD_TOKEN_USED", "Card nonce already used; please request new nonce.", field: "source_id")
        }
    }

    /// The card `source_id` pays with: a test nonce (keyed, or the reader's) or a device wallet's nonce.
    private func source(of valid: Valid, now: Date) async throws -> Source {
        if let card = endpoint.cardTokens?.card(fromNonce: valid.sourceID) {
            // A retry of the payment this key made replays it, however old its nonce is by now.
            let retry = try await endpoint.store.paymentID(idempotencyKey: valid.idempotencyKey, now: now, limits: endpoint.limits) != nil
            return try Self.tokenizedSource(card, paying: valid, now: now, checkingExpiryAndAmount: !retry)
        }
        guard let reading = SquareTestCard.reading(sourceID: valid.sourceID) else { throw Self.nonceNotFound }
        if reading.card.errorCode == "CARD_TOKEN_USED" {
            throw SquareRejection.invalid("CARD_TOKEN_USED", "Card nonce already used; please request new nonce.", field: "source_id")
        }
        return Source(testCard: reading.card, entry: reading.entry)
    }

    static let nonceNotFound = SquareRejection.notFound(
        "Card nonce not found in this `sandbox` application environment. Please ensure an application ID belonging to the same "
            + "environment is used when generating the nonce. This sandbox knows cnon:card-nonce-<ok|declined|rejected-cvv|"
            + "rejected-postalcode|rejected-expiration|already-used|insufficient-funds>, cnon:reader-<contactless|emv|swiped>-<outcome>, "
            + "and the cnon:wallet-… nonces POST /wallet/tokens issues.",
        field: "source_id")

    /// Every field Square checks, each complaint naming its field.
    static func validate(_ body: SquareBody) throws(SquareRejection) -> Valid {
        let sourceID = try body.requiredString("source_id", bytes: sourceIDBytes)
        let key = try body.requiredString("idempotency_key", bytes: idempotencyKeyBytes)
        guard let amount = try money(body, "amount_money") else { throw SquareRejection.missing("amount_money") }
        let tip = try money(body, "tip_money", currency: amount.currency)
        let appFee = try money(body, "app_fee_money", currency: amount.currency)
        let autocomplete = try body.bool("autocomplete") ?? true
        var delaySeconds: Double?
        if let text = try body.string("delay_duration") {
            guard !autocomplete else { throw conflict("delay_duration", "delay_duration can only be set when autocomplete is false.") }
            guard let seconds = SquareDuration.seconds(text) else {
                throw SquareRejection.invalid(
                    "INVALID_TIME", "delay_duration must be an ISO 8601 duration such as PT10M, PT36H or P7D.", field: "delay_duration")
            }
            guard seconds >= minDelaySeconds else {
                throw SquareRejection.invalid("VALUE_TOO_LOW", "delay_duration must be at least one minute (PT1M).", field: "delay_duration")
            }
            delaySeconds = seconds
        }
        let delayAction = try body.string("delay_action")
        if let delayAction {
            guard !autocomplete else { throw conflict("delay_action", "delay_action can only be set when autocomplete is false.") }
            guard ["CANCEL", "COMPLETE"].contains(delayAction) else {
                throw SquareRejection.invalid("INVALID_ENUM_VALUE", "delay_action must be CANCEL or COMPLETE.", field: "delay_action")
            }
        }
        let acceptPartial = try body.bool("accept_partial_authorization") == true
        if acceptPartial, autocomplete {
            throw conflict("accept_partial_authorization", "accept_partial_authorization cannot be true when autocomplete is true.")
        }
        let referenceID = try body.string("reference_id", bytes: 0...maxReferenceIDBytes)
        let orderID = try body.string("order_id", bytes: 1...maxOrderIDBytes)
        let locationID = try body.string("location_id", bytes: locationIDBytes)
        let note = try body.string("note", bytes: 0...maxNoteBytes)
        var offline: SquareOfflinePaymentDetails?
        if let details = try body.object("offline_payment_details") {
            let createdAt = try details.string("client_created_at", bytes: 1...maxClientCreatedAtBytes)
            if let createdAt, ISO8601Milliseconds.date(from: createdAt) == nil {
                throw SquareRejection.invalid("INVALID_TIME", "Expected an RFC 3339 timestamp.", field: details.name("client_created_at"))
            }
            offline = SquareOfflinePaymentDetails(clientCreatedAt: createdAt)
        }
        return Valid(
            sourceID: sourceID, idempotencyKey: key, amount: amount, tip: tip, appFee: appFee, autocomplete: autocomplete,
            delaySeconds: delaySeconds, delayAction: delayAction, referenceID: referenceID, orderID: orderID, locationID: locationID,
            note: note, offline: offline, acceptPartialAuthorization: acceptPartial)
    }

    private static func conflict(_ field: String, _ detail: String) -> SquareRejection {
        SquareRejection.invalid("CONFLICTING_PARAMETERS", detail, field: field)
    }

    /// A Money object: a whole amount from 0 to the sandbox's ceiling, and a currency code
    /// (the amount's own, for tips and fees).
    static func money(_ body: SquareBody, _ key: String, currency expected: String? = nil) throws(SquareRejection) -> SquareMoney? {
        guard let money = try body.object(key) else { return nil }
        guard let amount = try money.integer("amount") else { throw SquareRejection.missing(money.name("amount")) }
        guard amount >= 0 else { throw SquareRejection.invalid("VALUE_TOO_LOW", "Amount must not be negative.", field: money.name("amount")) }
        guard amount <= Int64(SandboxLimits.maxAmountMinorUnits) else {
            throw SquareRejection.invalid(
                "VALUE_TOO_HIGH", "Amount must be at most \(SandboxLimits.maxAmountMinorUnits) (minor units).", field: money.name("amount"))
        }
        guard let currency = try money.string("currency") else { throw SquareRejection.missing(money.name("currency")) }
        guard currency.utf8.count == 3, currency.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            throw SquareRejection.invalid(
                "INVALID_ENUM_VALUE", "Expected an ISO 4217 currency code in capitals, such as USD.", field: money.name("currency"))
        }
        if let expected, currency != expected {
            throw SquareRejection.invalid("INVALID_VALUE", "\(key) must be in \(expected), the currency of amount_money.", field: money.name("currency"))
        }
        return SquareMoney(amount: Int(amount), currency: currency)
    }

    /// The payment a valid request makes with a test card read by `entry` (FuzzSquareWire's way in).
    static func record(
        _ valid: Valid, card: SquareTestCard, entry: SquareEntryMethod, maxDelay: Double, now: Date, timeScale: Double, fingerprint: Data,
        receiptBase: String
    ) -> SquarePaymentStore.Record {
        record(
            valid, source: Source(testCard: card, entry: entry), maxDelay: maxDelay, now: now, timeScale: timeScale, fingerprint: fingerprint,
            receiptBase: receiptBase)
    }

    /// The payment a valid request makes with this source's card.
    static func record(
        _ valid: Valid, source: Source, maxDelay: Double, now: Date, timeScale: Double, fingerprint: Data, receiptBase: String
    ) -> SquarePaymentStore.Record {
        let id = SquareIDs.payment()
        let created = ISO8601Milliseconds.string(from: now)
        let (valid, source) = giftCardCharge(valid, source: source)
        let total = SquareMoney(amount: valid.amount.amount + (valid.tip?.amount ?? 0), currency: valid.amount.currency)
        let declined = source.errorCode != nil
        let checked = source.checksCVVAndPostalCode
        let details = SquareCardDetails(
            status: declined ? "FAILED" : (valid.autocomplete ? "CAPTURED" : "AUTHORIZED"), card: source.card, entryMethod: source.entry.wire,
            cvvStatus: checked ? (source.errorCode == "CVV_FAILURE" ? "CVV_REJECTED" : "CVV_ACCEPTED") : "CVV_NOT_CHECKED",
            avsStatus: checked ? (source.errorCode == "ADDRESS_VERIFICATION_FAILURE" ? "AVS_REJECTED" : "AVS_ACCEPTED") : "AVS_NOT_CHECKED",
            applicationName: source.application?.name, applicationIdentifier: source.application?.identifier)
        var payment = SquarePayment(
            id: id, status: declined ? "FAILED" : (valid.autocomplete ? "COMPLETED" : "APPROVED"), amountMoney: valid.amount, tipMoney: valid.tip,
            totalMoney: total, appFeeMoney: valid.appFee, approvedMoney: declined ? SquareMoney(amount: 0, currency: total.currency) : total,
            cardDetails: details, locationID: valid.locationID ?? SquareEndpoint.defaultLocationID, orderID: valid.orderID,
            referenceID: valid.referenceID, note: valid.note, isOfflinePayment: valid.offline == nil ? nil : true,
            offlinePaymentDetails: valid.offline, createdAt: created, updatedAt: created, versionToken: SquareIDs.versionToken())
        var dueAt: Date?
        if !valid.autocomplete {
            let delay = valid.delaySeconds ?? maxDelay
            // A scale that is not a positive number (the settings promise one) runs the clock as is;
            // one below `checkout sandbox`'s least (0.001) is taken as that, so deadlines stay dates.
            let scale = timeScale.isFinite && timeScale > 0 ? max(timeScale, 0.001) : 1
            let due = now.addingTimeInterval(delay / scale)
            payment.delayDuration = SquareDuration.text(seconds: delay)
            payment.delayAction = valid.delayAction ?? "CANCEL"
            payment.delayedUntil = ISO8601Milliseconds.string(from: due)
            if !declined { dueAt = due }
        }
        if payment.status == "COMPLETED" {
            payment.receiptNumber = String(id.prefix(4))
            payment.receiptURL = "\(receiptBase)/sandbox/square/receipts/\(id)"
        }
        let errors = source.errorCode.map { [SquareError(category: "PAYMENT_METHOD_ERROR", code: $0, detail: "Authorization error: '\($0)'")] }
        return SquarePaymentStore.Record(
            payment: payment, errors: errors, idempotencyKey: valid.idempotencyKey, fingerprint: fingerprint, createdAt: now, dueAt: dueAt,
            receiptBase: receiptBase)
    }
}
