import Foundation
import ProviderWire
import Testing
import TestSupport
import _CryptoExtras

/// Our signatures against Antom's official Python SDK (global-open-sdk-python 1.7.1, its
/// `signature_tool`, unchanged): PKCS #1 v1.5 is deterministic, so both sign the same content
/// to the same string, and each verifies the other's.
@Suite struct AntomSignatureSDKTests {
    @Test func theOfficialSDKSignsAsWeDoAndVerifiesOurs() async throws {
        let python = ConformanceScript.root.appendingPathComponent(".build/python/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("The Python venv is missing (\(python)): run `make test` (or .ci/ensure-packages.sh --with-python).")
            return
        }
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let body = #"{"paymentRequestId":"tc-1","paymentAmount":{"currency":"THB","value":"150000"}}"#
        let (method, path, client, time) = ("POST", "/ams/api/v1/payments/inquiryPayment", "SANDBOX_5YBZ", "2026-11-22T10:00:00Z")
        let ours = try AntomSignature.sign(AntomSignature.content(method: method, path: path, clientID: client, time: time, body: Data(body.utf8)), with: key)
        // The SDK takes keys as bare base64 (PKCS #8 private, SubjectPublicKeyInfo public) and adds the PEM markers itself.
        let script = """
            import sys
            from com.alipay.ams.api.tools import signature_tool
            method, path, client, time, body, private, public, ours = sys.argv[1:]
            print(signature_tool.sign(method, path, client, time, body, private))
            print(signature_tool.verify(method, path, client, time, body, ours, public))
            try:  # the SDK raises on a signature that does not verify
                print(signature_tool.verify(method, path, client, time, body + " ", ours, public))
            except Exception:
                print(False)
            """
        let child = try ChildProcess([
            python, "-c", script, method, path, client, time, body, key.derRepresentation.base64EncodedString(),
            key.publicKey.derRepresentation.base64EncodedString(), ours,
        ])
        let status = await child.exit(timeout: 60)
        let lines = child.stdout.split(separator: "\n").map(String.init)
        #expect(status == 0, "\(child.stdout)\(child.stderr)")
        #expect(lines.count == 3, "\(child.stdout)\(child.stderr)")
        guard lines.count == 3 else { return }
        #expect(lines[0] == ours, "the SDK's signature differs from ours")
        #expect(lines[1] == "True", "the SDK does not verify our signature")
        #expect(lines[2] == "False", "the SDK verified a tampered body")
        let content = AntomSignature.content(method: method, path: path, clientID: client, time: time, body: Data(body.utf8))
        #expect(AntomSignature.verify(lines[0], of: content, with: key.publicKey))
    }
}
