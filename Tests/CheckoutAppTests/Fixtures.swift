import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire

/// Fixed states for screens: fixed times, ids and links, so goldens never drift.
enum Screens {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let requestID = "GRR_4wq2f8n0c6t1m9z3x7k5p2d8hs"
    static let link = "http://127.0.0.1:8080/sandbox/customer-requests/\(requestID)/authorize?t=0-k3x9m2qa"

    static func state(width: Int = 100, height: Int = 30, currency: String = "USD") throws -> AppState {
        var state = AppState(
            catalog: try Catalog.bundled(currency: currency), endpointLabel: "embedded sandbox 127.0.0.1:8080",
            customerSimulated: true, paymentMethods: ProviderRegistry.builtIn.paymentMethods, now: start)
        state.layout.width = width
        state.layout.height = height
        return state
    }

    /// A Cash App customer request as the attempt every provider's state carries.
    static func request(status: CustomerRequest.Status = .PENDING, amount: Int = 4505, approved: Bool = false, provider: String = "cashapp") -> PaymentAttempt {
        PaymentAttempt(cashAppRequest: cashAppRequest(status: status, amount: amount, approved: approved), provider: provider)
    }

    static func cashAppRequest(status: CustomerRequest.Status = .PENDING, amount: Int = 4505, approved: Bool = false) -> CustomerRequest {
        let action = PaymentAction.oneTimePayment(scopeID: "BRAND_terminalcheckout", amount: amount, currency: "USD")
        return CustomerRequest(
            id: requestID, status: status, actions: [action],
            authFlowTriggers: status == .PENDING
                ? .init(qrCodeImageURL: link, qrCodeSVGURL: link, mobileURL: link, refreshesAt: start.addingTimeInterval(30))
                : nil,
            redirectURL: "terminalcheckout://checkout/return", createdAt: start, updatedAt: start,
            expiresAt: start.addingTimeInterval(3600), origin: .init(type: "DIRECT"), channel: .ONLINE, referenceID: nil,
            requesterProfile: .init(name: "Driftwood Coffee Co.", logoURL: nil),
            customerProfile: approved ? .init(id: "CST_9c2kd81hq", cashtag: "$SandboxShopper") : nil,
            metadata: nil,
            grants: approved
                ? [Grant(id: "GRG_7hx2m4q9t1c8", customerID: "CST_9c2kd81hq", action: action, status: .ACTIVE, type: .ONE_TIME,
                         channel: .ONLINE, createdAt: start, updatedAt: start, expiresAt: nil)]
                : nil)
    }

    static func exchange(_ id: Int, _ method: String, _ path: String, status: Int?, milliseconds: Int, failure: String? = nil) -> HTTPExchange {
        HTTPExchange(
            id: id, provider: "cashapp", attempt: 1, method: method, url: "http://127.0.0.1:8080" + path,
            requestHeaders: [.init(name: "Authorization", value: "Client [REDACTED]"), .init(name: "Accept", value: "application/json")],
            requestBody: method == "POST" ? #"{"idempotency_key":"5f0c","request":{"actions":[{"amount":4505,"currency":"USD","scope_id":"BRAND_terminalcheckout","type":"ONE_TIME_PAYMENT"}],"channel":"ONLINE"}}"# : nil,
            status: status, responseHeaders: [.init(name: "Content-Type", value: "application/json")],
            responseBody: status.map { _ in #"{"request":{"id":"\#(requestID)","status":"PENDING"}}"# },
            startedAt: start, durationMilliseconds: milliseconds, failure: failure)
    }

    /// Feeds messages through the real update function.
    static func apply(_ messages: [AppMessage], to state: inout AppState) -> [AppCommand] {
        messages.flatMap { AppUpdate.update(&state, $0) }
    }

    static let created = createdMessages()
    static let polling = pollingMessages()

    static func createdMessages(provider: String = "cashapp") -> [AppMessage] {
        [
            .stateChanged(.creatingRequest(PaymentAttempt(provider: provider, amount: Money(minorUnits: 4505, currency: .usd)))),
            .exchange(exchange(1, "POST", "/customer-request/v1/requests", status: 201, milliseconds: 14)),
            .stateChanged(.readyToAuthorize(request(provider: provider))),
            .tick(start.addingTimeInterval(7)),
        ]
    }

    static func pollingMessages(provider: String = "cashapp") -> [AppMessage] {
        createdMessages(provider: provider) + [
            .stateChanged(.redirecting(request(provider: provider))),
            .stateChanged(.polling(request(provider: provider))),
            .exchange(exchange(2, "GET", "/customer-request/v1/requests/\(requestID)", status: 200, milliseconds: 3)),
            .exchange(exchange(3, "GET", "/customer-request/v1/requests/\(requestID)", status: 200, milliseconds: 2)),
            .tick(start.addingTimeInterval(10.3)),
        ]
    }
}
