import CheckoutModel
import Foundation
import ProviderWire

/// The simulated card reader behind the Mobile Payments SDK's `availableCardInputMethods`:
/// connected with a good battery it takes tap, dip and swipe; with a low battery only tap
/// (this project's choice, not Square's: the reader keeps the one method that needs no card
/// slot mechanics); disconnected, none. Keyed entry is not the reader's: it is the prompt's
/// additional method (`PromptParameters.additionalMethods`), there unless the merchant removes it.
public struct SquareReader: Hashable, Sendable {
    /// A card input method as the SDK names it.
    public enum InputMethod: String, CaseIterable, Hashable, Sendable {
        case tap, dip, swipe, keyed

        /// How the card is presented, in this project's `--entry` words.
        public var entry: SquareEntryMethod {
            switch self {
            case .tap: .tap
            case .dip: .insert
            case .swipe: .swipe
            case .keyed: .keyed
            }
        }

        public init(entry: SquareEntryMethod) {
            switch entry {
            case .tap: self = .tap
            case .insert: self = .dip
            case .swipe: self = .swipe
            case .keyed: self = .keyed
            }
        }
    }

    /// What can happen to the reader (or the payment) while the prompt is up: from a key on the
    /// screen, or from `--reader-steps` (scenarios' `options: reader-steps:`).
    public enum Change: String, CaseIterable, Hashable, Sendable {
        case connect, disconnect
        case lowBattery = "low-battery"
        case charged
        /// The merchant cancels the payment through its handle (before the card is read).
        case cancel

        /// `disconnect,connect,low-battery` → the changes; nil when a word is not one.
        public static func list(_ text: String) -> [Change]? {
            let words = text.split(separator: ",").map { $0.trimmedOfWhitespace }.filter { !$0.isEmpty }
            var changes: [Change] = []
            for word in words {
                guard let change = Change(rawValue: word.lowercased()) else { return nil }
                changes.append(change)
            }
            return changes
        }
    }

    public var connected = true
    public var batteryLow = false

    public init(connected: Bool = true, batteryLow: Bool = false) {
        self.connected = connected
        self.batteryLow = batteryLow
    }

    /// The SDK's `availableCardInputMethods`: what the reader takes now.
    public var cardInputMethods: [InputMethod] {
        guard connected else { return [] }
        return batteryLow ? [.tap] : [.tap, .dip, .swipe]
    }

    /// Every method the prompt may offer now: the reader's, then keyed when allowed.
    public func available(keyedEntryAllowed: Bool) -> [InputMethod] {
        cardInputMethods + (keyedEntryAllowed ? [.keyed] : [])
    }

    /// Applies a reader change; `cancel` is the payment's, not the reader's, and changes nothing here.
    public mutating func apply(_ change: Change) {
        switch change {
        case .connect: connected = true
        case .disconnect: connected = false
        case .lowBattery: batteryLow = true
        case .charged: batteryLow = false
        case .cancel: break
        }
    }

    /// `connected, battery low` / `disconnected`.
    public var summary: String {
        connected ? "connected, battery \(batteryLow ? "low" : "ok")" : "disconnected"
    }

    /// `tap, dip, swipe` or `none`.
    public static func words(_ methods: [InputMethod]) -> String {
        methods.isEmpty ? "none" : methods.map(\.rawValue).joined(separator: ", ")
    }
}
