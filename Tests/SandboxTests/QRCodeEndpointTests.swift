import Foundation
import ProviderClients
import ProviderWire
import Sandbox
import Testing
import TestSupport

/// The QR images behind `qr_code_svg_url` / `qr_code_image_url`, over a real socket.
@Suite struct QRCodeEndpointTests {
    @Test func servesTheCurrentMobileURLAsSVGAndPNG() async throws {
        try await SandboxHarness.with { harness in
            let created = try await harness.client().create(SandboxHarness.params())
            let triggers = try #require(created.authFlowTriggers)

            let svg = try await get(harness, triggers.qrCodeSVGURL)
            #expect(svg.status == 200)
            #expect(header(svg, "Content-Type") == "image/svg+xml")
            #expect(header(svg, "Cache-Control") == "no-store")
            #expect(String(decoding: svg.body, as: UTF8.self).hasPrefix("<svg "))

            let png = try await get(harness, triggers.qrCodeImageURL)
            #expect(png.status == 200)
            #expect(header(png, "Content-Type") == "image/png")
            #expect(header(png, "Cache-Control") == "no-store")
            #expect(png.body.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        }
    }

    @Test(.enabled(if: Zbar.executable != nil || Zbar.isCI, "zbarimg not on PATH (apt install zbar-tools)"))
    func thePNGScansToTheMobileURL() async throws {
        let zbarimg = try #require(Zbar.executable, "zbarimg must be installed in CI (zbar-tools)")
        try await SandboxHarness.with { harness in
            let triggers = try #require(try await harness.client().create(SandboxHarness.params()).authFlowTriggers)
            let png = try await get(harness, triggers.qrCodeImageURL)
            #expect(png.status == 200)

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-qr-\(UUID().uuidString).png")
            try png.body.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            #expect(try await Zbar.decode(zbarimg, file: file) == triggers.mobileURL)
        }
    }

    @Test func aRotatedTokenIsGoneAndTheNewOneIsServed() async throws {
        try await SandboxHarness.with { harness in
            let client = harness.client()
            let created = try await client.create(SandboxHarness.params())
            let old = try #require(created.authFlowTriggers)

            harness.clock.advance(by: 31)
            let new = try #require(try await client.retrieve(id: created.id).authFlowTriggers)
            #expect(new.qrCodeImageURL != old.qrCodeImageURL)

            for url in [old.qrCodeSVGURL, old.qrCodeImageURL] {
                let refused = try await get(harness, url)
                #expect(refused.status == 410, "\(url)")
                #expect(header(refused, "Cache-Control") == "no-store")
                let error = try #require(try errors(refused).first)
                #expect(error.field == "t")
                #expect(error.detail?.contains("fetch the request again") == true)
            }
            #expect(try await get(harness, new.qrCodeSVGURL).status == 200)
            #expect(try await get(harness, new.qrCodeImageURL).status == 200)
        }
    }

    @Test func aMissingTokenOrAnUnknownRequestIsNotFound() async throws {
        try await SandboxHarness.with { harness in
            let created = try await harness.client().create(SandboxHarness.params())
            let untokened = try await get(harness, harness.baseURL + "/sandbox/customer-requests/\(created.id)/qr.png")
            #expect(untokened.status == 404)
            #expect(try errors(untokened).first?.field == "t")

            let unknown = try await get(harness, harness.baseURL + "/sandbox/customer-requests/GRR_nope/qr.svg?t=0-x")
            #expect(unknown.status == 404)
            #expect(try errors(unknown).first?.code == "NOT_FOUND")
            #expect(try errors(unknown).first?.field == "id")
        }
    }

    @Test func aDecidedRequestHasNoQRCode() async throws {
        try await SandboxHarness.with { harness in
            let created = try await harness.client().create(SandboxHarness.params())
            let triggers = try #require(created.authFlowTriggers)
            _ = try await harness.customer.customer(.approve, requestID: created.id)

            for url in [triggers.qrCodeSVGURL, triggers.qrCodeImageURL] {
                let refused = try await get(harness, url)
                #expect(refused.status == 410, "\(url)")
                #expect(try errors(refused).first?.detail?.contains("APPROVED") == true)
            }
        }
    }

    private func get(_ harness: SandboxHarness, _ url: String) async throws -> ProviderResponse {
        try await harness.http().send(ProviderRequest(method: "GET", url: url), provider: "test")
    }

    private func header(_ response: ProviderResponse, _ name: String) -> String? {
        response.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    private func errors(_ response: ProviderResponse) throws -> [CashAppErrorDetail] {
        #expect(header(response, "Content-Type") == "application/json")
        return try CashAppJSON.decoder().decode(CashAppErrorBody.self, from: response.body).errors
    }
}
