@testable import CheckoutApp
import CheckoutModel
import Foundation
import Synchronization
import PaymentFlow
import ProviderClients
import ProviderWire
import Testing

/// Fixed values for transcripts: times, requests and exchanges that never drift.
private enum Recorded {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static let params = CreateCustomerRequestParams(
        actions: [.oneTimePayment(scopeID: "BRAND_test", amount: 4505, currency: "USD")],
        channel: .ONLINE, redirectURL: "terminalcheckout://return")

    static let grant = Grant(
        id: "GRG_one", customerID: "CST_one", action: params.actions[0], status: .ACTIVE, type: .ONE_TIME,
        channel: .ONLINE, createdAt: start, updatedAt: start, expiresAt: nil)

    static func request(id: String = "GRR_one", status: CustomerRequest.Status = .PENDING, grants: [Grant]? = nil) -> CustomerRequest {
        let triggers = status == .PENDING
            ? CustomerRequest.AuthFlowTriggers(
                qrCodeImageURL: "https://cash.example/qr.png", qrCodeSVGURL: "https://cash.example/qr.svg",
                mobileURL: "https://cash.example/authorize/\(id)", refreshesAt: start.addingTimeInterval(30))
            : nil
        return CustomerRequest(
            id: id, status: status, actions: params.actions, authFlowTriggers: triggers,
            redirectURL: params.redirectURL, createdAt: start, updatedAt: start, expiresAt: start.addingTimeInterval(3600),
            origin: .init(type: "DIRECT"), channel: .ONLINE, referenceID: "order-1",
            requesterProfile: .init(name: "Shop", logoURL: nil),
            customerProfile: status == .APPROVED ? .init(id: "CST_one", cashtag: "$shopper") : nil,
            metadata: ["channel": "terminal"], grants: grants)
    }

    static func approved(id: String = "GRR_one") -> CustomerRequest { request(id: id, status: .APPROVED, grants: [grant]) }

    /// The request as the attempt states carry.
    static func attempt(id: String = "GRR_one", status: CustomerRequest.Status = .PENDING) -> PaymentAttempt {
        PaymentAttempt(cashAppRequest: request(id: id, status: status), provider: "cashapp")
    }

    static func approvedAttempt(id: String = "GRR_one") -> PaymentAttempt {
        PaymentAttempt(cashAppRequest: approved(id: id), provider: "cashapp")
    }

    static let draft = PaymentAttempt(provider: "cashapp", amount: Money(minorUnits: 4505, currency: .usd), reference: "order-1")

    static let created = HTTPExchange(
        id: 1, provider: "cashapp", attempt: 1, method: "POST", url: "http://127.0.0.1:8080/customer-request/v1/requests",
        requestHeaders: [
            .init(name: "Authorization", value: "Client [REDACTED]"), .init(name: "Content-Type", value: "application/json"),
            .init(name: "Accept", value: "application/json"),
        ],
        requestBody: #"{"idempotency_key":"5f0c","request":{"channel":"ONLINE"}}"#,
        status: 201, responseHeaders: [.init(name: "Content-Type", value: "application/json; charset=utf-8"), .init(name: "X-Request-Id", value: "r1")],
        responseBody: #"{"request":{"id":"GRR_one","status":"PENDING","note":"café ✓"}}"#,
        startedAt: start.addingTimeInterval(0.25), durationMilliseconds: 14, failure: nil)

    static let polled = HTTPExchange(
        id: 2, provider: "cashapp", attempt: 1, method: "GET",
        url: "http://127.0.0.1:8080/customer-request/v1/requests/GRR_one?limit=2&cursor=a%20b",
        requestHeaders: [.init(name: "Authorization", value: "Client [REDACTED]")], requestBody: nil,
        status: 200, responseHeaders: [.init(name: "Content-Type", value: "application/json")],
        responseBody: #"{"request":{"id":"GRR_one","status":"APPROVED"}}"#,
        startedAt: start.addingTimeInterval(1.5), durationMilliseconds: 3, failure: nil)

