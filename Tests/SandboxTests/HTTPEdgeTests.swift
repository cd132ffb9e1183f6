import Foundation
import ProviderClients
import ProviderWire
@testable import Sandbox
import Testing
import TestSupport

/// HTTP's edges over a raw socket: wrong methods, oversized bodies, CONNECT, HTTP/1.0 and
/// `Connection: close` are each answered with a length and in the provider's shape, and the
/// connection is closed when the client did not ask to keep it.
@Suite struct HTTPEdgeTests {
    private func exchange(_ harness: SandboxHarness, _ request: String) async throws -> (RawResponse?, RawConnection) {
        let connection = try RawConnection(port: harness.sandbox.port)
        connection.send(request)
        return (await connection.readResponse(), connection)
    }

    /// Browsers ask every origin for /favicon.ico: an empty answer, not a 404 in the pages' consoles.
    @Test func faviconIsNoContent() async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.raw(method: "GET", path: "/favicon.ico", body: nil, authorization: nil)
            #expect(response.status == 204)
            #expect(response.body.isEmpty)
        }
    }

    @Test(arguments: [
        ("DELETE", "/customer-request/v1/requests/GRR_1", "GET, PATCH"),
        ("GET", "/customer-request/v1/requests", "POST"),
        ("PUT", "/customer-request/v1/requests/GRR_1", "GET, PATCH"),
    ])
    func aWrongMethodOnACashAppPathIs405InCashAppsShape(method: String, path: String, allow: String) async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.raw(method: method, path: path, body: nil)
            #expect(response.status == 405)
            #expect(response.headers.first { $0.name.lowercased() == "allow" }?.value == allow)
            let error = try #require(try CashAppJSON.decoder().decode(CashAppErrorBody.self, from: response.body).errors.first)
            #expect(error.category == "INVALID_REQUEST_ERROR")
            #expect(error.code == "METHOD_NOT_ALLOWED")
            #expect(error.detail?.contains(method) == true)
        }
    }

    @Test func aWrongMethodOnAnAfterpayPathIs405InAfterpaysShape() async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.afterpay("GET", "/v2/checkouts", json: nil)
            #expect(response.status == 405)
            #expect(response.headers.first { $0.name.lowercased() == "allow" }?.value == "POST")
            let error = try JSONDecoder().decode(AfterpayError.self, from: response.body)
            #expect(error.errorCode == "method_not_allowed")
            #expect(error.httpStatusCode == 405)
        }
    }

    /// Every answer, an error's too, says when and who in the headers HTTP asks for.
    @Test func answersCarryADateAndTheServersName() async throws {
        try await SandboxHarness.with { harness in
            let before = Date().timeIntervalSince1970.rounded(.down)
            let response = try await harness.raw(method: "GET", path: "/nowhere", body: nil)
            let after = Date().timeIntervalSince1970.rounded(.down)
            let date = try #require(response.headers.first { $0.name.lowercased() == "date" }?.value)
            #expect([before, after].map { HTTPDateHeader.text(secondsSince1970: Int64($0)) }.contains(date), "\(date)")
            #expect(response.headers.first { $0.name.lowercased() == "server" }?.value == "TerminalCheckout-Sandbox")
        }
    }

    @Test func anUnknownPathIsStill404() async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.raw(method: "GET", path: "/nowhere", body: nil)
            #expect(response.status == 404)
        }
    }

    @Test func aBodyOverTheLimitIs413InEachProvidersShape() async throws {
        var limits = SandboxLimits()
        limits.maxBodyBytes = 2_048
        try await SandboxHarness.with(limits: limits) { harness in
            let big = #"{"pad": ""# + String(repeating: "x", count: 4_000) + #""}"#
            let cashApp = try await harness.raw(method: "POST", path: "/customer-request/v1/requests", body: big)
            #expect(cashApp.status == 413)
            let error = try #require(try CashAppJSON.decoder().decode(CashAppErrorBody.self, from: cashApp.body).errors.first)
            #expect(error.code == "VALUE_TOO_LONG")
            #expect(error.detail?.contains("2048 bytes") == true)
            #expect(error.detail?.contains("NIO") == false)
            let afterpay = try await harness.afterpay("POST", "/v2/checkouts", json: big)
            #expect(afterpay.status == 413)
            let afterpayError = try JSONDecoder().decode(AfterpayError.self, from: afterpay.body)
            #expect(afterpayError.errorCode == "payload_too_large")
            #expect(afterpayError.message.contains("2048 bytes"))
        }
    }

    @Test func aChunkedBodyOverTheLimitIs413AndClosed() async throws {
        var limits = SandboxLimits()
        limits.maxBodyBytes = 1_024
        try await SandboxHarness.with(limits: limits) { harness in
            let chunk = String(repeating: "x", count: 1_500)
            let (response, connection) = try await exchange(harness, """
                POST /customer-request/v1/requests HTTP/1.1\r\nHost: x\r\nAuthorization: Client \(SandboxHarness.clientID)\r\n\
                Transfer-Encoding: chunked\r\n\r\n\(String(chunk.utf8.count, radix: 16))\r\n\(chunk)\r\n
                """)
            #expect(response?.status == 413)
            #expect(response?.header("connection") == "close")
            #expect(await connection.waitForClose(timeout: 30))
        }
    }

    @Test func connectGets405WithALengthAndIsClosed() async throws {
        try await SandboxHarness.with { harness in
            let (response, connection) = try await exchange(harness, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
            let answer = try #require(response)
            #expect(answer.status == 405)
            #expect(Int(answer.header("content-length") ?? "") == answer.body.utf8.count)
            #expect(answer.body.contains("METHOD_NOT_ALLOWED"))
            #expect(answer.header("connection") == "close")
            #expect(await connection.waitForClose(timeout: 30))
        }
    }

    @Test func http10WithoutKeepAliveIsAnsweredThenClosed() async throws {
        try await SandboxHarness.with { harness in
            let (response, connection) = try await exchange(harness, "GET /sandbox/health HTTP/1.0\r\n\r\n")
            #expect(response?.status == 200)
            #expect(response?.header("connection") == "close")
            #expect(response?.header("content-length") != nil)
            #expect(await connection.waitForClose(timeout: 30))
        }
    }

    @Test(arguments: ["GET /sandbox/health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", "GET /sandbox/health HTTP/1.1\r\nHost: x\r\n\r\n"])
    func aConnectionAskedToBeKeptServesASecondRequest(first: String) async throws {
        try await SandboxHarness.with { harness in
            let (response, connection) = try await exchange(harness, first)
            #expect(response?.status == 200)
            #expect(!connection.closedByPeer)
            connection.send("GET /sandbox/health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await connection.read(timeout: 10) { $0.components(separatedBy: "HTTP/1.1 200").count == 3 })
        }
    }

    @Test func connectionCloseInAnySpellingIsHonoured() async throws {
        try await SandboxHarness.with { harness in
            let (response, connection) = try await exchange(harness, "GET /sandbox/health HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n")
            #expect(response?.status == 200)
            #expect(response?.header("connection") == "close")
            #expect(await connection.waitForClose(timeout: 30))
        }
    }
}
