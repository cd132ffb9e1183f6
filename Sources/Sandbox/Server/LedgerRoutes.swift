import Foundation
import Hummingbird
import ProviderWire

/// `GET /sandbox/ledger`: every provider's sections side by side (`{"captures": […],
/// "adyen_payments": […], …}`), the proof that no payment was charged twice, and `charges`: every
/// provider's money movements in one shape (`SandboxCharge`), for checkers that know no provider.
struct LedgerRoutes {
    let providers: [any SandboxProvider]
    let settings: SandboxSettings

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.get("sandbox/ledger") { _, _ in
            let now = settings.now()
            var sections: [SandboxLedgerSection] = []
            var rows: [SandboxCharge] = []
            for provider in providers {
                sections += try await provider.ledgerSections(now: now, limits: settings.limits)
                rows += try await provider.charges(now: now)
            }
            let charges = SandboxLedgerSection(name: "charges", rows: rows)
            return SandboxResponse.json(Ledger(sections: sections + [charges]))
        }
    }

    /// The sections as one JSON object, each under its name.
    private struct Ledger: Encodable {
        let sections: [SandboxLedgerSection]

        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for section in sections { try container.encode(section.rows, forKey: Key(stringValue: section.name)) }
        }
    }
}
