@testable import CheckoutApp
import Foundation
import Synchronization
import Testing
import TerminalUI

/// The screen and `checkout run` drive the same coordinator: one scenario makes the same
/// requests with the same bodies whichever front end runs it.
@Suite struct FrontEndParityTests {
    /// Method, path and body of every call, ids masked: the writes in order, then the distinct
    /// reads (how often polling reads, and whether the simulated customer's approval lands
    /// before or after the first read, depend on timing).
    private func requests(in path: String) throws -> [String] {
        let document = try Transcript.load(path)
        let masks: [(String, String)] = [
            (#"127\.0\.0\.1:\d+"#, "HOST"), (#"GRR_[a-z0-9]+"#, "GRR_*"), (#"GRG_[a-z0-9]+"#, "GRG_*"),
            (#""idempotency_key":"[^"]+""#, #""idempotency_key":"*""#), (#"tc-[0-9a-f]{8}"#, "tc-*"), (#"t=\d+-[a-z0-9]+"#, "t=*"),
            (#"CST_[a-z0-9]+"#, "CST_*"), (#"002\.[a-z0-9]+"#, "TOKEN"), (#"eyJ[A-Za-z0-9_.-]+"#, "JWT"),
        ]
        var lines: [String] = []
        for entry in document.log.entries {
            var line = "\(entry.request.method) \(entry.request.url) \(canonical(entry.request.postData?.text))"
            for (pattern, replacement) in masks {
                line = line.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
            }
            lines.append(line)
        }
        let writes = lines.filter { !$0.hasPrefix("GET ") }
        let reads = Set(lines.filter { $0.hasPrefix("GET ") }).sorted()
        return writes + reads
    }

    /// A JSON body with sorted keys, so key order never reads as a difference.
    private func canonical(_ body: String?) -> String {
        guard let body, let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return body ?? "" }
        return String(decoding: data, as: UTF8.self)
    }

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString)-\(name)").path
    }

    @Test(arguments: ["cashapp", "afterpay"])
    func bothFrontEndsMakeTheSameRequests(provider: String) async throws {
        var scenario = Scenario(name: "parity")
        scenario.provider = provider
        scenario.metadata = ["ticket": "SUP-1"]

        let headlessPath = temporaryPath("run.har")
        let headless = HeadlessOptions(scenario: scenario, timeoutSeconds: 30, recordPath: headlessPath)
        let status = await HeadlessCheckout(options: headless, write: { _ in }, writeError: { _ in }).run()
        #expect(status == .approved)

        let screenPath = temporaryPath("screen.har")
        let terminal = InMemoryTerminal(width: 100, height: 30)
        var options = TerminalCheckoutOptions(session: SessionOptions(), colors: false, scenario: scenario, recordPath: screenPath)
        options.terminal = { terminal }
        options.quietEnd = true
        let driven = Mutex<String?>(nil)
        let thread = Thread {
            // Pay, authorize; the scenario's customer approves; quit once the checkout ended.
            let steps: [(Key?, String)] = [(nil, "notStarted"), (.character("p"), "readyToAuthorize"), (.character("p"), "press r for a new checkout")]
            for (key, marker) in steps {
                if let key { terminal.send(keys: [key]) }
                guard terminal.waitForScreen(containing: marker, timeout: .seconds(20)) != nil else {
                    driven.withLock { $0 = "never saw \(marker): \(terminal.lastScreen?.text ?? "no frame")" }
                    terminal.send(keys: [.control("c")])
                    return
                }
            }
            terminal.send(keys: [.character("q")])
        }
        thread.start()
        _ = await TerminalCheckout.run(options: options, writeError: { _ in })
        #expect(driven.withLock { $0 } == nil, "\(driven.withLock { $0 } ?? "")")

        let fromRun = try requests(in: headlessPath)
        let fromScreen = try requests(in: screenPath)
        #expect(fromRun == fromScreen)
        let create = try #require(fromRun.first { $0.hasPrefix("POST http://HOST/customer-request/v1/requests") })
        #expect(create.contains(#""reference_id":"tc-*""#) && create.contains(#""cart_items":"3""#) && create.contains(#""ticket":"SUP-1""#), "\(create)")
    }
}
