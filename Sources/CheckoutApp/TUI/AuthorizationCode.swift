import PaymentFlow
import QRCode

/// The authorization link as a QR code in half-block lines, made when the link changes
/// (not on every frame): the customer scans it while the checkout polls.
public struct AuthorizationCode: Hashable, Sendable {
    public let url: String
    /// Half-block rows, quiet zone included; empty when the link cannot be encoded.
    public let lines: [String]

    /// Two modules of quiet zone: enough for phone cameras and zbar, and it saves rows.
    static let margin = 2

    init(url: String) {
        self.url = url
        lines = (try? QRCode(encoding: url)).map { QRHalfBlocks.lines($0, margin: Self.margin) } ?? []
    }

    public var width: Int { lines.first?.count ?? 0 }
    public var height: Int { lines.count }

    /// The link the customer should scan in `state`, if any.
    static func link(in state: CheckoutState) -> String? {
        switch state {
        case .readyToAuthorize(let attempt), .redirecting(let attempt), .polling(let attempt):
            attempt.authorizationURL
        default:
            nil
        }
    }

    /// Keeps `code` in step with the state's link: re-encoded only when the link rotates.
    static func refresh(_ code: inout AuthorizationCode?, for state: CheckoutState) {
        guard let url = link(in: state) else {
            code = nil
            return
        }
        if code?.url != url { code = AuthorizationCode(url: url) }
    }
}
