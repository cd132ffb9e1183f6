import Foundation

/// Where the user is on the screen: focus, cursors, what covers it, the notice under the
/// banner, and the terminal's size. Selection lives here, not in widgets.
public struct ScreenLayout: Hashable, Sendable {
    public var focus: Pane = .cart
    public var cartCursor = 0
    public var shippingCursor = 0
    public var paymentCursor = 0
    /// The highlighted choice of the provider's prompt.
    public var promptCursor = 0
    /// The prompt's focused field, and what its fields hold now by field id.
    public var promptField = 0
    public var promptValues: [String: String] = [:]
    public var logCursor: Int?
    public var logVisible = true
    public var overlay: Overlay?
    public var notice: Notice?
    public var width = 100
    public var height = 30
    /// The terminal shows colours (the QR code is drawn black on white, else in reverse video).
    public var colors = true
    /// `v` hides the QR code to see the panes under it.
    public var codeHidden = false

    public init() {}
}

/// What covers the screen, if anything.
public enum Overlay: Hashable, Sendable {
    case help
    case httpDetail(exchangeID: Int, scroll: Int)
    case confirmQuit
    /// The catalog, to add a product to the cart; `cursor` is the highlighted product.
    case addProduct(cursor: Int)
}

/// A short message under the banner, e.g. why a key did nothing.
public struct Notice: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case info, warning }
    public let text: String
    public let kind: Kind
    public let shownAt: Date
}
