import CheckoutModel
import Crypto
import Foundation
import _CryptoExtras

/// Antom's request, response and notification signatures: RSA-SHA256 (PKCS #1 v1.5) over
/// `"<METHOD> <path>\n<client-id>.<request-time>.<body>"`, base64 then URL-encoded as Python's
/// `quote_plus` does (the official SDK's `signature_tool`), carried as
/// `Signature: algorithm=RSA256,keyVersion=1,signature=<value>`. The time is an opaque string
/// to the verifier: the SDK sends ISO 8601 seconds, the docs show epoch milliseconds.
public enum AntomSignature {
    /// What is signed. `body` is the raw bytes as sent; a verifier must not re-encode them.
    public static func content(method: String, path: String, clientID: String, time: String, body: Data) -> Data {
        Data("\(method) \(path)\n\(clientID).\(time).".utf8) + body
    }

    /// The URL-encoded base64 signature of `content`.
    public static func sign(_ content: Data, with key: _RSA.Signing.PrivateKey) throws -> String {
        let signature = try key.signature(for: content, padding: .insecurePKCS1v1_5)
        return quotePlus(signature.rawRepresentation.base64EncodedString())
    }

    /// Readies `key` for signing, ahead of the first signature and off its path: BoringSSL builds
    /// a key's Montgomery tables and blinding on its first private-key operation, about half a
    /// signature's time again, so it makes one here (over nothing, the result dropped).
    public static func prepareForSigning(_ key: _RSA.Signing.PrivateKey) {
        _ = try? key.signature(for: Data(), padding: .insecurePKCS1v1_5)
    }

    /// Whether `signature` (URL-encoded base64, as sent) signs `content` under `key`.
    public static func verify(_ signature: String, of content: Data, with key: _RSA.Signing.PublicKey) -> Bool {
        guard let raw = Data(base64Encoded: unquotePlus(signature)) else { return false }
        return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: raw), for: content, padding: .insecurePKCS1v1_5)
    }

    /// `algorithm=RSA256,keyVersion=1,signature=<value>`.
    public static func header(signature: String, keyVersion: Int = 1) -> String {
        "algorithm=RSA256,keyVersion=\(keyVersion),signature=\(signature)"
    }

    /// The signature value of a `Signature` header; nil when it is not an RSA256 one.
    public static func signatureValue(ofHeader header: String) -> String? {
        var fields: [String: String] = [:]
        for part in header.split(separator: ",", omittingEmptySubsequences: true) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            fields[pair[0].trimmedOfWhitespace] = String(pair[1]).trimmedOfWhitespace
        }
        guard fields["algorithm"] == "RSA256", let value = fields["signature"], !value.isEmpty else { return nil }
        return value
    }

    // MARK: Keys: PEM (PKCS #1 or PKCS #8) or bare base64 DER, as Antom's portal gives them

    public static func privateKey(_ text: String) throws(AntomKeyError) -> _RSA.Signing.PrivateKey {
        let trimmed = text.trimmedOfWhitespaceAndNewlines
        do {
            if trimmed.hasPrefix("-----BEGIN") { return try _RSA.Signing.PrivateKey(pemRepresentation: trimmed) }
            guard let der = Data(base64Encoded: trimmed, options: .ignoreUnknownCharacters) else { throw AntomKeyError.notBase64(kind: "private") }
            return try _RSA.Signing.PrivateKey(derRepresentation: der)
        } catch let error as AntomKeyError {
            throw error
        } catch {
            throw .unreadable(kind: "private", detail: "\(error)")
        }
    }

    public static func publicKey(_ text: String) throws(AntomKeyError) -> _RSA.Signing.PublicKey {
        let trimmed = text.trimmedOfWhitespaceAndNewlines
        do {
            if trimmed.hasPrefix("-----BEGIN") { return try _RSA.Signing.PublicKey(pemRepresentation: trimmed) }
            guard let der = Data(base64Encoded: trimmed, options: .ignoreUnknownCharacters) else { throw AntomKeyError.notBase64(kind: "public") }
            return try _RSA.Signing.PublicKey(derRepresentation: der)
        } catch let error as AntomKeyError {
            throw error
        } catch {
            throw .unreadable(kind: "public", detail: "\(error)")
        }
    }

    // MARK: Python's quote_plus / unquote_plus for base64 text

    /// Letters, digits and `_.-~` stay; a space becomes `+`; every other byte `%XX`.
    static func quotePlus(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }

    static func unquotePlus(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A key that could not be read, worded for the user.
public enum AntomKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    case notBase64(kind: String)
    case unreadable(kind: String, detail: String)

    public var description: String {
        switch self {
        case .notBase64(let kind): "the Antom \(kind) key is neither PEM nor base64"
        case .unreadable(let kind, let detail): "the Antom \(kind) key is not an RSA key of at least 2048 bits (\(detail))"
        }
    }
}
