import Foundation
import PaymentFlow

/// The link `o` opens and `y` copies: the page the customer acts on while they must (Cash App's
/// authorization link, Antom's bank page), or the receipt (Square's) once paid.
public struct ScreenLink: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case authorization, receipt
    }

    public let kind: Kind
    public let url: String
    /// The method's own name for its authorization page (`PaymentMethod.linkNoun`), if it has one.
    public let methodNoun: String?

    public init(kind: Kind, url: String, methodNoun: String? = nil) {
        self.kind = kind
        self.url = url
        self.methodNoun = methodNoun
    }

    /// How the notice line names it.
    public var noun: String {
        switch kind {
        case .authorization: methodNoun ?? "the authorization link"
        case .receipt: "the receipt link"
        }
    }

    /// Links come from the provider: only a well-formed http(s) URL with a host, short and free of
    /// spaces and control characters, is opened or copied; nil when it is fine, else why not.
    public var refusal: String? {
        guard url.utf8.count <= 4096 else { return "it is \(url.utf8.count) bytes long" }
        guard !url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return "it contains spaces or control characters"
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            return "it is not an http(s) URL"
        }
        guard let host = components.host, !host.isEmpty else { return "it names no host" }
        return nil
    }
}

extension AppState {
    /// The link the checkout offers now, if any.
    public var currentLink: ScreenLink? {
        if let url = AuthorizationCode.link(in: checkout.state) {
            let method = checkout.state.attempt.flatMap { attempt in paymentMethods.first { $0.id == attempt.provider } } ?? checkout.provider
            return ScreenLink(kind: .authorization, url: url, methodNoun: method?.linkNoun)
        }
        if case .approved = checkout.state, case .completed(let settled)? = checkout.phase, let url = settled.details["receipt_url"] {
            return ScreenLink(kind: .receipt, url: url)
        }
        return nil
    }

    /// Why there is no link now, for the notice line.
    var noLinkReason: String {
        switch checkout.state {
        case .notStarted:
            "There is no link yet: press p to pay, and the customer's link comes with the request."
        case .creatingRequest, .updatingRequest, .refreshing:
            "The link is on its way (\(checkout.state.name)); try again in a moment."
        case .readyToAuthorize, .redirecting, .polling:
            "\(checkout.provider?.label ?? "This method") gives no link: the customer pays at the terminal."
        case .approved:
            checkout.ended ? "This payment has no receipt link." : "The receipt link comes once the payment is settled."
        case .declined, .apiError, .integrationError, .networkError, .unexpectedError:
            "The checkout ended (\(checkout.state.name)): there is no link. Press r for a new checkout."
        }
    }
}
