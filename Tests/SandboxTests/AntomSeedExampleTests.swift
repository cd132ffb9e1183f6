import Foundation
import ProviderWire
import Testing
import TestSupport

/// The Antom seed's own createPaymentSession examples (Tests/Conformance/seed-examples/antom.json,
/// each naming the seed's section it comes from) sent as published — the document's bank display
/// name, its key spellings, its string-encoded paymentMethodMetaData — signed with the sandbox's
/// test client over a real socket: each is a signed success whose cashier offers the banks of
/// the display mode the example means.
@Suite struct AntomSeedExampleTests {
    struct Example: Decodable, Sendable, CustomStringConvertible {
        let section: String
        let operation: String
        let expectMode: String
        let body: JSONValue

        enum CodingKeys: String, CodingKey { case section, operation, expectMode = "expect_mode", body }
        var description: String { section }
    }

    struct Fixture: Decodable {
        let seed: String
        let examples: [Example]
    }

    static let fixturePath = ConformanceScript.root.appendingPathComponent("Tests/Conformance/seed-examples/antom.json")

    static let examples: [Example] = {
        guard let data = try? Data(contentsOf: fixturePath), let fixture = try? JSONDecoder().decode(Fixture.self, from: data) else { return [] }
        return fixture.examples
    }()

    @Test func theFixtureHoldsEveryExampleOfTheSeed() {
        // The seed prints three request bodies, one per display mode (Step 4).
        #expect(Self.examples.count == 3, "read \(Self.examples.count) examples from \(Self.fixturePath.path)")
        #expect(Set(Self.examples.map(\.operation)) == ["createPaymentSession"])
    }

    /// Each example alone in a fresh sandbox: the three reuse one paymentRequestId with different
    /// bodies, which Antom (and the sandbox) answers REPEAT_REQ_INCONSISTENT within one merchant.
    @Test(arguments: AntomSeedExampleTests.examples)
    func theSeedsExampleIsASignedSuccess(_ example: Example) async throws {
        let body = try JSONEncoder().encode(example.body)
        let mode = try AntomDisplayMode(spelling: example.expectMode)
        try await AntomTestSandbox.with { sandbox in
            let response = try await sandbox.api(AntomTestSandbox.createPath, body)
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == 200, "\(example.section): createPaymentSession answered HTTP \(response.status): \(text)")
            #expect(AntomTestSandbox.isVerified(response, path: AntomTestSandbox.createPath), "\(example.section): the answer's signature")
            let answer = try AntomTestSandbox.object(response)
            let result = AntomTestSandbox.result(answer)
            #expect(result["resultStatus"] as? String == "S", "\(example.section): result.resultStatus in \(text)")
            #expect(result["resultCode"] as? String == "SUCCESS", "\(example.section): result.resultCode in \(text)")
            let id = try #require(answer["paymentSessionId"] as? String, "\(example.section): paymentSessionId in \(text)")
            #expect(answer["paymentSessionData"] as? String != nil, "\(example.section): paymentSessionData in \(text)")

            // The cashier the component loads offers the banks of the mode the example means.
            let cashier = try AntomTestSandbox.object(try await sandbox.control("GET", "/sandbox/antom/cashier/\(id)"))
            let offered = (cashier["banks"] as? [[String: Any]] ?? []).compactMap { $0["bankName"] as? String }
            let expected = AntomBankCatalogue.banks(for: mode, currency: "THB", client: .app).map(\.bankName)
            #expect(!offered.isEmpty && offered == expected, "\(example.section): banks \(offered), expected \(expected) (\(mode.spelling))")
        }
    }

    /// The same examples signed by Antom's official Python SDK (global-open-sdk-python's
    /// `signature_tool`, with the test client's key) rather than by us: each is a success too.
    @Test func theSeedsExamplesSignedByTheOfficialSDKSucceed() async throws {
        let python = ConformanceScript.root.appendingPathComponent(".build/python/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("The Python venv is missing (\(python)): run `make test` (or .ci/ensure-packages.sh --with-python).")
            return
        }
        let bodies = try Self.examples.map { String(decoding: try JSONEncoder().encode($0.body), as: UTF8.self) }
        #expect(bodies.count == 3)
        let (path, client, time) = (AntomTestSandbox.createPath, AntomTestSandbox.clientID, "2026-11-22T10:00:00+00:00")
        let script = """
            import sys
            from com.alipay.ams.api.tools import signature_tool
            path, client, time, private = sys.argv[1:5]
            for body in sys.argv[5:]:
                print(signature_tool.sign("POST", path, client, time, body, private))
            """
        let child = try ChildProcess(
            [python, "-c", script, path, client, time, AntomTestSandbox.clientKey.derRepresentation.base64EncodedString()] + bodies)
        let status = await child.exit(timeout: 60)
        let signatures = child.stdout.split(separator: "\n").map(String.init)
        #expect(status == 0 && signatures.count == bodies.count, "\(child.stdout)\(child.stderr)")
        guard signatures.count == bodies.count else { return }
        for (example, (body, signature)) in zip(Self.examples, zip(bodies, signatures)) {
            try await AntomTestSandbox.with { sandbox in
                let response = try await sandbox.api(path, Data(body.utf8), time: time, signature: signature)
                let answer = try AntomTestSandbox.object(response)
                let result = AntomTestSandbox.result(answer)
                #expect(response.status == 200 && result["resultStatus"] as? String == "S" && result["resultCode"] as? String == "SUCCESS",
                    "\(example.section), signed by the SDK: \(String(decoding: response.body, as: UTF8.self))")
            }
        }
    }

    /// The spellings the examples use read as the modes they mean; a name no bank has still fails.
    @Test func thePublishedSpellingsReadAsTheirModes() {
        #expect(AntomDisplayMode(metaData: #"{"bankName":"Siam Commerical Bank"}"#) == .singleBank("SCB"))
        #expect(AntomDisplayMode(metaData: #"{"bankName":"siam  commercial bank"}"#) == .singleBank("SCB"))
        #expect(AntomDisplayMode(metaData: #"{"bankName":"Bank Central Asia"}"#) == .singleBank("BCA"))
        #expect(AntomDisplayMode(metaData: #"{"paymentMethodCaregory":"BANK_TRANSFER"}"#) == .bankType(.bankTransfer))
        #expect(AntomDisplayMode(metaData: #"{"bankName":"Siam Bank of Nowhere"}"#) == nil)
        // Both spellings at once say two things: refused.
        #expect(AntomDisplayMode(metaData: #"{"paymentMethodCategory":"BANK_TRANSFER","paymentMethodCaregory":"ONLINE_BANKING"}"#) == nil)
    }
}
