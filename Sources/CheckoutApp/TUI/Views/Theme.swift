import PaymentFlow
import TerminalUI

/// The colours and marks that carry meaning. Every coloured style is also bold or dim, so
/// the meaning survives NO_COLOR and monochrome terminals.
enum Theme {
    static let title = Style(reverse: true)
    static let focusedBorder = Style(foreground: .cyan, bold: true)
    static let border = Style(dim: true)
    static let cursor = Style(reverse: true)
    static let dim = Style(dim: true)
    static let total = Style(bold: true)
    static let key = Style(foreground: .cyan, bold: true)
    static let warning = Style(foreground: .yellow, bold: true)

    static func banner(_ kind: CheckoutState.Kind) -> Style {
        switch kind {
        case .idle: Style(bold: true)
        case .inProgress: Style(foreground: .cyan, bold: true)
        case .success: Style(foreground: .green, bold: true)
        case .declined: Style(foreground: .yellow, bold: true)
        case .error: Style(foreground: .red, bold: true)
        }
    }

    static func mark(_ kind: CheckoutState.Kind) -> String {
        switch kind {
        case .idle: "○"
        case .inProgress: "◆"
        case .success: "✔"
        case .declined: "✖"
        case .error: "▲"
        }
    }

    static func status(_ code: Int?) -> Style {
        switch code {
        case (200..<300)?: Style(foreground: .green)
        case (400..<500)?: Style(foreground: .yellow, bold: true)
        default: Style(foreground: .red, bold: true)
        }
    }

    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
}
