import Foundation
import ProviderWire
import Testing
import _CryptoExtras

/// Antom's RSA-SHA256 signatures: what is signed, the header, the URL-encoding, and keys as
/// PEM or bare base64.
@Suite struct AntomSignatureTests {
    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let body = Data(#"{"paymentRequestId":"tc-1","paymentAmount":{"currency":"THB","value":"150000"}}"#.utf8)
    static let content = AntomSignature.content(
        method: "POST", path: "/ams/api/v1/payments/createPaymentSession", clientID: "SANDBOX_5YBZ", time: "2026-11-22T10:00:00Z", body: body)

    @Test func theSignedContentIsMethodPathClientTimeAndTheRawBody() {
        #expect(String(decoding: Self.content, as: UTF8.self)
            == "POST /ams/api/v1/payments/createPaymentSession\nSANDBOX_5YBZ.2026-11-22T10:00:00Z." + String(decoding: Self.body, as: UTF8.self))
    }

    @Test func aSignatureVerifiesAndATamperedBodyOrAnotherKeyDoesNot() throws {
        let signature = try AntomSignature.sign(Self.content, with: Self.key)
        #expect(!signature.contains("+") && !signature.contains("/") && !signature.contains("="), "URL-encoded: \(signature)")
        #expect(AntomSignature.verify(signature, of: Self.content, with: Self.key.publicKey))
        var tampered = Self.content
        tampered[tampered.count - 3] ^= 0x01
        #expect(!AntomSignature.verify(signature, of: tampered, with: Self.key.publicKey))
        let other = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        #expect(!AntomSignature.verify(signature, of: Self.content, with: other.publicKey))
        #expect(!AntomSignature.verify("not%20base64!", of: Self.content, with: Self.key.publicKey))
    }

    @Test func aKeyReadiedAheadSignsTheSameAsBefore() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        AntomSignature.prepareForSigning(key)
        AntomSignature.prepareForSigning(key)
        let signature = try AntomSignature.sign(Self.content, with: key)
        #expect(AntomSignature.verify(signature, of: Self.content, with: key.publicKey))
        // PKCS #1 v1.5 is deterministic: readying the key changes nothing it signs.
        #expect(try AntomSignature.sign(Self.content, with: key) == signature)
    }

    @Test func theHeaderCarriesTheAlgorithmKeyVersionAndSignature() throws {
        let signature = try AntomSignature.sign(Self.content, with: Self.key)
        let header = AntomSignature.header(signature: signature)
        #expect(header == "algorithm=RSA256,keyVersion=1,signature=\(signature)")
        #expect(AntomSignature.signatureValue(ofHeader: header) == signature)
        #expect(AntomSignature.signatureValue(ofHeader: "algorithm=HS256,keyVersion=1,signature=abc") == nil)
        #expect(AntomSignature.signatureValue(ofHeader: "keyVersion=1") == nil)
    }

    @Test func keysReadAsPEMOrBareBase64() throws {
        let pem = Self.key.pemRepresentation
        let bare = Self.key.derRepresentation.base64EncodedString()
        #expect(try AntomSignature.privateKey(pem).derRepresentation == Self.key.derRepresentation)
        #expect(try AntomSignature.privateKey("\n" + bare + "\n").derRepresentation == Self.key.derRepresentation)
        let publicBare = Self.key.publicKey.derRepresentation.base64EncodedString()
        #expect(try AntomSignature.publicKey(publicBare).derRepresentation == Self.key.publicKey.derRepresentation)
        #expect(try AntomSignature.publicKey(Self.key.publicKey.pemRepresentation).derRepresentation == Self.key.publicKey.derRepresentation)
        #expect(throws: AntomKeyError.self) { try AntomSignature.privateKey("not a key at all!") }
        #expect(throws: AntomKeyError.self) { try AntomSignature.publicKey(Data("short".utf8).base64EncodedString()) }
    }
}
