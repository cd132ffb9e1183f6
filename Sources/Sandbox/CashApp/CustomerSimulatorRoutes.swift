import Foundation
import Hummingbird
import ProviderWire

/// Cash App's simulated customer: a small authorization page for browsers, and what
/// approving or declining a customer request does (the control endpoints
/// `POST /sandbox/customer-requests/{id}/approve|decline` are the server's, for every provider).
struct CustomerSimulatorRoutes {
    let store: CustomerRequestStore

    /// What the control endpoints answer: the request and, for magic declines, why.
    struct Outcome: Codable {
        let request: CustomerRequest
        let sandboxDeclineReason: String?
        enum CodingKeys: String, CodingKey { case request, sandboxDeclineReason = "sandbox_decline_reason" }
    }

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        let customer = router.group("sandbox/customer-requests")
        customer.get(":id/authorize") { request, context in
            let id = context.parameters.get("id") ?? ""
            let token = request.uri.queryParameters.get("t")
            return try await page(id: id, token: token, baseURL: request.baseURL)
        }
    }

    /// The customer approves or declines request `id`; nil when there is no such request.
    func act(approve: Bool, request: Request, id: String) async throws(SandboxStoreUnavailable) -> Response? {
        var declineReason: String?
        let outcome = try await store.change(id: id, clientID: nil, baseURL: request.baseURL) { stored, now in
            let magicReason = stored.oneTimeAmount.flatMap { SandboxMagic.declineAmounts[$0.minorUnits] }
            if approve, magicReason == nil {
                Self.approve(&stored, now: now)
            } else {
                declineReason = approve ? magicReason : nil
                stored.status = .DECLINED
            }
        }
        if request.isFromBrowser {
            // Back to the page, with its link's token when the button carried one of this request's.
            let token = request.uri.queryParameters.get("t")
            let link = try await store.holdsLink(id: id, token: token) ? token.map { "?t=\($0)" } ?? "" : ""
            return SandboxResponse.redirect(to: "/sandbox/customer-requests/\(id)/authorize\(link)")
        }
        switch outcome {
        case .changed(let changed):
            return SandboxResponse.json(Outcome(request: changed, sandboxDeclineReason: declineReason))
        case .notFound:
            return nil
        case .notPending(let status):
            return CashAppRejection(
                .conflict, "INVALID_REQUEST_ERROR", "INVALID_STATE_TRANSITION",
                "The customer cannot act: the request is already \(status).").response
        }
    }

    /// Approval grants one grant per action, and the customer's profile with a $cashtag.
    static func approve(_ request: inout CustomerRequest, now: Date) {
        let customerID = SandboxIDs.make("CST_")
        request.status = .APPROVED
        request.customerProfile = .init(id: customerID, cashtag: SandboxMagic.customerCashtag)
        request.grants = request.actions.map { action in
            let oneTime = action.type == .ONE_TIME_PAYMENT
            return Grant(
                id: SandboxIDs.make("GRG_"), customerID: customerID, action: action, status: .ACTIVE,
                type: oneTime ? .ONE_TIME : .EXTENDED, channel: request.channel, createdAt: now, updatedAt: now,
                expiresAt: oneTime ? now.addingTimeInterval(3600) : nil, requestID: request.id)
        }
    }

    private func page(id: String, token: String?, baseURL: String) async throws(SandboxStoreUnavailable) -> Response {
        guard let request = try await store.retrieve(id: id, clientID: nil, baseURL: baseURL) else {
            return SandboxResponse.html(AuthorizePage.notFound(id: id), status: .notFound)
        }
        var stale = false
        var link: String?
        if let token {
            let current = try await store.currentTriggerToken(id: id)
            if request.status == .PENDING { stale = token != current }
            // The buttons carry the link's token (which lets them past a control token) only when it is this request's.
            if let current, CustomerRequestStore.sameLink(token, current) { link = token }
        }
        return SandboxResponse.html(AuthorizePage.render(request, staleLink: stale, linkToken: link))
    }
}
