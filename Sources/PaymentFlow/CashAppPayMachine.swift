import Foundation
import ProviderClients
import ProviderWire

/// The checkout's transition logic as a pure value: it takes events, changes `state`, and
/// returns the effects to perform. No I/O and no clock: time arrives inside events.
public struct CashAppPayMachine: Sendable {
    public enum Event: Sendable, Hashable {
        // Asked for by the merchant app or the user.
        case create(CreateCustomerRequestParams)
        case update(UpdateCustomerRequestParams)
        case authorize(now: Date)
        /// The customer came back from the authorization link (a redirect/return).
        case customerReturned
        /// No decision arrived in time; the flow is abandoned.
        case authorizationTimedOut(seconds: Int)
        case reset
        /// A provider step before creating or updating the request (e.g. Afterpay's token) failed.
        case failedBeforeRequest(CashAppPayState)
        // Results of effects.
        case created(CustomerRequest)
        case updated(CustomerRequest)
        case retrieved(CustomerRequest)
        case refreshed(CustomerRequest)
        case failed(CustomerRequestFailure)
    }

    public enum Effect: Sendable, Hashable {
        case notify(CashAppPayState)
        case createRequest(CreateCustomerRequestParams)
        case updateRequest(id: String, params: UpdateCustomerRequestParams)
        /// Retrieve once at once, then about every second, until `stopPolling`.
        case startPolling(requestID: String)
        case stopPolling
        /// Retrieve the request again with retries, for fresh auth-flow triggers.
        case refreshRequest(id: String)
        /// Give the customer this link (or its QR code).
        case presentAuthorization(url: String)
        /// The request changed without a state change (e.g. triggers rotated while polling).
        case requestChanged(CustomerRequest)
    }

    public private(set) var state: CashAppPayState

    public init(state: CashAppPayState = .notStarted) {
        self.state = state
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        switch (state, event) {
        case (.notStarted, .create(let params)):
            return move(to: .creatingCustomerRequest(params)) + [.createRequest(params)]

        case (.creatingCustomerRequest, .created(let request)),
            (.updatingCustomerRequest, .updated(let request)):
            return move(to: .readyToAuthorize(request))

        case (.readyToAuthorize(let request), .update(let params)):
            switch request.status {
            case .APPROVED, .DECLINED: return move(to: .integrationError(.terminalStateError))
            case .PENDING, .PROCESSING:
                return move(to: .updatingCustomerRequest(request: request, params: params))
                    + [.updateRequest(id: request.id, params: params)]
            }

        case (.readyToAuthorize(let request), .authorize(let now)):
            switch request.status {
            case .DECLINED: return move(to: .integrationError(.terminalStateError))
            case .APPROVED: return redirect(request, presenting: false)
            case .PENDING, .PROCESSING:
                if let triggers = request.authFlowTriggers, triggers.isExpired(now: now) {
                    return move(to: .refreshing(request)) + [.refreshRequest(id: request.id)]
                }
                return redirect(request, presenting: true)
            }

        case (.refreshing, .refreshed(let request)):
            return redirect(request, presenting: request.status != .APPROVED)

        case (.readyToAuthorize(let request), .customerReturned),
            (.redirecting(let request), .customerReturned):
            return move(to: .polling(request)) + [.startPolling(requestID: request.id)]

        case (.polling(let previous), .retrieved(let request)):
            switch request.status {
            case .APPROVED:
                guard let grants = request.grants, !grants.isEmpty else { return move(to: .declined(request)) }
                return move(to: .approved(request: request, grants: grants))
            case .DECLINED:
                return move(to: .declined(request))
            case .PENDING, .PROCESSING:
                guard request != previous else { return [] }
                state = .polling(request)
                return [.requestChanged(request)]
            }

        case (.creatingCustomerRequest, .failed(let failure)),
            (.updatingCustomerRequest, .failed(let failure)),
            (.polling, .failed(let failure)),
            (.refreshing, .failed(let failure)):
            return move(to: ErrorClassification.state(for: failure))

        case (.readyToAuthorize, .authorizationTimedOut(let seconds)),
            (.redirecting, .authorizationTimedOut(let seconds)),
            (.polling, .authorizationTimedOut(let seconds)),
            (.refreshing, .authorizationTimedOut(let seconds)):
            return move(to: .unexpectedError(.authorizationTimeout(seconds: seconds)))

        case (.notStarted, .failedBeforeRequest(let failure)) where failure.kind == .error,
            (.readyToAuthorize, .failedBeforeRequest(let failure)) where failure.kind == .error:
            return move(to: failure)

        case (let current, .reset):
            return current == .notStarted ? [] : move(to: .notStarted)

        default:
            // Not meaningful in this state (e.g. a late poll result after a decision): ignore.
            return []
        }
    }

    /// Hands out the link (unless the request is already approved) and, since a terminal
    /// has no app switch to return from, starts polling at once.
    private mutating func redirect(_ request: CustomerRequest, presenting: Bool) -> [Effect] {
        var effects = move(to: .redirecting(request))
        if presenting {
            guard let url = request.authFlowTriggers?.mobileURL else {
                return effects + move(to: .unexpectedError(.noRedirectURL(requestID: request.id)))
            }
            effects.append(.presentAuthorization(url: url))
        }
        return effects + move(to: .polling(request)) + [.startPolling(requestID: request.id)]
    }

    /// Changes state and says so; leaving `polling` stops the poll timer.
    private mutating func move(to next: CashAppPayState) -> [Effect] {
        let wasPolling = if case .polling = state { true } else { false }
        state = next
        let stillPolling = if case .polling = next { true } else { false }
        return (wasPolling && !stillPolling ? [.stopPolling] : []) + [.notify(next)]
    }
}