    static let failed = HTTPExchange(
        id: 3, provider: "afterpay", attempt: 2, method: "POST", url: "http://127.0.0.1:8080/v2/payments/capture",
        requestHeaders: [.init(name: "Authorization", value: "Basic [REDACTED]")], requestBody: #"{"token":"t"}"#,
        status: nil, responseHeaders: [], responseBody: nil,
        startedAt: start.addingTimeInterval(2), durationMilliseconds: 5000, failure: "timed out")

    static let exchanges = [created, polled, failed]

    static let flow: [FlowEvent] = [
        .state(.notStarted), .state(.creatingRequest(draft)), .state(.readyToAuthorize(attempt())),
        .state(.redirecting(attempt())), .state(.polling(attempt())), .state(.approved(approvedAttempt())),
        .phase(.step("validating")), .phase(.step("capturing")), .phase(.completed(SettlementReceipt(paymentID: "pay_1", payer: "$shopper"))),
    ]

    static func record() throws -> TranscriptRecord {
        let recorder = TranscriptRecorder(startedAt: start)
        for event in flow { recorder.record(event) }
        var scenario = Scenario(name: "recorded")
        scenario.customer = .decline
        return recorder.record(scenario: scenario, summary: "result: approved", finalState: "approved", finalPhase: "completed")
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("transcript-\(UUID().uuidString)-\(name)").path
    }
}

/// Compares flow events, which are not Equatable themselves.
private func same(_ left: FlowEvent?, _ right: FlowEvent) -> Bool {
    switch (left, right) {
    case (.state(let a)?, .state(let b)): a == b
    case (.phase(let a)?, .phase(let b)): a == b
    default: false
    }
}

/// The field names HTTP Archive 1.2 defines (http://www.softwareishard.com/blog/har-12-spec/).
private let harKeys: Set<String> = [
    // log, creator, browser
    "log", "version", "creator", "browser", "pages", "entries", "comment", "name",
    // pages, pageTimings
    "startedDateTime", "id", "title", "pageTimings", "onContentLoad", "onLoad",
    // entries
    "pageref", "time", "request", "response", "cache", "timings", "serverIPAddress", "connection",
    // request, response
    "method", "url", "httpVersion", "cookies", "headers", "queryString", "postData", "headersSize", "bodySize",
    "status", "statusText", "content", "redirectURL",
    // cookies, headers, queryString, params
    "value", "path", "domain", "expires", "httpOnly", "secure", "fileName", "contentType",
    // postData, content
    "mimeType", "params", "text", "size", "compression", "encoding",
    // cache
    "beforeRequest", "afterRequest", "lastAccess", "eTag", "hitCount",
    // timings
    "blocked", "dns", "connect", "send", "wait", "receive", "ssl",
]

/// Keys outside HAR 1.2 that do not start with `_`, with their paths; custom fields' contents are ours.
private func nonStandardKeys(_ value: Any, path: String = "") -> [String] {
    if let object = value as? [String: Any] {
        return object.flatMap { key, child -> [String] in
            if key.hasPrefix("_") { return [] }
            return (harKeys.contains(key) ? [] : [path + "." + key]) + nonStandardKeys(child, path: path + "." + key)
        }
    }
    if let array = value as? [Any] {
        return array.enumerated().flatMap { nonStandardKeys($1, path: "\(path)[\($0)]") }
    }
    return []
}

private func isNumber(_ value: Any?) -> Bool {
    guard let value, !(value is String), !(value is [Any]), !(value is [String: Any]) else { return false }
    return (value as? Double) != nil || (value as? Int) != nil
}

/// ISO 8601 with milliseconds and a zone, e.g. 2027-01-15T08:00:00.250Z.
private func isISO8601Milliseconds(_ text: String) -> Bool {
    text.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})/#) != nil
}

