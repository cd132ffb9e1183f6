import Foundation
import Hummingbird
import ProviderWire

/// Square's Payments API paths: CreatePayment, ListPayments, GetPayment, UpdatePayment,
/// CompletePayment, CancelPayment and CancelPaymentByIdempotencyKey. `dispatch` serves any request under
/// `/v2/payments` Square claims, whichever route (Afterpay's `GET /v2/payments/{reference}`
/// included) the router would have picked.
struct SquarePaymentRoutes: Sendable {
    let endpoint: SquareEndpoint

    static let maxListLimit = 100

    /// The routes the router knows, so its method checks let Square's methods through (Adyen's
    /// `POST /vNN/payments` and Afterpay's `GET /v2/payments/{reference}` share these paths).
    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.post("v2/payments") { request, context in try await dispatch(request, context) }
        router.get("v2/payments") { request, context in try await dispatch(request, context) }
        router.post("v2/payments/cancel") { request, context in try await dispatch(request, context) }
        router.get("sandbox/square/receipts/:paymentID") { _, context in
            try await SquareReceiptPage(store: endpoint.store, settings: endpoint.settings).page(id: context.parameters.get("paymentID") ?? "")
        }
    }

    /// The path's Square endpoint, authenticated, or Square's 404/405.
    func dispatch(_ request: Request, _ context: SandboxRequestContext) async throws -> Response {
        let segments = request.uri.path.split(separator: "/")
        let method = request.method
        guard segments.count >= 2, segments[0] == "v2", segments[1] == "payments" else {
            return SquareRejection.notFound("No Square endpoint at \(request.uri.path.prefix(128)).").response
        }
        switch segments.count {
        case 2:
            switch method {
            case .post: return try await endpoint.answer(request) { try await SquareCreatePayment(endpoint: endpoint).create(request) }
            case .get: return try await endpoint.answer(request) { try await list(request) }
            default: return Self.methodNotAllowed(method, allowed: ["GET", "POST"])
            }
        case 3 where segments[2] == "cancel" && method == .post:
            return try await endpoint.answer(request) { try await cancel(byIdempotencyKey: request) }
        case 3:
            let id = String(segments[2])
            switch method {
            case .get: return try await endpoint.answer(request) { try await get(id) }
            case .put: return try await endpoint.answer(request) { try await SquareUpdatePayment(endpoint: endpoint).update(id, request) }
            default: return Self.methodNotAllowed(method, allowed: segments[2] == "cancel" ? ["GET", "POST", "PUT"] : ["GET", "PUT"])
            }
        case 4 where segments[3] == "complete" || segments[3] == "cancel":
            guard method == .post else { return Self.methodNotAllowed(method, allowed: ["POST"]) }
            let id = String(segments[2])
            if segments[3] == "complete" {
                return try await endpoint.answer(request) { try await complete(id, request) }
            }
            return try await endpoint.answer(request) { try await cancel(id) }
        default:
            return SquareRejection.notFound("No Square endpoint at \(request.uri.path.prefix(128)).").response
        }
    }

    static func methodNotAllowed(_ method: HTTPRequest.Method, allowed: [String]) -> Response {
        var response = SquareRejection(
            .methodNotAllowed, "INVALID_REQUEST_ERROR", "METHOD_NOT_ALLOWED", "\(method.rawValue) is not allowed here; use \(allowed.joined(separator: " or ")).")
            .response
        response.headers[.allow] = allowed.joined(separator: ", ")
        return response
    }

    // MARK: - GetPayment, CompletePayment, CancelPayment

    private func get(_ id: String) async throws -> Response {
        guard let record = try await endpoint.store.payment(id, now: endpoint.now, limits: endpoint.limits) else { throw SquareEndpoint.notFound(payment: id) }
        return SquareJSON.response(SquarePaymentResponse(payment: record.payment))
    }

    /// Completes an APPROVED payment; `version_token`, when sent, must be the payment's current one.
    private func complete(_ id: String, _ request: Request) async throws -> Response {
        let body = try SquareBody.parse(try await endpoint.body(request), emptyIsObject: true)
        let versionToken = try body.string("version_token", bytes: 1...256)
        let now = endpoint.now
        let outcome = try await endpoint.store.change(id, now: now, limits: endpoint.limits) { record in
            if let refusal = Self.refusal(acting: "complete", on: record) { return .failure(refusal) }
            if let versionToken, versionToken != record.payment.versionToken {
                return .failure(SquareRejection.invalid(
                    "VERSION_MISMATCH", "The payment has changed since this version_token; get it again for the current one.", field: "version_token"))
            }
            record.complete(at: now)
            return .success(())
        }
        return try Self.answer(outcome, id: id)
    }

    private func cancel(_ id: String) async throws -> Response {
        let now = endpoint.now
        let outcome = try await endpoint.store.change(id, now: now, limits: endpoint.limits) { record in
            if let refusal = Self.refusal(acting: "cancel", on: record) { return .failure(refusal) }
            record.cancel(at: now, byDelay: false)
            return .success(())
        }
        return try Self.answer(outcome, id: id)
    }

    private static func answer(_ outcome: Result<SquarePaymentStore.Record, SquareRejection>?, id: String) throws(SquareRejection) -> Response {
        switch outcome {
        case .success(let record): return SquareJSON.response(SquarePaymentResponse(payment: record.payment))
        case .failure(let rejection): throw rejection
        case nil: throw SquareEndpoint.notFound(payment: id)
        }
    }

    /// Why a payment that is not APPROVED cannot be completed or canceled, in Square's
    /// delayed-capture codes; nil when it is APPROVED.
    static func refusal(acting action: String, on record: SquarePaymentStore.Record) -> SquareRejection? {
        let id = record.id
        switch record.status {
        case "APPROVED": return nil
        case "COMPLETED":
            return SquareRejection.invalid("DELAYED_TRANSACTION_CAPTURED", "Cannot \(action) payment \(id): it is already COMPLETED (captured).")
        case "CANCELED" where record.canceledByDelay:
            return SquareRejection.invalid(
                "DELAYED_TRANSACTION_EXPIRED", "Cannot \(action) payment \(id): its delay passed and it was CANCELED (\(record.payment.delayedUntil ?? "")).")
        case "CANCELED":
            return SquareRejection.invalid("DELAYED_TRANSACTION_CANCELED", "Cannot \(action) payment \(id): it is already CANCELED.")
        case "FAILED":
            return SquareRejection.invalid("DELAYED_TRANSACTION_FAILED", "Cannot \(action) payment \(id): it FAILED.")
        default:
            return SquareRejection.invalid("BAD_REQUEST", "Cannot \(action) payment \(id) in status \(record.status).")
        }
    }

    // MARK: - CancelPaymentByIdempotencyKey

    /// Voids the APPROVED payment a CreatePayment with this key made; `{}` when there is none
    /// (or it is already CANCELED or FAILED: nothing to void). A COMPLETED one cannot be voided.
    private func cancel(byIdempotencyKey request: Request) async throws -> Response {
        let body = try SquareBody.parse(try await endpoint.body(request))
        let key = try body.requiredString("idempotency_key", bytes: SquareCreatePayment.idempotencyKeyBytes)
        let now = endpoint.now
        guard let id = try await endpoint.store.paymentID(idempotencyKey: key, now: now, limits: endpoint.limits) else {
            return SquareJSON.response(SquareJSON.Empty())
        }
        let outcome = try await endpoint.store.change(id, now: now, limits: endpoint.limits) { record in
            switch record.status {
            case "APPROVED":
                record.cancel(at: now, byDelay: false)
                return .success(())
            case "COMPLETED":
                return .failure(Self.refusal(acting: "cancel", on: record)!)
            default:
                return .success(())
            }
        }
        if case .failure(let rejection)? = outcome { throw rejection }
        return SquareJSON.response(SquareJSON.Empty())
    }

    // MARK: - ListPayments

    /// Newest first by default; by creation time within [begin_time, end_time] (default the last
    /// year), at one location (default the main one), optionally by total, last 4 and brand.
    private func list(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        func text(_ name: String, maxBytes: Int = 64) throws(SquareRejection) -> String? {
            guard let value = query.get(name) else { return nil }
            guard value.utf8.count <= maxBytes else {
                throw SquareRejection.invalid("VALUE_TOO_LONG", "\(name) must not be longer than \(maxBytes) characters.", field: name)
            }
            return value
        }
        func time(_ name: String) throws(SquareRejection) -> Date? {
            guard let value = try text(name) else { return nil }
            guard let date = ISO8601Milliseconds.date(from: value) else {
                throw SquareRejection.invalid("INVALID_TIME", "\(name) must be an RFC 3339 timestamp.", field: name)
            }
            return date
        }
        func integer(_ name: String) throws(SquareRejection) -> Int? {
            guard let value = try text(name, maxBytes: 20) else { return nil }
            guard let number = Int(value), value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else {
                throw SquareRejection.invalid("EXPECTED_INTEGER", "\(name) must be an integer.", field: name)
            }
            return number
        }
        let now = endpoint.now
        let end = try time("end_time") ?? now
        let begin = try time("begin_time") ?? now.addingTimeInterval(-365 * 86_400)
        guard begin <= end else { throw SquareRejection.invalid("INVALID_TIME_RANGE", "begin_time must not be after end_time.", field: "begin_time") }
        let order = try text("sort_order") ?? "DESC"
        guard order == "ASC" || order == "DESC" else {
            throw SquareRejection.invalid("INVALID_SORT_ORDER", "sort_order must be ASC or DESC.", field: "sort_order")
        }
        let location = try text("location_id") ?? SquareEndpoint.defaultLocationID
        let total = try integer("total")
        let last4 = try text("last_4")
        let brand = try text("card_brand")?.uppercased()
        var limit = Self.maxListLimit
        if let asked = try integer("limit") {
            guard asked >= 1 else { throw SquareRejection.invalid("VALUE_TOO_LOW", "limit must be at least 1.", field: "limit") }
            // Square: "If the provided value is greater than 100, it is ignored and the default value is used instead."
            if asked <= Self.maxListLimit { limit = asked }
        }
        var after: ListKey?
        if let cursor = try text("cursor", maxBytes: 128) {
            guard let key = ListKey(cursor: cursor) else {
                throw SquareRejection.invalid("INVALID_CURSOR", "The cursor is not one this endpoint gave.", field: "cursor")
            }
            after = key
        }

        var matching = try await endpoint.store.all(now: now, limits: endpoint.limits).filter { record in
            let payment = record.payment
            return record.createdAt >= begin && record.createdAt <= end && payment.locationID == location
                && total.map { payment.totalMoney?.amount == $0 } ?? true
                && last4.map { payment.cardDetails?.card?.last4 == $0 } ?? true
                && brand.map { payment.cardDetails?.card?.cardBrand == $0 } ?? true
        }
        matching.sort { ListKey($0) < ListKey($1) }
        if order == "DESC" { matching.reverse() }
        if let after { matching = matching.filter { order == "ASC" ? ListKey($0) > after : ListKey($0) < after } }
        let page = Array(matching.prefix(limit))
        guard !page.isEmpty else { return SquareJSON.response(SquareJSON.Empty()) }
        let cursor = matching.count > page.count ? page.last.map { ListKey($0).cursor } : nil
        return SquareJSON.response(SquareListPaymentsResponse(payments: page.map(\.payment), cursor: cursor))
    }

    /// A payment's place in the list: creation time, then creation order.
    struct ListKey: Comparable {
        let milliseconds: Int64
        let sequence: Int

        init(_ record: SquarePaymentStore.Record) {
            milliseconds = Int64((record.createdAt.timeIntervalSince1970 * 1000).rounded())
            sequence = record.sequence
        }

        /// `sq1.<milliseconds>.<sequence>`: only URL-safe characters, so clients need not escape it.
        init?(cursor: String) {
            let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "sq1", parts[1].count <= 19, parts[2].count <= 19,
                parts.dropFirst().allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                let milliseconds = Int64(parts[1]), let sequence = Int(parts[2])
            else { return nil }
            self.milliseconds = milliseconds
            self.sequence = sequence
        }

        var cursor: String { "sq1.\(milliseconds).\(sequence)" }

        static func < (lhs: ListKey, rhs: ListKey) -> Bool { (lhs.milliseconds, lhs.sequence) < (rhs.milliseconds, rhs.sequence) }
    }
}
