/// What happened on the sheet, as `checkout run` prints it (`{"event": "rates_received", …}`)
/// and the log shows it.
public struct WalletEvent: Hashable, Sendable {
    public enum Name: String, CaseIterable, Sendable {
        case addressSelected = "address_selected"
        case ratesReceived = "rates_received"
        case addressInvalid = "address_invalid"
        case ratesFailed = "rates_failed"
        case methodSelected = "method_selected"
        case summaryRecomputed = "summary_recomputed"
        case authorized
        case processed
    }

    public var name: Name
    public var summary: String
    public var fields: [String: String]
    /// The sheet's summary items, in order, the total last (`summary_recomputed`).
    public var items: [WalletSummaryItem]

    public init(_ name: Name, _ summary: String, fields: [String: String] = [:], items: [WalletSummaryItem] = []) {
        self.name = name
        self.summary = summary
        self.fields = fields
        self.items = items
    }
}

public typealias WalletEventReporter = @Sendable (WalletEvent) -> Void
