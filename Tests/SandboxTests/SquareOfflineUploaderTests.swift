import CheckoutApp
import Foundation
import Hummingbird
import PaymentFlow
import ProviderClients
import ProviderWire
import Synchronization
import Testing

/// A stand-in for Square's CreatePayment on 127.0.0.1, port 0. It keeps every body it gets and
/// answers as `reply` says; like Square, a key it has already taken a payment for gets that
/// same payment back, so a retried upload can never charge twice.
private final class StubSquare: Sendable {
    enum Reply: Sendable {
        /// Take the payment (or give back the one this key already made).
        case take
        /// Take the payment, then answer only after `delay` (longer than the client waits).
        case takeSlowly(Duration)
        /// Refuse the card: 402, PAYMENT_METHOD_ERROR with this code, and the FAILED payment.
        case decline(code: String)
        /// Answer this status with Square's error body in this category.
        case error(status: Int, category: String, code: String)
    }

    /// Every create body received, in order.
    let bodies = Mutex<[Data]>([])
    /// The payments taken, by idempotency key.
    let taken = Mutex<[String: SquarePayment]>([:])

    func start(reply: @escaping @Sendable (SquareCreatePaymentRequest, Int) -> Reply) async throws -> (url: String, stop: @Sendable () async -> Void) {
        let router = Router()
        router.post("v2/payments") { request, _ -> Response in
            let data = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
            let call = self.bodies.withLock { $0.append(data); return $0.count }
            let create = try JSONDecoder().decode(SquareCreatePaymentRequest.self, from: data)
            switch reply(create, call) {
            case .take:
                return Self.json(200, SquarePaymentResponse(payment: self.take(create)))
            case .takeSlowly(let delay):
                let payment = self.take(create)
                try? await Task.sleep(for: delay)
                return Self.json(200, SquarePaymentResponse(payment: payment))
            case .decline(let code):
                var failed = Self.payment(for: create, id: "FAILED_\(call)")
                failed.status = "FAILED"
                let error = SquareError(category: "PAYMENT_METHOD_ERROR", code: code, detail: "Authorization error: '\(code)'")
                return Self.json(402, SquareErrorBody(errors: [error], payment: failed))
            case .error(let status, let category, let code):
                return Self.json(status, SquareErrorBody(errors: [SquareError(category: category, code: code, detail: "stub says \(code)")]))
            }
        }
        return await StubHTTPServer.start(router, label: "stub-square")
    }

    /// The creates received, decoded.
    var creates: [SquareCreatePaymentRequest] {
        get throws { try bodies.withLock { $0 }.map { try JSONDecoder().decode(SquareCreatePaymentRequest.self, from: $0) } }
    }

    private func take(_ create: SquareCreatePaymentRequest) -> SquarePayment {
        taken.withLock { taken in
            if let earlier = taken[create.idempotencyKey] { return earlier }
            let payment = Self.payment(for: create, id: "PAY_\(taken.count + 1)")
            taken[create.idempotencyKey] = payment
            return payment
        }
    }

    private static func payment(for create: SquareCreatePaymentRequest, id: String) -> SquarePayment {
        SquarePayment(
            id: id, status: "COMPLETED", amountMoney: create.amountMoney, tipMoney: create.tipMoney,
            cardDetails: SquareCardDetails(status: "CAPTURED", card: SquareCard(cardBrand: "VISA", last4: "1111"), entryMethod: "CONTACTLESS"),
            locationID: create.locationID, referenceID: create.referenceID,
            isOfflinePayment: create.offlinePaymentDetails != nil, offlinePaymentDetails: create.offlinePaymentDetails)
    }

