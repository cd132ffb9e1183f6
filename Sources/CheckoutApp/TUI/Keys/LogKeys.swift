import ProviderClients
import TerminalUI

/// The HTTP log pane: move between exchanges (the cursor follows new ones unless moved up);
/// Enter opens one.
enum LogKeys {
    static func handle(_ state: inout AppState, _ key: Key) -> [AppCommand] {
        guard let action = KeyBindings.action(for: key, in: .pane(.log)) else { return [] }
        return perform(&state, action) ?? []
    }

    /// nil for an action the log pane does not have.
    static func perform(_ state: inout AppState, _ action: KeyAction) -> [AppCommand]? {
        switch action {
        case .move(let step):
            guard !state.exchanges.isEmpty else { return [] }
            state.layout.logCursor = clampedCursor(state.layout.logCursor ?? state.exchanges.count - 1, by: step, count: state.exchanges.count)
            return []
        case .choose:
            return choose(&state)
        default:
            return nil
        }
    }

    /// Opens the exchange under the cursor.
    static func choose(_ state: inout AppState) -> [AppCommand] {
        guard let index = state.layout.logCursor, state.exchanges.indices.contains(index) else { return [] }
        state.layout.overlay = .httpDetail(exchangeID: state.exchanges[index].id, scroll: 0)
        return []
    }

    /// Keeps the newest `AppUpdate.logLimit` exchanges; the cursor follows unless moved up.
    static func append(_ exchange: HTTPExchange, to state: inout AppState) {
        let following = state.layout.logCursor == nil || state.layout.logCursor == state.exchanges.count - 1
        state.exchanges.append(exchange)
        let dropped = max(0, state.exchanges.count - AppUpdate.logLimit)
        if dropped > 0 { state.exchanges.removeFirst(dropped) }
        if following {
            state.layout.logCursor = state.exchanges.count - 1
        } else if let cursor = state.layout.logCursor {
            // Stay on the same exchange while the oldest go.
            state.layout.logCursor = max(0, cursor - dropped)
        }
    }
}
