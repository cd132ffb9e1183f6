import Foundation
import Testing
import TestSupport

/// The real binary in a real terminal (tmux), driven by keys, read off the screen.
@Suite(.serialized) struct TerminalJourneyTests {
    /// The screen is drawn (its title bar). Not `notStarted`: with Cash App Pay chosen the request
    /// is made as the checkout loads, so the banner may be past it before the first capture.
    static let drawn = "TerminalCheckout · Driftwood Coffee Co."

    init() {
        if !TmuxSession.isAvailable { Issue.record("tmux is not installed; `make test` installs it") }
    }

    /// Starts the real binary in the pane; `then` runs after it exits (e.g. printing its status).
    private func launch(_ tmux: TmuxSession, then: String = "", waitingFor marker: String = Self.drawn) async throws {
        try tmux.type("clear; '\(CheckoutBinary.url.path)'" + (then.isEmpty ? "" : "; \(then)"))
        try await tmux.waitFor(marker)
    }

    /// `stty -a` in the pane after checkout ended: canonical mode and echo are back.
    private func expectTerminalRestored(_ tmux: TmuxSession) async throws {
        // printf turns \072 into ":", so the typed command line itself never matches "MODES:".
        try tmux.type("clear; printf 'MODES\\072 %s\\n' \"$(stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')\"")
        let screen = try await tmux.waitFor("the MODES line") { screen in
            // The output line (the typed command has "MODES\072", not "MODES: "), once whole:
            // stty lists icanon before echo.
            screen.split(separator: "\n").contains { $0.hasPrefix("MODES: ") && $0.contains("echo") }
        }
        #expect(screen.contains("MODES: icanon echo"), "\(screen)")
    }

    @Test func payByKeyboardAndApproveAsTheCustomer() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await launch(tmux)
        // The cart's total (its spacing depends on whether the QR code of the request made on load is up yet).
        try await tmux.waitFor("the cart's total") { $0.range(of: #"Total · Driftwood Coffee Co\. +\$45\.05"#, options: .regularExpression) != nil }

        // Esc closes the help as ? does. How fast is not timed here (a starved CI machine made
        // every timing flaky): curses' one-second Esc delay is set to NcursesTerminal.escapeDelayMilliseconds.
        for key in ["?", "Escape"] {
            try tmux.send("?")
            try await tmux.waitFor("quit at once")
            try tmux.send(key)
            try await tmux.waitFor("the help closed by \(key)") { !$0.contains("quit at once") }
        }

        try tmux.send("+")
        try await tmux.waitFor("3 × $16.50")
        try tmux.send("Tab", "Down", "Enter")
        try await tmux.waitFor("(•) Express Shipping")
        try await tmux.waitFor("$72.74")

        // Cash App Pay's request was made as the checkout loaded (PayKit's seed) and followed the
        // cart (PATCH): ready at the new total without a p, and the first p authorizes.
        try await tmux.waitForAll(["readyToAuthorize", "$72.74 · elapsed"])
        try tmux.send("p")
        try await tmux.waitFor("polling")
        try tmux.send("a")
        try await tmux.waitForAll(["approved  Approved", "$72.74", "paid by $SandboxShopper", "/approve"])

        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")
        try await expectTerminalRestored(tmux)
    }

    /// LANG=C (a fresh container, an SSH session without a locale): the screen is drawn as in a
    /// UTF-8 locale, where ncurses used to drop each middle dot and slide the rest of the line left.
    @Test func aLocaleThatIsNotUTF8DrawsTheSameScreen() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try tmux.type("clear; LANG=C LC_ALL=C '\(CheckoutBinary.url.path)'")
        try await tmux.waitFor(Self.drawn)
        let screen = try await tmux.waitFor("the banner's request line") { $0.contains(" · $45.05 · elapsed ") }
        #expect(screen.contains("◆ readyToAuthorize"), "\(screen)")
        try tmux.send("q")
    }

