@testable import CheckoutApp
import TerminalUI
import Testing

/// The key table against what reads it: every bound key reaches a handler that performs its
/// action, every binding is in the `?` overlay or the hints line, and no pane handles a key
/// the table does not name.
@Suite struct KeyBindingsTests {
    @Test func everyBindingOnTheScreenHasAHelpLineAndEveryOtherAHintAtLeast() {
        for binding in KeyBindings.all {
            if binding.onScreen {
                #expect(binding.help != nil, "\(binding.action) has no line in the ? overlay")
            } else {
                #expect(binding.help != nil || binding.hint != nil, "\(binding.action) is shown neither in ? nor in its hints")
            }
        }
    }

    @Test func everyBoundKeyReachesItsOwnBinding() {
        for binding in KeyBindings.all {
            for scope in binding.scopes {
                for key in binding.keys {
                    #expect(KeyBindings.action(for: key, in: scope) == binding.action, "\(key) in \(scope) is bound twice")
                    // The whole screen's keys are looked up first and would hide a pane's.
                    if case .pane = scope {
                        #expect(KeyBindings.action(for: key, in: .screen) == nil, "\(key) in \(scope) is hidden by a screen key")
                    }
                }
            }
        }
    }

    @Test func everyBoundActionHasAHandlerInItsScope() throws {
        for binding in KeyBindings.all where !binding.keys.isEmpty {
            for scope in binding.scopes {
                var state = try Screens.state()
                #expect(perform(binding.action, in: scope, on: &state) != nil, "nothing in \(scope) performs \(binding.action)")
            }
        }
    }

    @Test func theHelpOverlayShowsEveryLineOnceIncludingThePaymentPanesKeys() throws {
        var state = try Screens.state()
        _ = Screens.apply([.key(.character("?"))], to: &state)
        let text = CheckoutView.render(state).text
        for row in KeyBindings.all.compactMap(\.help) {
            #expect(text.contains(row.keys) && text.contains(row.text), "the ? overlay lacks \(row)")
        }
        #expect(Set(KeyHelp.rows).count == KeyHelp.rows.count)
        #expect(KeyHelp.rows.contains { $0.keys.contains("s") && $0.keys.contains("d") })
    }

    /// A key a pane's handler matched by itself, past the table, would fail here.
    @Test func keysTheTableDoesNotBindDoNothingInAnyPane() throws {
        let candidates: [Key] = (32...126).map { .character(Character(Unicode.Scalar($0)!)) }
            + [.left, .right, .pageUp, .pageDown, .home, .end, .escape, .backspace, .control("a"), .control("l")]
        var start = try Screens.state()
        _ = Screens.apply(Screens.created, to: &start)
        for pane in Pane.allCases {
            var state = start
            state.layout.focus = pane
            let before = CheckoutView.render(state).text
            for key in candidates where KeyBindings.action(for: key, in: .screen) == nil && KeyBindings.action(for: key, in: .pane(pane)) == nil {
                var pressed = state
                #expect(Screens.apply([.key(key)], to: &pressed).isEmpty)
                #expect(CheckoutView.render(pressed).text == before, "\(key) did something in the \(pane) pane")
            }
        }
    }

    private func perform(_ action: KeyAction, in scope: KeyScope, on state: inout AppState) -> [AppCommand]? {
        switch scope {
        case .screen: GlobalKeys.perform(&state, action)
        case .pane(.cart): CartKeys.perform(&state, action)
        case .pane(.shipping): ShippingKeys.perform(&state, action)
        case .pane(.payment): PaymentKeys.perform(&state, action)
        case .pane(.log): LogKeys.perform(&state, action)
        case .overlay(let kind): OverlayKeys.perform(&state, overlay(kind), action)
        }
    }

    private func overlay(_ kind: OverlayKind) -> Overlay {
        switch kind {
        case .help: .help
        case .quitQuestion: .confirmQuit
        case .catalog: .addProduct(cursor: 0)
        case .exchange: .httpDetail(exchangeID: 1, scroll: 0)
        }
    }
}