    private static func json(_ status: Int, _ body: some Encodable) -> Response {
        let data = (try? JSONEncoder().encode(body)) ?? Data("{}".utf8)
        return Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

@Suite struct SquareOfflineUploaderTests {
    /// A queue in a fresh folder, removed by `cleanUp`.
    private func database() -> (store: SquareOfflineDatabase, cleanUp: () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("square-uploader-\(UUID().uuidString)").path
        return (SquareOfflineDatabase(path: folder + "/square-offline.sqlite"), { try? FileManager.default.removeItem(atPath: folder) })
    }

    private func client(_ url: String, timeout: Duration = .seconds(5)) -> SquareClient {
        SquareClient(
            configuration: SquareConfiguration(baseURL: url, accessToken: "EAAAl-stub-token", locationID: "L88917AVBK2S5"),
            http: ProviderHTTPClient(timeout: timeout, retryPolicy: .never))
    }

    /// Queued payment `number`, taken `number` minutes after a fixed moment.
    private func queued(_ number: Int, source: String = "cnon:reader-contactless-ok") -> SquareOfflinePayment {
        SquareOfflinePayment(
            localID: String(format: "offline-%08x", 0xa0 + number), createdAt: Date(timeIntervalSince1970: 1_763_850_000.25 + Double(number) * 60),
            request: SquareCreatePaymentRequest(
                sourceID: source, idempotencyKey: "offline-key-\(number)", amountMoney: SquareMoney(amount: 1000 + number, currency: "USD"),
                autocomplete: true, referenceID: "order-\(number)", locationID: "L88917AVBK2S5"),
            cardBrand: "VISA", last4: "1111", entryMethod: "CONTACTLESS")
    }

    @Test func queuedPaymentsGoUpOnceWithTheirOwnKeyAndWhenTheyWereTaken() async throws {
        let (store, cleanUp) = database()
        defer { cleanUp() }
        let first = queued(1)
        let second = queued(2)
        // Queued newest first: they still go up oldest first.
        try await store.enqueue(second)
        try await store.enqueue(first)
        let stub = StubSquare()
        let (url, stop) = try await stub.start { _, _ in .take }
        let uploader = SquareOfflineUploader(store: store, client: client(url))

        let results = await uploader.uploadQueued()
        let again = await uploader.uploadQueued()
        await stop()

        #expect(results == [
            .init(localID: first.localID, outcome: .uploaded(paymentID: "PAY_1", status: "COMPLETED")),
            .init(localID: second.localID, outcome: .uploaded(paymentID: "PAY_2", status: "COMPLETED")),
        ])
        #expect(again.isEmpty)
        let creates = try stub.creates
        #expect(creates.map(\.idempotencyKey) == ["offline-key-1", "offline-key-2"])
        #expect(creates.map(\.offlinePaymentDetails?.clientCreatedAt) == ["2025-11-22T22:21:00.250Z", "2025-11-22T22:22:00.250Z"])
        // Apart from when it was taken, exactly the body that was queued.
        #expect(creates.map { var create = $0; create.offlinePaymentDetails = nil; return create } == [first.request, second.request])
        #expect(String(decoding: stub.bodies.withLock { $0 }[0], as: UTF8.self).contains("\"offline_payment_details\":{\"client_created_at\""))
        #expect(stub.taken.withLock { $0 }.values.allSatisfy { $0.isOfflinePayment == true })
        #expect(try await store.all().map(\.state) == [
            .uploaded(paymentID: "PAY_1", status: "COMPLETED"), .uploaded(paymentID: "PAY_2", status: "COMPLETED"),
        ])
    }

    @Test func anUploadWhoseAnswerWasLostIsRetriedWithTheSameKeyAndChargesOnce() async throws {
        let (store, cleanUp) = database()
        defer { cleanUp() }
        let payment = queued(1)
        try await store.enqueue(payment)
        let stub = StubSquare()
        // Square takes the first upload but its answer never arrives in time.
        let (url, stop) = try await stub.start { _, call in call == 1 ? .takeSlowly(.seconds(2)) : .take }

        let lost = await SquareOfflineUploader(store: store, client: client(url, timeout: .milliseconds(300))).uploadQueued()
        let queuedAfterLoss = try await store.all().map(\.state)
        let retried = await SquareOfflineUploader(store: store, client: client(url)).uploadQueued()
        await stop()

        guard case .unreachable? = lost.first?.outcome else {
            Issue.record("a lost answer should leave the payment queued: \(lost)")
            return
        }
        #expect(queuedAfterLoss == [.queued])
        #expect(retried == [.init(localID: payment.localID, outcome: .uploaded(paymentID: "PAY_1", status: "COMPLETED"))])
        let creates = try stub.creates
        #expect(creates.count == 2)
        #expect(Set(creates.map(\.idempotencyKey)) == ["offline-key-1"])
        #expect(Set(creates.map(\.offlinePaymentDetails)) == [SquareOfflinePaymentDetails(clientCreatedAt: "2025-11-22T22:21:00.250Z")])
        #expect(stub.taken.withLock { $0.count } == 1)
        #expect(try await store.all().map(\.state) == [.uploaded(paymentID: "PAY_1", status: "COMPLETED")])
    }

    @Test func aDeclinedUploadIsKeptAsDeclinedAndTheRestStillGoUp() async throws {
        let (store, cleanUp) = database()
        defer { cleanUp() }
        let declined = queued(1, source: "cnon:reader-emv-declined")
        try await store.enqueue(declined)
        try await store.enqueue(queued(2))
        let stub = StubSquare()
        let (url, stop) = try await stub.start { create, _ in create.sourceID.hasSuffix("declined") ? .decline(code: "GENERIC_DECLINE") : .take }
        let uploader = SquareOfflineUploader(store: store, client: client(url))

        let results = await uploader.uploadQueued()
        let again = await uploader.uploadQueued()
        await stop()

        #expect(results == [
            .init(localID: declined.localID, outcome: .declined(code: "GENERIC_DECLINE", detail: "Authorization error: 'GENERIC_DECLINE'")),
            .init(localID: queued(2).localID, outcome: .uploaded(paymentID: "PAY_1", status: "COMPLETED")),
        ])
        #expect(again.isEmpty)
        #expect(stub.bodies.withLock { $0.count } == 2)
        let kept = try await SquareOfflineDatabase(path: store.path).all()
        #expect(kept.map(\.localID) == [declined.localID, queued(2).localID])
        #expect(kept.first?.state == .declined(code: "GENERIC_DECLINE", detail: "Authorization error: 'GENERIC_DECLINE'"))
        #expect(kept.first?.request == declined.request)
    }

    @Test func whileSquareCannotBeReachedEverythingStaysQueuedUntilItAnswers() async throws {
        let (store, cleanUp) = database()
        defer { cleanUp() }
        for number in 1...3 { try await store.enqueue(queued(number)) }

        // Nothing listens on port 1.
        let offline = await SquareOfflineUploader(store: store, client: client("http://127.0.0.1:1")).uploadQueued()
        #expect(offline.map(\.localID) == (1...3).map { queued($0).localID })
        guard case .unreachable(let reason)? = offline.first?.outcome else {
            Issue.record("expected the first to find Square unreachable: \(offline)")
            return
        }
        #expect(reason.contains("could not connect"), "\(reason)")
        #expect(offline.dropFirst().map(\.outcome) == [.skipped, .skipped])
        #expect(offline.allSatisfy { $0.isStillQueued })
        #expect(try await store.all().map(\.state) == [.queued, .queued, .queued])

        let stub = StubSquare()
        let (url, stop) = try await stub.start { _, _ in .take }
        let online = await SquareOfflineUploader(store: store, client: client(url)).uploadQueued()
        await stop()
        #expect(online.map(\.outcome) == (1...3).map { .uploaded(paymentID: "PAY_\($0)", status: "COMPLETED") })
        #expect(try stub.creates.map(\.idempotencyKey) == ["offline-key-1", "offline-key-2", "offline-key-3"])
    }

    @Test(arguments: [
        (500, "API_ERROR", "INTERNAL_SERVER_ERROR"), (503, "API_ERROR", "SERVICE_UNAVAILABLE"),
        (429, "RATE_LIMIT_ERROR", "RATE_LIMITED"), (401, "AUTHENTICATION_ERROR", "UNAUTHORIZED"),
    ])
    func squaresOutagesLimitsAndARejectedTokenLeaveThePaymentsQueued(status: Int, category: String, code: String) async throws {
        let (store, cleanUp) = database()
        defer { cleanUp() }
        for number in 1...2 { try await store.enqueue(queued(number)) }
        let stub = StubSquare()
        let (url, stop) = try await stub.start { _, _ in .error(status: status, category: category, code: code) }
        let results = await SquareOfflineUploader(store: store, client: client(url)).uploadQueued()
        await stop()
        guard case .unreachable(let reason)? = results.first?.outcome else {
            Issue.record("HTTP \(status) should leave it queued: \(results)")
            return
        }
        #expect(reason.contains(code), "\(reason)")
        #expect(results.last?.outcome == .skipped)
        // The pass stops at the first: Square is not taking payments now.
        #expect(stub.bodies.withLock { $0.count } == 1)
        #expect(try await store.all().map(\.state) == [.queued, .queued])
    }

    @Test func squareJudgingThePaymentIsADeclineAndAnythingElseIsNot() {
        func api(_ status: Int, _ category: String, _ code: String) -> SquareFailure {
            .api(status: status, body: SquareErrorBody(errors: [SquareError(category: category, code: code, detail: "d")]))
        }
        #expect(SquareOfflineUploader.verdict(api(402, "PAYMENT_METHOD_ERROR", "CVV_FAILURE")) == .declined(code: "CVV_FAILURE", detail: "d"))
        #expect(SquareOfflineUploader.verdict(api(400, "INVALID_REQUEST_ERROR", "VALUE_TOO_LOW")) == .declined(code: "VALUE_TOO_LOW", detail: "d"))
        #expect(SquareOfflineUploader.verdict(.api(status: 400, body: SquareErrorBody(errors: []))) != .declined(code: "", detail: ""))
        for failure in [
            api(500, "API_ERROR", "INTERNAL_SERVER_ERROR"), api(429, "RATE_LIMIT_ERROR", "RATE_LIMITED"),
            api(401, "AUTHENTICATION_ERROR", "UNAUTHORIZED"), .undecodable(status: 404, detail: "<html>"),
            .transport(.connectionFailed("refused")), .transport(.timedOut(after: .seconds(5))),
        ] {
            guard case .unreachable = SquareOfflineUploader.verdict(failure) else {
                Issue.record("\(failure) is not Square judging the payment")
                continue
            }
        }
    }

    @Test func anUnreadableQueueSaysSoAndUploadsNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("square-uploader-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/square-offline.sqlite"
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: path))
        let results = await SquareOfflineUploader(store: SquareOfflineDatabase(path: path), client: client("http://127.0.0.1:1")).uploadQueued()
        guard results.count == 1, case .queueUnreadable(let reason) = results[0].outcome else {
            Issue.record("expected one queueUnreadable: \(results)")
            return
        }
        #expect(reason.contains(path), "\(reason)")
    }
}
