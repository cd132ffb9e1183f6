import Foundation
import NIOHTTP1
import ProviderClients

extension HAR.Entry {
    /// An exchange of the HTTP log as a HAR entry. Exchanges are redacted when recorded, so
    /// no secret reaches the file; a failed attempt has status 0 and `_error`, as Chrome writes.
    init(_ exchange: HTTPExchange, pageref: String) {
        let requestType = Self.header("Content-Type", in: exchange.requestHeaders) ?? "application/json"
        let responseType = Self.header("Content-Type", in: exchange.responseHeaders) ?? "application/json"
        let requestBytes = exchange.requestBody?.utf8.count ?? 0
        let responseBytes = exchange.responseBody?.utf8.count ?? 0
        self.init(
            pageref: pageref, startedDateTime: exchange.startedAt, time: exchange.durationMilliseconds,
            request: HAR.Request(
                method: exchange.method, url: exchange.url, headers: exchange.requestHeaders.map(HAR.NameValue.init),
                queryString: Self.query(of: exchange.url),
                postData: exchange.requestBody.map { HAR.PostData(mimeType: requestType, text: $0) }, bodySize: requestBytes),
            response: HAR.Response(
                status: exchange.status ?? 0,
                statusText: exchange.status.map { HTTPResponseStatus(statusCode: $0).reasonPhrase } ?? "",
                headers: exchange.responseHeaders.map(HAR.NameValue.init),
                content: HAR.Content(size: responseBytes, mimeType: responseType, text: exchange.responseBody),
                bodySize: exchange.status == nil ? -1 : responseBytes),
            timings: HAR.Timings(send: 0, wait: exchange.durationMilliseconds, receive: 0),
            exchangeID: exchange.id, provider: exchange.provider, attempt: exchange.attempt, error: exchange.failure)
    }

    /// The exchange back, for replaying the HTTP log pane.
    var exchange: HTTPExchange {
        HTTPExchange(
            id: exchangeID ?? 0, provider: provider ?? "http", attempt: attempt ?? 1, method: request.method, url: request.url,
            requestHeaders: request.headers.map { .init(name: $0.name, value: $0.value) }, requestBody: request.postData?.text,
            status: response.status == 0 ? nil : response.status,
            responseHeaders: response.headers.map { .init(name: $0.name, value: $0.value) }, responseBody: response.content.text,
            startedAt: startedDateTime, durationMilliseconds: time, failure: error)
    }

    private static func header(_ name: String, in headers: [HTTPExchange.Header]) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    private static func query(of url: String) -> [HAR.NameValue] {
        (URLComponents(string: url)?.queryItems ?? []).map { HAR.NameValue(name: $0.name, value: $0.value ?? "") }
    }
}

extension HAR.NameValue {
    init(_ header: HTTPExchange.Header) { self.init(name: header.name, value: header.value) }
}