@Suite struct TranscriptHARTests {
    /// Writes the document as `Transcript.write` does and reads it back as JSON.
    private func written() throws -> (json: [String: Any], data: Data) {
        let document = Transcript.document(record: try Recorded.record(), exchanges: Recorded.exchanges, title: "recorded (cashapp)")
        let path = Recorded.temporaryPath("checkout.har")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Transcript.write(document, to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (json, data)
    }

    private func entries() throws -> [[String: Any]] {
        let log = try #require(try written().json["log"] as? [String: Any])
        return try #require(log["entries"] as? [[String: Any]])
    }

    @Test func theLogHasVersionCreatorPagesAndEntries() throws {
        let log = try #require(try written().json["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? [String: Any])
        #expect(creator["name"] as? String == "TerminalCheckout")
        #expect((creator["version"] as? String)?.isEmpty == false)
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 3)
        let pages = try #require(log["pages"] as? [[String: Any]])
        #expect(pages.count == 1)
        let page = try #require(pages.first)
        #expect(page["id"] as? String == "checkout")
        #expect(page["title"] as? String == "recorded (cashapp)")
        let started = try #require(page["startedDateTime"] as? String)
        #expect(isISO8601Milliseconds(started), "\(started)")
        #expect(started == "2027-01-15T08:00:00.000Z")
        let timings = try #require(page["pageTimings"] as? [String: Any])
        #expect(isNumber(timings["onContentLoad"]) && isNumber(timings["onLoad"]))
        #expect(entries.allSatisfy { $0["pageref"] as? String == "checkout" })
    }

    @Test func everyEntryHasEveryRequiredFieldWithItsType() throws {
        for entry in try entries() {
            let started = try #require(entry["startedDateTime"] as? String)
            #expect(isISO8601Milliseconds(started), "\(started)")
            #expect(isNumber(entry["time"]))

            let request = try #require(entry["request"] as? [String: Any])
            #expect(request["method"] is String)
            #expect(request["url"] is String)
            #expect(request["httpVersion"] as? String == "HTTP/1.1")
            #expect(request["cookies"] is [Any])
            #expect(request["headers"] is [Any])
            #expect(request["queryString"] is [Any])
            #expect(isNumber(request["headersSize"]))
            #expect(isNumber(request["bodySize"]))
            for header in try #require(request["headers"] as? [[String: Any]]) {
                #expect(header["name"] is String && header["value"] is String)
            }

            let response = try #require(entry["response"] as? [String: Any])
            #expect(isNumber(response["status"]))
            #expect(response["statusText"] is String)
            #expect(response["httpVersion"] is String)
            #expect(response["cookies"] is [Any])
            #expect(response["headers"] is [Any])
            let content = try #require(response["content"] as? [String: Any])
            #expect(isNumber(content["size"]))
            #expect(content["mimeType"] is String)
            #expect(response["redirectURL"] as? String == "")
            #expect(isNumber(response["headersSize"]))
            #expect(isNumber(response["bodySize"]))

            #expect(entry["cache"] is [String: Any])
            let timings = try #require(entry["timings"] as? [String: Any])
            #expect(isNumber(timings["send"]) && isNumber(timings["wait"]) && isNumber(timings["receive"]))
            let parts = ["blocked", "dns", "connect", "send", "wait", "receive", "ssl"].compactMap { timings[$0] as? Int }
            #expect(parts.allSatisfy { $0 >= -1 })
            #expect(entry["time"] as? Int == parts.filter { $0 >= 0 }.reduce(0, +))
        }
    }

    @Test func aRequestBodyIsPostDataAndAResponseBodyIsContent() throws {
        let entries = try entries()
        let created = try #require(entries.first)
        let request = try #require(created["request"] as? [String: Any])
        #expect(request["method"] as? String == "POST")
        #expect(request["url"] as? String == Recorded.created.url)
        let postData = try #require(request["postData"] as? [String: Any])
        #expect(postData["mimeType"] as? String == "application/json")
        #expect(postData["text"] as? String == Recorded.created.requestBody)
        #expect(request["bodySize"] as? Int == Recorded.created.requestBody?.utf8.count)
        let headers = try #require(request["headers"] as? [[String: String]])
        #expect(headers.contains(["name": "Authorization", "value": "Client [REDACTED]"]))

        let response = try #require(created["response"] as? [String: Any])
        #expect(response["status"] as? Int == 201)
        #expect(response["statusText"] as? String == "Created")
        let content = try #require(response["content"] as? [String: Any])
        #expect(content["mimeType"] as? String == "application/json; charset=utf-8")
        #expect(content["text"] as? String == Recorded.created.responseBody)
        #expect(content["size"] as? Int == Recorded.created.responseBody?.utf8.count)
        #expect(response["bodySize"] as? Int == Recorded.created.responseBody?.utf8.count)
        let responseHeaders = try #require(response["headers"] as? [[String: String]])
        #expect(responseHeaders.contains(["name": "X-Request-Id", "value": "r1"]))
        #expect(created["time"] as? Int == 14)
        #expect(created["startedDateTime"] as? String == "2027-01-15T08:00:00.250Z")
        #expect(created["_exchangeId"] as? Int == 1)
        #expect(created["_provider"] as? String == "cashapp")
        #expect(created["_attempt"] as? Int == 1)
        #expect(created["_error"] == nil)

        let polled = try #require(entries.dropFirst().first)
        let getRequest = try #require(polled["request"] as? [String: Any])
        #expect(getRequest["postData"] == nil, "a GET without a body has no postData")
        #expect(getRequest["bodySize"] as? Int == 0)
        let query = try #require(getRequest["queryString"] as? [[String: String]])
        #expect(query == [["name": "limit", "value": "2"], ["name": "cursor", "value": "a b"]])
        let ok = try #require(polled["response"] as? [String: Any])
        #expect(ok["statusText"] as? String == "OK")
    }

    @Test func aFailedExchangeHasStatusZeroAndAnError() throws {
        let failed = try #require(try entries().last)
        let response = try #require(failed["response"] as? [String: Any])
        #expect(response["status"] as? Int == 0)
        #expect(response["statusText"] as? String == "")
        #expect(response["headers"] as? [Any] != nil)
        #expect(isNumber(response["bodySize"]))
        let content = try #require(response["content"] as? [String: Any])
        #expect(content["size"] as? Int == 0)
        #expect(failed["_error"] as? String == "timed out")
        #expect(failed["_attempt"] as? Int == 2)
        #expect(failed["_provider"] as? String == "afterpay")
        #expect(failed["time"] as? Int == 5000)
    }

    @Test func everyCustomFieldStartsWithAnUnderscore() throws {
        let json = try written().json
        #expect(nonStandardKeys(json) == [])
        let log = try #require(json["log"] as? [String: Any])
        let record = try #require(log["_terminalCheckout"] as? [String: Any])
        #expect((record["events"] as? [Any])?.count == Recorded.flow.count)
    }

    @Test func theFileIsUTF8() throws {
        let data = try written().data
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("café ✓"))
    }
}

