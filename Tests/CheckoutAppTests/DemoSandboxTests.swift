@testable import CheckoutApp
import ProviderClients
import ProviderWire
import Testing

/// `checkout demo` loops for as long as a meeting lasts: its embedded sandbox keeps what a loop
/// needs, where the screen's keeps a day's worth of requests and journal.
@Suite struct DemoSandboxTests {
    /// The embedded sandbox's journal after one request to it.
    private func journalAfterOneRequest(_ options: SessionOptions) async throws -> [SandboxJournalEntry] {
        let session = try await PaymentSession.start(options)
        do {
            let customer = try #require(session.customer)
            _ = try await customer.removeFaults(owner: "nobody")
            let baseURL = try #require(session.sandbox?.baseURL)
            let page = try await SandboxJournalClient(baseURL: baseURL, http: session.http).page(SandboxJournalQuery())
            await session.stop()
            return page.entries
        } catch {
            await session.stop()
            throw error
        }
    }

    @Test func theDemosEmbeddedSandboxKeepsNoJournalWhereTheScreensKeepsOne() async throws {
        #expect(try await journalAfterOneRequest(SessionOptions()).map(\.method) == ["DELETE"])
        #expect(try await journalAfterOneRequest(DemoMode.sessionOptions(SessionOptions())).isEmpty)
    }
}
