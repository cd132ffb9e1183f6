import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import TerminalUI

/// How the app reacts to each message: a pure function of state and message. Keys go to the
/// overlay that covers the screen, then the keys that work anywhere, then the focused pane.
public enum AppUpdate {
    /// Exchanges the HTTP log keeps (a long session, a loaded transcript); the pane draws only
    /// the rows it shows, so a full log costs memory, not frame time.
    public static let logLimit = 100_000
    public static let noticeLimit = 50

    public static func update(_ state: inout AppState, _ message: AppMessage) -> [AppCommand] {
        switch message {
        case .tick(let now):
            return tick(&state, now)
        case .resized(let width, let height):
            (state.layout.width, state.layout.height) = (width, height)
            return []
        case .exchange(let exchange):
            LogKeys.append(exchange, to: &state)
            return []
        case .notice(let notice, let at):
            state.notices.append(ReceivedNotice(notice: notice, at: at))
            if state.notices.count > noticeLimit { state.notices.removeFirst(state.notices.count - noticeLimit) }
            // A verified notice its provider says changes the saved methods: list them anew.
            guard notice.verified, !notice.isSDKLog, state.paymentMethods.contains(where: { $0.id == notice.provider && $0.refreshesSavedMethods(after: notice.name) })
            else { return [] }
            return [.loadSavedMethods(provider: notice.provider, reason: notice.name)]
        case .savedMethodsLoaded(let provider, let methods, let reason):
            state.replaceSavedMethods(of: provider, with: methods, reason: reason)
            return []
        case .savedMethodsFailed(let problem):
            state.warn(problem)
            return []
        case .savedMethodDeleted(let method):
            state.replaceSavedMethods(of: method.provider, with: state.savedMethods.filter { $0.provider == method.provider && $0.id != method.id })
            state.inform("Deleted the saved \(method.label).")
            return []
        case .promptChanged(let prompt):
            state.receivePrompt(prompt)
            return state.drive(.promptChanged(prompt))
        case .driverTimer(let timer):
            return state.drive(.timerFired(timer))
        case .healthChecked(let provider, let healthy):
            return MethodPause.healthChecked(&state, provider: provider, healthy: healthy)
        case .sessionStarted(let label):
            state.endpointLabel = label
            state.sessionStarted = true
            // PayKit's seed: the request is made as the checkout loads, right after the first frame.
            return CheckoutActions.createOnLoad(&state)
        case .sessionFailed(let problem):
            state.startFailure = problem
            state.quitRequested = true
            return []
        case .customerActionFailed(let reason):
            state.warn(reason)
            return []
        case .phaseChanged(let phase):
            state.checkout.phase = phase
            if phase.isFinal { state.checkout.settledAt = state.now }
            let driven = state.drive(.phaseChanged(phase))
            // A completed payment may have saved the method: list them anew.
            if case .completed = phase, let provider = state.checkout.provider { return driven + [.loadSavedMethods(provider: provider.id, reason: nil)] }
            return driven
        case .attemptChanged(let attempt):
            if case .polling = state.checkout.state { state.checkout.state = .polling(attempt) }
            AuthorizationCode.refresh(&state.checkout.authorizationCode, for: state.checkout.state)
            return []
        case .stateChanged(let next):
            return stateChanged(&state, to: next)
        case .linkOpened(let url, let problem):
            LinkKeys.opened(&state, url: url, problem: problem)
            return []
        case .mouse(let event):
            return MouseActions.handle(&state, event)
        case .key(let key):
            if let overlay = state.layout.overlay { return OverlayKeys.handle(&state, overlay, key) }
            if let prompt = state.prompt, let commands = PromptKeys.handle(&state, prompt, key) { return commands }
            if let commands = GlobalKeys.handle(&state, key) { return commands }
            switch state.layout.focus {
            case .cart: return CartKeys.handle(&state, key)
            case .shipping: return ShippingKeys.handle(&state, key)
            case .payment: return PaymentKeys.handle(&state, key)
            case .log: return LogKeys.handle(&state, key)
            }
        }
    }

    private static func tick(_ state: inout AppState, _ now: Date) -> [AppCommand] {
        state.now = now
        if let notice = state.layout.notice, now.timeIntervalSince(notice.shownAt) > 6 { state.layout.notice = nil }
        return MethodPause.tick(&state, now) + state.drive(.timePassed(now))
    }

    private static func stateChanged(_ state: inout AppState, to next: CheckoutState) -> [AppCommand] {
        if state.checkout.awaitingDropReset {
            // The dropped request's late states: the screen has already started over.
            guard next == .notStarted else { return [] }
            state.checkout.awaitingDropReset = false
            if state.checkout.provider != nil { return [] }  // the next checkout has started already (p, or made on load)
        }
        state.checkout.enter(next, at: state.now)
        var driven: [AppCommand] = []
        // A replayed or scenario-driven attempt names its provider.
        if let id = next.attempt?.provider, state.checkout.provider?.id != id {
            state.checkout.provider = state.paymentMethods.first { $0.id == id }
            if let method = state.checkout.provider { driven += state.drive(.paying(method)) }
        }
        driven += state.drive(.stateChanged(next, at: state.now))
        switch next {
        case .apiError: MethodPause.hide(&state)
        // A new checkout (after r, or a request made on load dropped for another method): made again on load.
        case .notStarted: driven += CheckoutActions.createOnLoad(&state)
        default: break
        }
        return driven
    }
}

extension AppState {
    /// Says why a key did nothing, under the banner.
    mutating func warn(_ text: String) {
        layout.notice = Notice(text: text, kind: .warning, shownAt: now)
    }

    mutating func inform(_ text: String) {
        layout.notice = Notice(text: text, kind: .info, shownAt: now)
    }
}