@Suite struct TranscriptLoadTests {
    /// An SDK's log line (`sdk_log`) is kept, printed as it was, played into the replayed
    /// screen's event list, and never compared; a hostile one is made safe again on the way back.
    @Test func anSDKLogLineIsKeptPrintedReplayedAndNotCompared() throws {
        let recorder = TranscriptRecorder(startedAt: Recorded.start)
        let line = SDKLogLine(name: "onEventCallback", parameters: ["eventCode": "SDK_END_OF_LOADING"])
        recorder.record(Recorded.flow[0])
        recorder.record(.notice(.sdkLog(provider: "antom", line)))
        for event in Recorded.flow.dropFirst() { recorder.record(event) }
        let record = recorder.record(scenario: Scenario(name: "logged"), summary: "result: approved", finalState: "approved", finalPhase: "completed")
        let path = Recorded.temporaryPath("sdk-log.har")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Transcript.write(Transcript.document(record: record, exchanges: Recorded.exchanges, title: "t"), to: path)

        let document = try Transcript.load(path)
        let events = try #require(document.log.terminalCheckout?.events)
        #expect(events == record.events)
        let logged = try #require(events.first { $0.notice == "sdk_log" })
        #expect(logged.sdkLog == RecordedSDKLog(provider: "antom", name: "onEventCallback", parameters: ["eventCode": "SDK_END_OF_LOADING"]))
        #expect(logged.line == "event: sdk_log onEventCallback eventCode=SDK_END_OF_LOADING")
        let json = try #require(JSONSerialization.jsonObject(with: Data(logged.json.utf8)) as? [String: Any])
        #expect(json["event"] as? String == "sdk_log" && json["name"] as? String == "onEventCallback" && json["provider"] as? String == "antom")
        #expect(json["parameters"] as? [String: String] == ["eventCode": "SDK_END_OF_LOADING"])

        let printed = Mutex<[String]>([])
        _ = TranscriptReplay.printLines(document, json: false) { text in printed.withLock { $0.append(text) } }
        #expect(printed.withLock { $0 }.contains("event: sdk_log onEventCallback eventCode=SDK_END_OF_LOADING"))

        let notices = ReplayTimeline(document).steps.compactMap { step -> ProviderNotice? in
            if case .notice(let notice, _) = step.message { return notice }
            return nil
        }
        #expect(notices == [.sdkLog(provider: "antom", line)])
        // Compared without it: a run that logged nothing does not diverge.
        #expect(ReplayDivergence.first(recorded: events, actual: events.filter { $0.notice == nil }) == nil)

        // A transcript's hostile log line is escaped and redacted before the screen shows it.
        var hostile = logged
        hostile.sdkLog = RecordedSDKLog(provider: "antom", name: "x\u{1B}]0;owned\u{7}", parameters: ["apiKey": "sk_live_1", "note": "\u{202E}abc"])
        let shown = try #require(hostile.sdkLogNotice)
        #expect(shown.fields["name"] == "x\\u{1B}]0;owned\\u{7}" && shown.parameters?["apiKey"] == "[redacted]", "\(shown)")
        #expect(shown.parameters?["note"] == "\\u{202E}abc", "\(shown)")
    }