    @Test func changingTheCartBeforeAuthorizingUpdatesTheRequest() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await launch(tmux)
        // Cash App Pay's request is made as the checkout loads (PayKit's seed): ready without a p.
        try await tmux.waitFor("readyToAuthorize")
        try await tmux.waitFor("$45.05 · elapsed")
        try tmux.send("+")
        // The PATCH goes out (updatingCustomerRequest) and the request comes back at the new total;
        // with six payment methods the QR code covers the log at 100×30 until v hides it.
        try await tmux.waitForAll(["$62.74 · elapsed", "readyToAuthorize"])
        try tmux.send("v")
        try await tmux.waitFor("PATCH /customer-request/v1/requests/")
        try tmux.send("q", "y")
    }

    @Test func payThroughAfterpayByKeyboard() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await launch(tmux)
        try tmux.send("Tab", "Tab", "Down", "Enter")
        try await tmux.waitFor("(•) Cash App Pay (Afterpay)")
        // Only the direct Cash App Pay makes its request as the checkout loads; Afterpay's needs
        // a checkout token first, so p starts it.
        try tmux.send("p")
        try await tmux.waitFor("readyToAuthorize")
        // A cart change gets a new Afterpay token and signature, then PATCHes the request.
        try tmux.send("+")
        try await tmux.waitFor("$62.74 · elapsed")
        try tmux.send("v")
        try await tmux.waitFor("PATCH /customer-request/v1/requests/")
        try tmux.send("v")
        try tmux.send("p")
        try await tmux.waitFor("polling")
        try tmux.send("a")
        try await tmux.waitForAll(["Afterpay payment", "approved · completed", "$62.74", "POST  /v2/payments/capture"])
        try tmux.send("r")
        try await tmux.waitFor("notStarted")
        try tmux.send("q")
    }

    /// Afterpay's signing retry on the screen: a scenario at 33.30 (sign-payment fails once)
    /// signs on the second checkout token and completes; at 33.31 (it always fails) the
    /// checkout ends in apiError after the one retry.
    @Test func afterpaySigningIsRetriedOnceWithANewToken() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journey-sign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func scenario(_ amount: String) throws -> String {
            let path = directory.appendingPathComponent("sign-\(amount).yaml").path
            try "name: sign \(amount)\nprovider: afterpay\namount: \(amount)\ncustomer: approve\n".write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }

        try tmux.type("clear; '\(CheckoutBinary.url.path)' '\(try scenario("33.30"))'")
        try await tmux.waitFor("notStarted")
        try tmux.send("p")
        try await tmux.waitFor("readyToAuthorize")
        try tmux.send("p")
        try await tmux.waitForAll(["Afterpay payment", "approved · completed", "$33.30"])
        try tmux.send("v")
        // The log: the failed signing, a second checkout token, its signing.
        try await tmux.waitFor("the retry in the log") { screen in
            let lines = screen.split(separator: "\n").map(String.init)
            return lines.indices.dropLast(2).contains { index in
                lines[index].contains("POST  /v2/payments/sign-payment") && lines[index].contains(" 500 ")
                    && lines[index + 1].contains("POST  /v2/checkouts") && lines[index + 1].contains(" 201 ")
                    && lines[index + 2].contains("POST  /v2/payments/sign-payment") && lines[index + 2].contains(" 200 ")
            }
        }
        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")

        try tmux.type("clear; '\(CheckoutBinary.url.path)' '\(try scenario("33.31"))'")
        try await tmux.waitFor("notStarted")
        try tmux.send("p")
        try await tmux.waitForAll(["apiError", "r new checkout"])
        try tmux.send("q")
    }

    @Test func takeACardPaymentWithATipAtTheReader() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await launch(tmux)
        try tmux.send("Tab", "Tab", "Down", "Down", "Down", "Enter")
        try await tmux.waitFor("(•) Card (Square)")
        try tmux.send("p")
        try await tmux.waitForAll(["Add a tip?", "No tip", "15%"])
        try tmux.send("Down", "Down", "Enter")
        try await tmux.waitForAll(["Tap, insert or swipe a card", "K: key in a card", "Mastercard •••• 4444 · declined"])
        // A second payment while this one is at the reader is refused; the first goes on.
        try tmux.send("p")
        try await tmux.waitFor("paymentAlreadyInProgress")
        try tmux.send("i")
        try await tmux.waitForAll(["approved · completed", "Receipt #", "Tip     $6.76", "Total   $51.81", "Chip (insert)", "AID A0000000031010"])
        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")
        try await expectTerminalRestored(tmux)
    }

    @Test func aThaiBankPaymentInThai() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try tmux.type("clear; '\(CheckoutBinary.url.path)' --currency THB")
        try await tmux.waitForAll([Self.drawn, "฿1,273.30"])
        try tmux.send("Tab", "Tab", "Down", "Down", "Down", "Down", "Enter")
        try await tmux.waitFor("(•) Bank payment (Antom)")
        // The language switch is the row beneath the method.
        try tmux.send("Down")
        try await tmux.waitFor("language: en_US")
        try tmux.send("s", "s")
        try await tmux.waitFor("language: th_TH")
        try tmux.send("p")
        try await tmux.waitForAll(["readyToAuthorize", "เลือกธนาคารได้แล้ว", "ธนาคารไทยพาณิชย์"])
        // The bank component's logger line, in the event list under the HTTP log (v hides the
        // QR code standing where the log is, and shows it again).
        try tmux.send("v")
        try await tmux.waitFor("sdk_log onEventCallback eventCode=SDK_END_OF_LOADING")
        try tmux.send("v")
        try tmux.send("p")
        try await tmux.waitForAll(["polling", "รอลูกค้าชำระเงินที่ธนาคาร", "/sandbox/antom/cashier/", "สแกนเพื่อชำระเงินที่ธนาคาร"])
        try tmux.send("a")
        try await tmux.waitForAll(["approved", "ชำระเงินที่ธนาคารแล้ว"])
        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")
        try await expectTerminalRestored(tmux)
    }

    /// The wallet sheet at 80×24 by keyboard: rates for the saved address, an entered address the
    /// rates service cannot ship to, another saved address, a dearer method, then the two-key pay.
    @Test func aWalletSheetByKeyboard() async throws {
        let tmux = try TmuxSession(width: 80, height: 24)
        defer { tmux.close() }
        try await launch(tmux)
        // The wallet is the sixth payment method.
        try tmux.send("Tab", "Tab", "Down", "Down", "Down", "Down", "Down", "Enter")
        try await tmux.waitFor("(•) Wallet (Apple Pay style)")
        try tmux.send("p")
        try await tmux.waitForAll(["Wallet · Adyen", "USPS Ground Advantage"])
        // The address row, then a new address at the ZIP with no service.
        try tmux.send("Down", "Enter")
        try await tmux.waitFor("Enter a new address…")
        try tmux.send("Down", "Down", "Down", "Down", "Enter")
        try await tmux.waitFor("New shipping address")
        try tmux.send("Tab")
        try tmux.typeText("1 Nowhere Rd")
        try tmux.send("Tab")
        try tmux.typeText("Salem")
        try tmux.send("Tab")
        try tmux.typeText("OR")
        try tmux.send("Tab")
        try tmux.typeText("00000")
        try tmux.send("Enter")
        try await tmux.waitFor("invalid shipping postal address")
        try tmux.send("p")
        try await tmux.waitFor("Choose another address")
        // The office in New York (the picker opens on the entered address): rates again.
        try tmux.send("Down", "Enter")
        try await tmux.waitFor("Enter a new address…")
        try tmux.send("Up", "Up", "Up", "Enter")
        try await tmux.waitFor("Office rates") { $0.contains("Office · 350 Fifth Ave") && $0.contains("USPS Ground Advantage") }
        // The shipping row: the dearest method reprices the total at once.
        try tmux.send("Down", "Down", "Enter")
        try await tmux.waitFor("Shipping method")
        try tmux.send("Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Enter")
        try await tmux.waitFor("the overnight method") { $0.contains("FedEx Standard Overnight") && !$0.contains("Shipping method") }
        try tmux.send("p")
        try await tmux.waitFor("Confirm with Side Button")
        try tmux.send("p")
        try await tmux.waitForAll(["completed", "Paid with the wallet."])
        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")
        try await expectTerminalRestored(tmux)
    }

    /// PayKit's seed path: the request is made as the checkout loads (no p), the on-file switch
    /// follows it (a PATCH with an ON_FILE_PAYMENT action), the first p authorizes, and the
    /// approval carries a ONE_TIME and an EXTENDED grant, on the banner and the receipt.
    @Test func anOnFilePaymentMadeAsTheCheckoutLoads() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await launch(tmux)
        try await tmux.waitFor("readyToAuthorize")
        // v hides the QR code (which covers the log) now, while it is up: pressed during the
        // update below, when there is no code, it would only warn (CI once pressed it then).
        try tmux.send("v")
        try await tmux.waitFor("POST  /customer-request/v1/requests")
        try tmux.send("Tab", "Tab")
        try await tmux.waitFor("[ ] keep on file")
        try tmux.send("s")
        try await tmux.waitFor("[x] keep on file")
        try await tmux.waitForAll(["PATCH /customer-request/v1/requests/", "readyToAuthorize"])
        try tmux.send("p")
        try await tmux.waitFor("polling")
        try tmux.send("a")
        try await tmux.waitForAll(["approved  Approved", "(ONE_TIME)", "(EXTENDED)", "Paid by $SandboxShopper"])
        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")
        try await expectTerminalRestored(tmux)
    }

    /// With nothing authorized, the request made on load is not the customer's: q quits at once.
    @Test func quittingBeforeAuthorizingARequestMadeOnLoadAsksNothing() async throws {
        let tmux = try TmuxSession(width: 80, height: 24)
        defer { tmux.close() }
        try await launch(tmux, then: "echo exit=$?")
        try await tmux.waitFor("readyToAuthorize")
        try tmux.send("q")
        try await tmux.waitFor("exit=0")
    }

    @Test func quittingWhilePollingAsksFirst() async throws {
        let tmux = try TmuxSession(width: 80, height: 24)
        defer { tmux.close() }
        try await launch(tmux)
        // Cash App Pay's request is made as the checkout loads (PayKit's seed): ready without a p.
        // The focus stays where it was (the cart), so Enter from the payment pane authorizes.
        try await tmux.waitFor("readyToAuthorize")
        try tmux.send("Tab", "Tab", "Enter")
        try await tmux.waitFor("polling")
        try tmux.send("q")
        try await tmux.waitFor("Quit anyway?")
        try tmux.send("n")
        try await tmux.waitFor("Quit anyway?", timeout: 5) { !$0.contains("Quit anyway?") }
        try tmux.send("q", "y")
        try await tmux.waitFor("checkout: left in polling")
        try await expectTerminalRestored(tmux)
    }

    @Test(arguments: [(SIGTERM, 143), (SIGINT, 130), (SIGHUP, 129), (SIGQUIT, 131)])
    func signalsRestoreTheTerminal(signal: Int32, status: Int) async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await launch(tmux, then: "echo exit=$?")
        try tmux.signalChild(named: "checkout", signal)
        let screen = try await tmux.waitFor("exit=\(status)")
        // SIGQUIT used to print the runtime's crash backtrace over the screen.
        #expect(!screen.contains("Backtrace") && !screen.contains("crashed"), "\(screen)")
        try await expectTerminalRestored(tmux)
    }

    @Test func sigquitWhilePollingStillWritesTheTranscript() async throws {
        let transcript = FileManager.default.temporaryDirectory.appendingPathComponent("quit-\(UUID().uuidString).har").path
        defer { try? FileManager.default.removeItem(atPath: transcript) }
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try tmux.type("clear; '\(CheckoutBinary.url.path)' --record '\(transcript)'; echo exit=$?")
        try await tmux.waitFor(Self.drawn)
        // Cash App Pay's request is made as the checkout loads (PayKit's seed): ready without a p.
        // The focus stays where it was (the cart), so Enter from the payment pane authorizes.
        try await tmux.waitFor("readyToAuthorize")
        try tmux.send("Tab", "Tab", "Enter")
        try await tmux.waitFor("polling")
        try tmux.signalChild(named: "checkout", SIGQUIT)
        try await tmux.waitFor("exit=131")
        let replay = try await CheckoutBinary.run(["replay", "--headless", transcript])
        #expect(replay.states.last == "polling", "\(replay.stdout)\(replay.stderr)")
        try await expectTerminalRestored(tmux)
    }

    @Test func ctrlCQuitsAndRestoresTheTerminal() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await launch(tmux, then: "echo exit=$?")
        try tmux.send("C-c")
        try await tmux.waitFor("exit=0")
        try await expectTerminalRestored(tmux)
    }

    @Test func tooSmallThenEnlarged() async throws {
        let tmux = try TmuxSession(width: 70, height: 20)
        defer { tmux.close() }
        try await launch(tmux, then: "echo exit=$?", waitingFor: "terminal too small: need 80×24, have 70×20")
        try tmux.resize(width: 100, height: 30)
        try await tmux.waitFor(Self.drawn)
        try tmux.send("q")
        try await tmux.waitFor("exit=0")
        try await expectTerminalRestored(tmux)
    }

    /// A frame reaches the terminal in one write. ncurses 6.4 flushed at every cursor move until
    /// its screen had once been left and resumed: the help took one write per line, each a
    /// packet over SSH, and a frame arrived in pieces.
    @Test(.enabled(if: TmuxSession.countsWriteCalls, "this system does not count a process's writes"))
    func aFrameGoesOutInOneWrite() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        // No request made on load: nothing on the screen ticks while it waits for a key.
        try tmux.type("clear; '\(CheckoutBinary.url.path)' --create-on-load false; echo exit=$?")
        try await tmux.waitFor(Self.drawn)
        try await tmux.waitFor("the sandbox up") { $0.contains(Self.drawn) && !$0.contains("starting sandbox") }
        // Settled: the same count of writes over several looks at the screen.
        let deadline = ContinuousClock.now + .seconds(45)
        var before = tmux.writeCalls(ofChild: "checkout")
        var unchanged = 0
        while before != nil, unchanged < 5, ContinuousClock.now < deadline {
            _ = try tmux.screen()
            let now = tmux.writeCalls(ofChild: "checkout")
            unchanged = now == before ? unchanged + 1 : 0
            before = now
        }
        try #require(unchanged == 5, "checkout kept writing while it waited for a key")
        try tmux.send("?")
        try await tmux.waitFor("quit at once")
        let after = try #require(tmux.writeCalls(ofChild: "checkout"), "checkout is not running")
        let writes = after - (try #require(before, "checkout was not running"))
        #expect(writes <= 3, "the help went out in \(writes) writes")
        try tmux.send("Escape")
        try await tmux.waitFor("the help closed") { !$0.contains("quit at once") }
        try tmux.send("q")
        try await tmux.waitFor("exit=0")
    }
}
