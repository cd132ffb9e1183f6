import Foundation
import PaymentFlow
import ProviderWire
import TerminalUI

/// The always-visible state banner: exact state name, a sentence, the request, timing,
/// the link while the customer must act, and the error details in error states.
enum BannerView {
    static func draw(_ screen: inout Screen, _ state: AppState, _ area: Rect) {
        let payState = state.payState
        let style = Theme.banner(displayKind(state))
        let (lines, separator) = area.splitBottom(1)
        var x = lines.x + 1
        let mark: String
        if case .polling = payState {
            let frame = Int(state.now.timeIntervalSince(state.stateEnteredAt) * 10) % Theme.spinner.count
            mark = String(Theme.spinner[max(0, frame)])
        } else {
            mark = Theme.mark(displayKind(state))
        }
        x = screen.put("\(mark) \(payState.name)", x: x, y: lines.y, style: style)
        if let phase = state.phase { x = screen.put(" · \(phase.name)", x: x, y: lines.y, style: Theme.key) }
        screen.put("  " + sentence(state), x: x, y: lines.y, maxWidth: lines.maxX - x - 1)

        screen.put(detailLine(state), x: lines.x + 3, y: lines.y + 1, style: Theme.dim, maxWidth: lines.width - 4)
        for column in separator.x..<separator.maxX { screen[column, separator.y] = Cell("─", style: Theme.border) }
        drawThirdLine(&screen, state, y: lines.y + 2, from: lines.x + 3, to: lines.maxX - 1)
    }

    private static func detailLine(_ state: AppState) -> String {
        var parts: [String] = []
        if let request = state.payState.request {
            parts.append(request.id)
            if let amount = request.oneTimeAmount { parts.append(formatted(amount.minorUnits)) }
            if let cashtag = request.customerProfile?.cashtag, case .approved = state.payState { parts.append("paid by \(cashtag)") }
        } else if case .success(let summary) = state.summary {
            parts.append("total \(summary.total.formatted) with \(state.selectedPaymentMethod.label)")
        }
        if case .polling = state.payState {
            parts.append("polling \(CheckoutView.clock(state.now.timeIntervalSince(state.stateEnteredAt)))")
        } else if let started = state.flowStartedAt {
            let end = state.checkoutEnded ? state.stateEnteredAt : state.now
            parts.append("elapsed \(CheckoutView.clock(end.timeIntervalSince(started)))")
        }
        switch state.payState {
        case .readyToAuthorize(let request), .redirecting(let request), .polling(let request):
            if let triggers = request.authFlowTriggers {
                parts.append("new link in \(max(0, Int(triggers.refreshesAt.timeIntervalSince(state.now).rounded(.up)))) s")
            }
        default:
            break
        }
        return parts.joined(separator: " · ")
    }

    /// The third line: a notice, the error, or the link; it may continue on the separator row.
    private static func drawThirdLine(_ screen: inout Screen, _ state: AppState, y: Int, from left: Int, to right: Int) {
        let width = right - left
        func twoRows(_ rows: [String], style: Style) {
            for (offset, row) in rows.prefix(2).enumerated() {
                if offset == 1 { screen.fill(Rect(x: 0, y: y + 1, width: right + 1, height: 1)) }
                let last = offset == 1 && rows.count > 2
                screen.put(last ? String(row.prefix(width - 1)) + "…" : row, x: left, y: y + offset, style: style, maxWidth: width)
            }
        }
        if let notice = state.notice {
            twoRows(CheckoutView.wrap(notice.text, width: width), style: Theme.warning)
            return
        }
        if let error = state.payState.error {
            var text = "\(error.category) · \(error.code)"
            if let field = error.field { text += " · \(field)" }
            if let detail = error.detail { text += " · \(detail)" }
            twoRows(CheckoutView.wrap(text, width: width), style: Theme.banner(.error).with { $0.bold = false })
            return
        }
        switch state.payState {
        case .readyToAuthorize(let request), .redirecting(let request), .polling(let request):
            // The whole link, cut (not word-wrapped) so it can be read off and typed.
            guard let url = request.authFlowTriggers?.mobileURL else { return }
            twoRows([String(url.prefix(width)), String(url.dropFirst(width).prefix(width))].filter { !$0.isEmpty }, style: Style(underline: true))
        case .declined:
            screen.put("Press r to start a new checkout.", x: left, y: y, style: Theme.dim)
        case .approved(_, let grants):
            switch state.phase {
            case .completed(let paymentID, _)?:
                screen.put("Afterpay payment \(paymentID) captured · press r for a new checkout", x: left, y: y, style: Theme.banner(.success).with { $0.bold = false }, maxWidth: width)
            case .settlementFailed(let reason)?:
                twoRows(CheckoutView.wrap(reason + " · press r for a new checkout", width: width), style: Theme.banner(.error).with { $0.bold = false })
            default:
                screen.put("grant \(grants.map(\.id).joined(separator: ", "))" + (state.checkoutEnded ? " · press r for a new checkout" : ""), x: left, y: y, style: Theme.dim, maxWidth: width)
            }
        default:
            break
        }
    }

    /// Afterpay's settlement decides what an `approved` means for the banner's colour.
    static func displayKind(_ state: AppState) -> CashAppPayState.Kind {
        switch (state.payState, state.phase) {
        case (.approved, .settlementFailed?): .error
        case (.approved, .validating?), (.approved, .capturing?): .inProgress
        case (.notStarted, .token?), (.notStarted, .signing?): .inProgress
        default: state.payState.kind
        }
    }

    static func sentence(_ state: AppState) -> String {
        switch (state.payState, state.phase) {
        case (.notStarted, .token?): "Asking Afterpay for a checkout token…"
        case (.notStarted, .signing?): "Afterpay is signing the payment…"
        case (.approved, .validating?): "Approved; Afterpay is validating the payment…"
        case (.approved, .capturing?): "Validated; capturing the payment…"
        case (.approved, .completed?): "Paid: Afterpay captured the payment."
        case (.approved, .settlementFailed?): "Approved, but the settlement failed."
        default: state.payState.sentence
        }
    }

    private static func formatted(_ cents: Int) -> String {
        Money(minorUnits: cents, currency: .usd).formatted
    }
}

import CheckoutModel