    @Test func loadGivesBackTheEventsAndTheExchanges() throws {
        let record = try Recorded.record()
        let path = Recorded.temporaryPath("roundtrip.har")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Transcript.write(Transcript.document(record: record, exchanges: Recorded.exchanges, title: "t"), to: path)

        let document = try Transcript.load(path)
        let loaded = try #require(document.log.terminalCheckout)
        #expect(loaded.events == record.events)
        #expect(loaded.events.map(\.signature) == Recorded.flow.map { RecordedEvent($0, atMilliseconds: 0).signature })
        #expect(loaded.summary == "result: approved")
        #expect(loaded.finalState == "approved")
        #expect(loaded.finalPhase == "completed")
        #expect(loaded.startedDateTime == Recorded.start)
        #expect(document.log.entries.map(\.exchange) == Recorded.exchanges)

        let scenario = try Transcript.scenario(of: document, path: path, catalog: try Catalog.bundled())
        var expected = Scenario(name: "recorded")
        expected.customer = .decline
        #expect(scenario == expected)
    }

    private func loadError(_ contents: String?) -> (path: String, error: TranscriptError?) {
        let path = Recorded.temporaryPath("bad.har")
        if let contents { _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8)) }
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try Transcript.load(path)
            return (path, nil)
        } catch {
            return (path, error)
        }
    }

    @Test func aMissingFileSaysSoAndWhatToGive() throws {
        let (path, error) = loadError(nil)
        let message = try #require(error).description
        #expect(message.contains(path))
        #expect(message.contains("no such file"))
        #expect(message.contains("--record"))
    }

    @Test func aFileThatIsNotJSONIsNotAHAR() throws {
        let (path, error) = loadError("this is not json\n")
        let message = try #require(error).description
        #expect(message.contains(path))
        #expect(message.contains("is not a HAR"))
        #expect(message.contains("--record"), "says which file to give: \(message)")
    }

    @Test func aJSONFileThatIsNotAHARIsNotAHAR() throws {
        let (path, error) = loadError(#"{"hello": "world"}"#)
        let message = try #require(error).description
        #expect(message.contains(path))
        #expect(message.contains("is not a HAR"))
        #expect(message.contains("log"), "names what is missing: \(message)")
        #expect(message.contains("--record"), "says which file to give: \(message)")
    }

    @Test func aHARFromElsewhereCannotBeReplayed() throws {
        var document = Transcript.document(record: try Recorded.record(), exchanges: Recorded.exchanges, title: "t")
        document.log.terminalCheckout = nil
        let path = Recorded.temporaryPath("browser.har")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Transcript.write(document, to: path)
        do {
            _ = try Transcript.load(path)
            Issue.record("loaded a HAR without _terminalCheckout")
        } catch {
            #expect(error.description.contains(path))
            #expect(error.description.contains("_terminalCheckout"))
            #expect(error.description.contains("checkout --record"))
        }
    }

    @Test func checkWritableRefusesAMissingDirectoryAndADirectory() {
        let missing = Recorded.temporaryPath("no-such-dir") + "/x.har"
        #expect(throws: TranscriptError.self) { try Transcript.checkWritable(missing) }
        do { try Transcript.checkWritable(missing) } catch {
            #expect(error.description.contains("does not exist"))
        }
        do { try Transcript.checkWritable(FileManager.default.temporaryDirectory.path) } catch {
            #expect(error.description.contains("is a directory"))
        }
    }
}

