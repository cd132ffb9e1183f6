import CheckoutApp
import Foundation
import TestSupport
import Testing

/// The seam rule: code outside a provider's own folders (`Sources/*/Adyen/…`) names neither its
/// id nor its types; the registry lists them, and a provider's declared dependencies
/// (`ProviderSeam.dependencies`) are named only from its own folders. Comments and string
/// literals (help, messages) may say anything.
@Suite struct ProviderSeamTests {
    /// The package root, from this file's place in it.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Read once for all the tests here, on a thread of its own (`onOwnThread`): the tests
    /// waiting for it await it rather than block a cooperative thread.
    static let reading = Task {
        try await onOwnThread { try ProviderSeam(packageRoot: packageRoot, providers: ProviderRegistry.builtIn.ids) }
    }

    static func seam() async throws -> ProviderSeam { try await reading.value }

    @Test func noCodeOutsideAProvidersFoldersNamesIt() async throws {
        let seam = try await Self.seam()
        let leaks = try await onOwnThread { seam.leaks() }
        if !leaks.isEmpty {
            Issue.record("\(leaks.count) lines name a provider outside its folders:\n\(leaks.map(\.description).joined(separator: "\n"))")
        }
    }

    @Test func everyProviderHasFoldersAndTypes() async throws {
        let seam = try await Self.seam()
        for provider in ProviderRegistry.builtIn.ids {
            #expect(seam.files.contains { $0.provider == provider }, "no folder named \(provider) under Sources")
            #expect(seam.declaredTypes.values.contains { $0.contains(provider) }, "no types declared in \(provider)'s folders")
        }
    }

    /// A dependency nobody uses any more is a hole in the seam: remove it from the table.
    @Test func everyDeclaredDependencyIsUsed() async throws {
        let seam = try await Self.seam()
        for dependency in ProviderSeam.dependencies {
            let used = try await onOwnThread {
                seam.files.contains { file in
                    file.provider == dependency.provider && file.code.contains { line in
                        seam.namedProviders(in: line).contains { $0.provider == dependency.uses }
                    }
                }
            }
            #expect(used, "\(dependency.provider) no longer names \(dependency.uses): drop it from ProviderSeam.dependencies")
        }
    }

    @Test func commentsAndStringsAreNotCode() {
        let source = #"""
            let a = AdyenClient() // Adyen's
            /* Square /* nested */ still */ let b = 1
            let c = "Cash App \(wallet.name) and \("antom")"
            let d = #"raw "adyen" \(x)"#
            let e = """
                square \(y) "afterpay"
                """
            """#
        let lines = SwiftCodeText.lines(of: source).map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines == ["let a = AdyenClient()", "let b = 1", "let c = wallet.name", "let d =", "let e =", "y", ""])
    }

    @Test func identifiersNameProvidersByTheirWords() async throws {
        let seam = try await Self.seam()
        let named = { (line: Substring) in seam.namedProviders(in: line).map(\.provider) }
        #expect(named("WalletTokenVerifier.isSquareNonce(x)") == ["wallet", "square"])
        #expect(named("settings.adyenHMACKey = cashAppKey") == ["adyen", "cashapp"])
        #expect(named("case .creatingRequest: squared") == [])
        #expect(named("let x = CustomerRequestClient(configuration: c)").contains("cashapp"))
        #expect(ProviderSeam.words(of: "AdyenHMACKey") == ["adyen", "hmac", "key"])
    }
}
