@testable import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import Synchronization
import TerminalUI
import Testing

/// Opens nothing: records the links and answers as told.
final class RecordingLinkOpener: LinkOpener {
    private let opened = Mutex<[String]>([])
    let problem: String?

    init(problem: String? = nil) { self.problem = problem }

    var links: [String] { opened.withLock { $0 } }

    func open(_ url: String) async -> String? {
        opened.withLock { $0.append(url) }
        return problem
    }
}

/// `o` and `y`: which link the state offers, what each key sends and says, and links refused.
@Suite struct LinkKeysTests {
    private func ready() throws -> AppState {
        var state = try Screens.state()
        _ = Screens.apply(Screens.created, to: &state)
        return state
    }

    private func withLink(_ url: String, provider: String = "cashapp") throws -> AppState {
        var state = try Screens.state()
        var attempt = Screens.request(provider: provider)
        attempt.authorizationURL = url
        _ = Screens.apply([.stateChanged(.readyToAuthorize(attempt))], to: &state)
        return state
    }

    @Test func withoutALinkBothKeysSayWhyAndSendNothing() throws {
        var state = try Screens.state()
        for key in ["o", "y"] {
            state.layout.notice = nil
            #expect(Screens.apply([.key(.character(Character(key)))], to: &state).isEmpty)
            #expect(state.layout.notice?.kind == .warning)
            #expect(state.layout.notice?.text == "There is no link yet: press p to pay, and the customer's link comes with the request.")
        }
        _ = Screens.apply(Screens.polling + [.stateChanged(.declined(Screens.request(status: .DECLINED)))], to: &state)
        _ = Screens.apply([.key(.character("y"))], to: &state)
        #expect(state.layout.notice?.text == "The checkout ended (declined): there is no link. Press r for a new checkout.")
    }

    @Test func yCopiesTheAuthorizationLinkAndSaysHowLong() throws {
        var state = try ready()
        #expect(state.currentLink == ScreenLink(kind: .authorization, url: Screens.link))
        let commands = Screens.apply([.key(.character("y"))], to: &state)
        #expect(commands == [.copyToClipboard(Screens.link)])
        #expect(state.layout.notice?.text == "Copied the authorization link (\(Screens.link.count) characters) to the clipboard")
        #expect(state.layout.notice?.kind == .info)
    }

    @Test func oAsksToOpenTheLinkAndTheAnswerIsSaid() throws {
        var state = try ready()
        #expect(Screens.apply([.key(.character("o"))], to: &state) == [.openLink(Screens.link)])
        #expect(state.layout.notice?.text == "Opening the authorization link in the browser…")
        _ = Screens.apply([.linkOpened(url: Screens.link, problem: nil)], to: &state)
        #expect(state.layout.notice?.text == "Opened \(Screens.link) in the browser")
        _ = Screens.apply([.linkOpened(url: Screens.link, problem: "xdg-open is not installed")], to: &state)
        #expect(state.layout.notice?.text == "Could not open the link: xdg-open is not installed; press y to copy it")
        #expect(state.layout.notice?.kind == .warning)
    }

    @Test(arguments: [
        ("javascript:alert(1)", "it is not an http(s) URL"), ("file:///etc/passwd", "it is not an http(s) URL"),
        ("https://evil.example/\u{1B}]0;owned\u{07}", "it contains spaces or control characters"),
        ("https://a.example/ rm -rf", "it contains spaces or control characters"), ("http:///no-host", "it names no host"),
    ])
    func linksThatAreNotPlainWebAddressesAreRefused(url: String, why: String) throws {
        var state = try withLink(url)
        for (key, verb) in [("o", "open"), ("y", "copy")] {
            #expect(Screens.apply([.key(.character(Character(key)))], to: &state).isEmpty)
            #expect(state.layout.notice?.text == "Refused to \(verb) the authorization link: \(why).")
        }
    }

    @Test func antomsLinkIsTheBankPageAndSquaresReceiptComesOncePaid() throws {
        var antom = try withLink("https://open-sea.alipay.com/cashier?sessionId=1", provider: "antom")
        _ = Screens.apply([.key(.character("y"))], to: &antom)
        #expect(antom.layout.notice?.text.hasPrefix("Copied the bank page (") == true)

        var square = try Screens.state()
        let paid = PaymentAttempt(provider: "square", id: "pay_1", status: .approved, amount: Money(minorUnits: 4505, currency: .usd), grants: ["pay_1"])
        let receipt = "http://127.0.0.1:8080/sandbox/square/receipts/pay_1"
        _ = Screens.apply([.stateChanged(.approved(paid))], to: &square)
        #expect(square.currentLink == nil)
        _ = Screens.apply([.phaseChanged(.completed(SettlementReceipt(paymentID: "pay_1", details: ["receipt_url": receipt])))], to: &square)
        #expect(square.currentLink == ScreenLink(kind: .receipt, url: receipt))
        #expect(Screens.apply([.key(.character("o"))], to: &square) == [.openLink(receipt)])
    }

    @Test func theHintsOfferTheLinkKeysWhereTheyFit() throws {
        var state = try ready()
        #expect(CheckoutView.render(state).text.hasSuffix("o/y open/copy link"))
        state.layout.width = 80
        state.layout.height = 24
        #expect(!CheckoutView.render(state).text.contains("o/y"))
    }
}

/// The keys through the UI loop: `y` reaches the terminal's clipboard, `o` the opener, whose answer shows.
@Suite(.serialized) struct LinkKeysLoopTests {
    @Test func yWritesTheLinkToTheTerminalsClipboard() throws {
        let run = try LoopRun(width: 100, height: 30)
        _ = try run.screen(containing: "notStarted")
        run.terminal.send(keys: [.character("y")])
        _ = try run.screen(containing: "There is no link yet")
        #expect(run.terminal.copiedTexts.isEmpty)
        run.inbox.post(.stateChanged(.readyToAuthorize(Screens.request())))
        _ = try run.screen(containing: "readyToAuthorize")
        run.terminal.send(keys: [.character("y")])
        _ = try run.screen(containing: "Copied the authorization link")
        #expect(run.terminal.copiedTexts == [Screens.link])
        // The session never hears of it: a screen effect cannot reach `send`, which takes only session commands.
        run.terminal.send(keys: [.character("q"), .character("y")])
        #expect(run.finish()?.status == 0)
    }

    @Test(arguments: [nil, "xdg-open is not installed"])
    func oHandsTheLinkToTheOpenerAndSaysHowItWent(problem: String?) throws {
        let opener = RecordingLinkOpener(problem: problem)
        let run = try LoopRun(width: 100, height: 30, links: opener)
        run.inbox.post(.stateChanged(.readyToAuthorize(Screens.request())))
        _ = try run.screen(containing: "readyToAuthorize")
        run.terminal.send(keys: [.character("o")])
        // The link is long: the notice wraps it, so look for its words.
        _ = try run.screen(containing: problem == nil ? "Opened" : "Could not open the link: xdg-open is not installed; press y")
        #expect(opener.links == [Screens.link])
        run.terminal.send(keys: [.character("q"), .character("y")])
        #expect(run.finish()?.status == 0)
    }
}