@Suite struct TranscriptReplayDivergenceTests {
    private func events(_ flow: [FlowEvent]) -> [RecordedEvent] {
        flow.enumerated().map { RecordedEvent($1, atMilliseconds: $0 * 100) }
    }

    private static func approvedFlow(_ id: String) -> [FlowEvent] {
        [
            .state(.notStarted), .state(.creatingRequest(Recorded.draft)), .state(.readyToAuthorize(Recorded.attempt(id: id))),
            .state(.redirecting(Recorded.attempt(id: id))), .state(.polling(Recorded.attempt(id: id))),
            .state(.approved(Recorded.approvedAttempt(id: id))),
        ]
    }

    @Test func identicalRunsDoNotDiverge() {
        let recorded = events(Self.approvedFlow("GRR_one"))
        #expect(ReplayDivergence.first(recorded: recorded, actual: recorded) == nil)
    }

    @Test func differentRequestIDsAndTimesDoNotDiverge() {
        let recorded = events(Self.approvedFlow("GRR_one"))
        let actual = Self.approvedFlow("GRR_two").map { RecordedEvent($0, atMilliseconds: 7) }
        #expect(recorded.map(\.line) != actual.map(\.line))
        #expect(ReplayDivergence.first(recorded: recorded, actual: actual) == nil)
    }

    @Test func aDifferentStateIsReportedAtItsStep() throws {
        let recorded = events(Self.approvedFlow("GRR_one"))
        let error = ProviderFailure(kind: .api, category: "API_ERROR", code: "INTERNAL_SERVER_ERROR", detail: "boom")
        let actual = events([.state(.notStarted), .state(.creatingRequest(Recorded.draft)), .state(.apiError(error))])
        let divergence = try #require(ReplayDivergence.first(recorded: recorded, actual: actual))
        #expect(divergence.step == 3)
        #expect(divergence.recorded == "state: readyToAuthorize")
        #expect(divergence.actual == "state: apiError INTERNAL_SERVER_ERROR")
        #expect(divergence.description == "diverged at step 3: recorded `state: readyToAuthorize`, now `state: apiError INTERNAL_SERVER_ERROR`")
    }

    @Test func aShorterRunDivergesWhereItStops() throws {
        let recorded = events(Self.approvedFlow("GRR_one"))
        let actual = Array(recorded.dropLast())
        let divergence = try #require(ReplayDivergence.first(recorded: recorded, actual: actual))
        #expect(divergence.step == 6)
        #expect(divergence.recorded == "state: approved")
        #expect(divergence.actual == nil)
        #expect(divergence.description.contains("now nothing more"))

        let longer = try #require(ReplayDivergence.first(recorded: actual, actual: recorded))
        #expect(longer.step == 6)
        #expect(longer.description.contains("recorded nothing more"))
    }

    @Test func refreshingCyclesAreIgnored() {
        let recorded = events(Self.approvedFlow("GRR_one"))
        let request = Recorded.attempt()
        let withRefresh = events([
            .state(.notStarted), .state(.creatingRequest(Recorded.draft)), .state(.readyToAuthorize(request)),
            .state(.refreshing(request)), .state(.redirecting(request)), .state(.polling(request)),
            .state(.refreshing(request)), .state(.polling(request)), .state(.refreshing(request)), .state(.polling(request)),
            .state(.approved(Recorded.approvedAttempt())),
        ])
        #expect(ReplayDivergence.first(recorded: recorded, actual: withRefresh) == nil)
        #expect(ReplayDivergence.first(recorded: withRefresh, actual: recorded) == nil)
    }

