import Foundation
import Hummingbird
import NIOCore
import ProviderWire

/// Building the sandbox's HTTP answers.
enum SandboxResponse {
    static func json<Value: Encodable>(_ value: Value, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? WireJSON.encoder().encode(value)) ?? Data("{}".utf8)
        var headers: HTTPFields = [.contentType: "application/json"]
        // A body too large was left unread: closing beats draining it.
        if status == .contentTooLarge { headers[.connection] = "close" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func image(_ data: Data, contentType: String) -> Response {
        Response(status: .ok, headers: [.contentType: contentType], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}

extension Request {
    /// Scheme and host the client used to reach us, so links we hand out work for it.
    var baseURL: String {
        let host = head.authority ?? "127.0.0.1"
        return "http://\(host)"
    }

    /// A form post or a page load: a person at a browser, answered with a page (or sent back to
    /// one) where an API client gets JSON.
    var isFromBrowser: Bool {
        (headers.value(.contentType) ?? "").contains("form") || (headers.value(.accept) ?? "").contains("text/html")
    }

    /// The whole body, or `BodyTooLarge` past `limit` bytes (a Content-Length over it is refused
    /// before anything is read).
    func readBody(limit: Int) async throws -> Data {
        if let declared = headers.value(.contentLength).flatMap({ Int($0) }), declared > limit { throw BodyTooLarge(limit: limit) }
        do { return Data(try await body.collect(upTo: limit).readableBytesView) } catch is NIOTooManyBytesError {
            throw BodyTooLarge(limit: limit)
        }
    }
}

/// A request body over the sandbox's limit: answered 413 in the provider's shape.
struct BodyTooLarge: Error, CustomStringConvertible {
    let limit: Int
    var description: String { "the request body is over \(limit) bytes, the most this sandbox reads (--max-body-bytes)" }
}
