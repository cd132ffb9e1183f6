import Foundation
import PaymentFlow
import TerminalUI

/// The always-visible state banner: exact state name, a sentence, the request, timing,
/// the link while the customer must act, and the error details in error states.
enum BannerView {
    static func draw(_ screen: inout Screen, _ state: AppState, _ area: Rect) {
        let payState = state.checkout.state
        let style = Theme.banner(displayKind(state))
        let (lines, separator) = area.splitBottom(1)
        var x = lines.x + 1
        let mark: String
        if case .polling = payState {
            let frame = Int(state.now.timeIntervalSince(state.checkout.stateEnteredAt) * 10) % Theme.spinner.count
            mark = String(Theme.spinner[max(0, frame)])
        } else {
            mark = Theme.mark(displayKind(state))
        }
        x = screen.put("\(mark) \(payState.name)", x: x, y: lines.y, style: style)
        if let phase = state.checkout.phase { x = screen.put(" · \(phase.name)", x: x, y: lines.y, style: Theme.key) }
        screen.put("  " + sentence(state), x: x, y: lines.y, maxWidth: lines.maxX - x - 1)

        screen.put(detailLine(state), x: lines.x + 3, y: lines.y + 1, style: Theme.dim, maxWidth: lines.width - 4)
        for column in separator.x..<separator.maxX { screen[column, separator.y] = Cell("─", style: Theme.border) }
        drawThirdLine(&screen, state, y: lines.y + 2, from: lines.x + 3, to: lines.maxX - 1)
    }

    private static func detailLine(_ state: AppState) -> String {
        var parts: [String] = []
        if let attempt = state.checkout.state.createdAttempt, let id = attempt.id {
            parts.append(id)
            if let amount = attempt.amount { parts.append(SettledAmount.text(asked: amount, phase: state.checkout.phase)) }
            if let payer = attempt.payer, case .approved = state.checkout.state { parts.append("paid by \(payer)") }
        } else if case .success(let summary) = state.summary {
            parts.append("total \(summary.total.formatted) with \(state.selectedPaymentMethod.label)")
        }
        if case .polling = state.checkout.state {
            parts.append("polling \(CheckoutView.clock(state.now.timeIntervalSince(state.checkout.stateEnteredAt)))")
        } else if let started = state.checkout.flowStartedAt {
            let end = state.checkout.ended ? state.checkout.endedAt : state.now
            parts.append("elapsed \(CheckoutView.clock(end.timeIntervalSince(started)))")
        }
        switch state.checkout.state {
        case .readyToAuthorize(let attempt), .redirecting(let attempt), .polling(let attempt):
            if let refreshesAt = attempt.linkRefreshesAt {
                // Seconds for Cash App's 30 s links; a clock for longer ones (Antom's hour).
                let seconds = max(0, Int(refreshesAt.timeIntervalSince(state.now).rounded(.up)))
                parts.append("new link in " + (seconds < 100 ? "\(seconds) s" : CheckoutView.clock(TimeInterval(seconds))))
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
        if let notice = state.layout.notice {
            twoRows(CheckoutView.wrap(notice.text, width: width), style: Theme.warning)
            return
        }
        if let error = state.checkout.state.error {
            var text = "\(error.category) · \(error.code)"
            if let field = error.field { text += " · \(field)" }
            if let detail = error.detail { text += " · \(detail)" }
            twoRows(CheckoutView.wrap(text, width: width), style: Theme.banner(.error).with { $0.bold = false })
            return
        }
        switch state.checkout.state {
        case .readyToAuthorize(let attempt), .redirecting(let attempt), .polling(let attempt):
            // The whole link, cut (not word-wrapped) so it can be read off and typed.
            guard let url = attempt.authorizationURL else { return }
            twoRows([String(url.prefix(width)), String(url.dropFirst(width).prefix(width))].filter { !$0.isEmpty }, style: Style(underline: true))
        case .declined(let attempt):
            screen.put((attempt.declineReason.map { "\($0) · " } ?? "") + "Press r to start a new checkout.", x: left, y: y, style: Theme.dim, maxWidth: width)
        case .approved(let attempt):
            switch state.checkout.phase {
            case .completed(let settled)?:
                let line = state.checkout.provider?.receiptLine(settled) ?? "payment \(settled.paymentID) settled"
                screen.put(line + " · press r for a new checkout", x: left, y: y, style: Theme.banner(.success).with { $0.bold = false }, maxWidth: width)
            case .settlementFailed(let failure)?:
                twoRows(CheckoutView.wrap(failure.reason + " · press r for a new checkout", width: width), style: Theme.banner(.error).with { $0.bold = false })
            default:
                screen.put("grant \(attempt.grantsWithTypes.joined(separator: ", "))" + (state.checkout.ended ? " · press r for a new checkout" : ""), x: left, y: y, style: Theme.dim, maxWidth: width)
            }
        default:
            break
        }
    }

    /// A settlement decides what an `approved` means for the banner's colour; provider steps are work in progress.
    static func displayKind(_ state: AppState) -> CheckoutState.Kind {
        switch (state.checkout.state, state.checkout.phase) {
        case (.approved, .settlementFailed?): .error
        case (.approved, .step?), (.notStarted, .step?): .inProgress
        default: state.checkout.state.kind
        }
    }

    /// The provider's wording for its steps and settlement, else the SDK state's sentence.
    static func sentence(_ state: AppState) -> String {
        // A replay's steps before its first attempt read as the recorded scenario's provider.
        let provider = state.checkout.provider ?? state.selectedPaymentMethod
        switch (state.checkout.state, state.checkout.phase) {
        case (_, .step(let name)?):
            return provider.stepSentences[name] ?? "\(provider.shortName) is \(name)…"
        case (.approved, .completed(let receipt)?):
            return receipt.headline ?? provider.completedSentence
        case (.approved, .settlementFailed?):
            return "Approved, but the settlement failed."
        default:
            return provider.sentence(for: state.checkout.state, choice: state.toggleChoices[provider.id])
        }
    }
}