    @Test func phasesAreCompared() throws {
        let recorded = events([.state(.notStarted), .phase(.step("token")), .phase(.step("signing"))])
        let actual = events([.state(.notStarted), .phase(.step("token")), .phase(.settlementFailed(SettlementFailure(declined: true, reason: "signing failed")))])
        let divergence = try #require(ReplayDivergence.first(recorded: recorded, actual: actual))
        #expect(divergence.step == 3)
        #expect(divergence.recorded == "phase: signing")
        #expect(divergence.actual == "phase: settlementFailed")
    }
}

@Suite struct TranscriptRecordedEventTests {
    static let payError = ProviderFailure(kind: .api, category: "API_ERROR", code: "SERVICE_UNAVAILABLE", detail: "down", field: "request", httpStatus: 503)

    static let events: [FlowEvent] = [
        .state(.notStarted),
        .state(.creatingRequest(Recorded.draft)),
        .state(.updatingRequest(Recorded.attempt(), to: PaymentAttempt(provider: "cashapp", amount: Money(minorUnits: 6274, currency: .usd)))),
        .state(.readyToAuthorize(Recorded.attempt())),
        .state(.redirecting(Recorded.attempt())),
        .state(.polling(Recorded.attempt())),
        .state(.refreshing(Recorded.attempt())),
        .state(.declined(Recorded.attempt(status: .DECLINED))),
        .state(.approved(Recorded.approvedAttempt())),
        .state(.apiError(payError)),
        .state(.apiError(ProviderFailure(kind: .api, category: "API_ERROR", code: "INTERNAL_SERVER_ERROR"))),
        .state(.integrationError(ProviderFailure(kind: .integration, category: "AUTHENTICATION_ERROR", code: "UNAUTHORIZED", detail: "no"))),
        .state(.unexpectedError(.authorizationTimeout(seconds: 30))),
        .state(.networkError(.transport(.connectionLost("connection reset")))),
        .state(.networkError(.undecodable(status: 200, detail: "not json"))),
        .state(.networkError(.transport(.connectionFailed("EHOSTUNREACH")))),
        .state(.networkError(.emptyBody(status: 502))),
        .phase(.step("token")),
        .phase(.step("signing")),
        .phase(.step("validating")),
        .phase(.step("capturing")),
        .phase(.completed(SettlementReceipt(paymentID: "pay_1", payer: "$shopper"))),
        .phase(.completed(SettlementReceipt(paymentID: "pay_2"))),
        .phase(.settlementFailed(SettlementFailure(declined: true, reason: "capture DECLINED"))),
    ]

    @Test(arguments: events)
    func aRecordedEventGivesBackItsStateOrPhase(event: FlowEvent) throws {
        let recorded = RecordedEvent(event, atMilliseconds: 1234)
        let data = try CashAppJSON.encoder().encode(recorded)
        let decoded = try CashAppJSON.decoder().decode(RecordedEvent.self, from: data)
        #expect(decoded == recorded)
        #expect(decoded.atMilliseconds == 1234)
        #expect(same(decoded.flowEvent, event), "\(String(describing: decoded.flowEvent)) != \(event)")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["at_ms"] as? Int == 1234)
        #expect((object["line"] as? String)?.isEmpty == false)
        #expect(object["json"] is String)
    }
}

@Suite struct TranscriptFirstCheckoutTests {
    @Test func aReRunIsComparedWithTheFirstCheckoutOfASession() {
        func event(_ state: String) -> RecordedEvent {
            var event = RecordedEvent(.state(.notStarted), atMilliseconds: 0)
            event.state = state
            return event
        }
        let session = ["notStarted", "creatingCustomerRequest", "apiError", "notStarted", "creatingCustomerRequest"].map(event)
        let rerun = ["notStarted", "creatingCustomerRequest", "apiError"].map(event)
        #expect(ReplayDivergence.first(recorded: session, actual: rerun) == nil)
        #expect(ReplayDivergence.firstCheckout(session).count == 3)
    }
}
