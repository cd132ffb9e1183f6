import Foundation
import TestSupport
import Testing

/// A small soak across two `checkout sandbox --store` instances on one fresh PostgreSQL database,
/// each checkout's calls alternating between them and the second instance killed (SIGKILL) and
/// started again halfway: every checkout ends in a documented state, nothing is charged twice,
/// and the ledger reads the same from both instances (`make soak SOAK_STORE=postgres
/// SOAK_INSTANCES=2` is the full one).
@Suite(.enabled(if: TestPostgres.isEnabled, TestPostgres.skipReason))
struct SharedStoreSoakTests {
    /// `checkout-soak`, built beside `checkout`.
    private var soakBinary: String {
        CheckoutBinary.url.deletingLastPathComponent().appendingPathComponent("checkout-soak").path
    }

    @Test func twoInstancesOnOneDatabaseWithOneKilledHalfway() async throws {
        let store = try await TestPostgres.freshDatabase()
        let soak = try ChildProcess([
            soakBinary, "--checkouts", "16", "--seed", "20261126", "--concurrency", "4", "--store", store, "--instances", "2",
        ])
        let status = await soak.exit(timeout: 300)
        let output = soak.stdout
        #expect(status == 0, "checkout-soak exited \(status):\n\(output.suffix(4000))\n\(soak.stderr.suffix(2000))")
        #expect(output.contains("soak: passed (seed 20261126)"), "\(output.suffix(2000))")
        #expect(output.contains("killed (SIGKILL)"), "the second instance was not killed:\n\(output.suffix(2000))")
        #expect(output.contains("ledger: the same"), "\(output.suffix(2000))")
        // The password is in the URL the soak was given; it never printed it.
        if let password = URLComponents(string: store)?.password {
            #expect(!output.contains(password) && !soak.stderr.contains(password))
        }
    }
}

/// The soak's own command line: several instances in memory would share nothing.
@Suite struct SoakOptionsTests {
    @Test func severalInstancesNeedAStore() async throws {
        let binary = CheckoutBinary.url.deletingLastPathComponent().appendingPathComponent("checkout-soak").path
        let soak = try ChildProcess([binary, "--checkouts", "10", "--instances", "2"])
        let status = await soak.exit(timeout: 60)
        #expect(status == 64, "\(soak.stderr)")
        #expect(soak.stderr.contains("--instances 2 needs --store"), "\(soak.stderr)")
    }
}
