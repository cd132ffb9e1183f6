import Foundation
import Hummingbird
import NIOCore
import Synchronization
import ProviderWire
import _CryptoExtras

/// An Antom-level failure: a `result` that is not `S`, answered HTTP 200 (Antom answers every
/// result with 200) unless `status` says otherwise (a body too large).
struct AntomRejection: Error {
    let result: AntomResult
    var status: HTTPResponse.Status = .ok

    init(_ code: String, _ message: String, resultStatus: String = "F", status: HTTPResponse.Status = .ok) {
        result = AntomResult(resultCode: code, resultStatus: resultStatus, resultMessage: message)
        self.status = status
    }

    /// PARAM_ILLEGAL, the message naming the field and what it allows.
    static func illegal(_ message: String) -> AntomRejection { AntomRejection("PARAM_ILLEGAL", message) }

    static func accessDenied(_ message: String) -> AntomRejection { AntomRejection("ACCESS_DENIED", message) }

    static func invalidSignature(_ message: String) -> AntomRejection { AntomRejection("INVALID_SIGNATURE", message) }

    static let orderNotExist = AntomRejection("ORDER_NOT_EXIST", "The order does not exist.")
}

/// Antom's JSON and its signed answers.
enum AntomJSON {
    static let contentType = "application/json; charset=UTF-8"
    static let clientIDHeader = HTTPFields.Element.Name("client-id")!
    static let requestTimeHeader = HTTPFields.Element.Name("request-time")!
    static let responseTimeHeader = HTTPFields.Element.Name("response-time")!
    static let signatureHeader = HTTPFields.Element.Name("signature")!

    static func data<Value: Encodable>(_ value: Value) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data(#"{"result":{"resultCode":"UNKNOWN_EXCEPTION","resultStatus":"U"}}"#.utf8)
    }

    /// An unsigned JSON answer (the sandbox's own routes, faults, the cashier).
    static func response<Value: Encodable>(_ value: Value, status: HTTPResponse.Status = .ok) -> Response {
        var headers: HTTPFields = [.contentType: contentType]
        // A body too large was left unread: closing beats draining it.
        if status == .contentTooLarge { headers[.connection] = "close" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data(value))))
    }

    /// `{"result": …}` alone, unsigned, with `status`.
    static func result(_ result: AntomResult, status: HTTPResponse.Status) -> Response {
        response(AntomResultOnly(result: result), status: status)
    }
}

/// Signs API answers as Antom does: lowercase `client-id` (the request's), `response-time` and
/// `signature` over `"POST <request path>\n<client-id>.<response-time>.<body>"` with the sandbox's
/// private key — the headers the official SDK reads, by exact lowercase name.
struct AntomSigner: Sendable {
    /// Read when it first signs: parsing an RSA key is 2 million instructions, at every
    /// sandbox's start, whichever provider its clients then use.
    let key: @Sendable () -> _RSA.Signing.PrivateKey
    let now: SandboxClock

    /// The sandbox's own key pair (`AntomSandboxCredentials`): what clients verify with.
    static let sandboxKey: _RSA.Signing.PrivateKey = {
        do { return try AntomSignature.privateKey(AntomSandboxCredentials.sandboxPrivateKey) } catch {
            preconditionFailure("the embedded Antom sandbox key does not parse: \(error)")
        }
    }()

    /// A key that is not the sandbox's: what magic 8002's notifications are signed with.
    static let wrongKey: _RSA.Signing.PrivateKey = {
        do { return try AntomSignature.privateKey(AntomSandboxCredentials.impostorPrivateKey) } catch {
            preconditionFailure("the embedded impostor key does not parse: \(error)")
        }
    }()

    /// Starts reading the key on another core, once per process, as a request comes in: its
    /// answer is signed a millisecond later, and reading the key only then added half as much.
    func readKeyAhead() {
        guard Self.keyReadAhead.withLock({ started in defer { started = true }; return !started }) else { return }
        let key = self.key
        Task.detached { AntomSignature.prepareForSigning(key()) }
    }

    private static let keyReadAhead = Mutex(false)

    /// The `signature` header value for `body` sent as `clientID` at `time` on `path`.
    func signatureHeader(path: String, clientID: String, time: String, body: Data, key: _RSA.Signing.PrivateKey? = nil) -> String? {
        let content = AntomSignature.content(method: "POST", path: path, clientID: clientID, time: time, body: body)
        guard let signature = try? AntomSignature.sign(content, with: key ?? self.key()) else { return nil }
        return AntomSignature.header(signature: signature)
    }

    /// `value` as an API answer: signed when the client is known by a sane id (an answer to a
    /// request without one goes unsigned, which the SDK accepts only for F and U results).
    func response<Value: Encodable>(_ value: Value, path: String, clientID: String?, status: HTTPResponse.Status = .ok) -> Response {
        let body = AntomJSON.data(value)
        var headers: HTTPFields = [.contentType: AntomJSON.contentType]
        if status == .contentTooLarge { headers[.connection] = "close" }
        if let clientID, AntomClients.isValidID(clientID) {
            let time = AntomTime.string(now())
            if let signature = signatureHeader(path: path, clientID: clientID, time: time, body: body) {
                headers[AntomJSON.clientIDHeader] = clientID
                headers[AntomJSON.responseTimeHeader] = time
                headers[AntomJSON.signatureHeader] = signature
            }
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
