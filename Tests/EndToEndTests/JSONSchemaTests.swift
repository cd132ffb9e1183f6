import Foundation
import Testing
import TestSupport

/// `checkout run --json`, `replay --headless --json` and `providers --json` from the real binary,
/// checked line by line against Schemas/ (README's "Exit codes and JSON output").
@Suite struct JSONSchemaTests {
    /// The provider ids `checkout providers --json` lists, after checking that document.
    private func providers() async throws -> [[String: Any]] {
        let outcome = try await CheckoutBinary.run(["providers", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        try await SchemaValidator.expectValid(outcome.stdout, against: "providers.schema.json", lines: false)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        return try #require(document["providers"] as? [[String: Any]])
    }

    /// Runs `checkout ARGUMENTS` (with --json), expects `status`, checks every line against the
    /// run schema and returns the lines' objects.
    @discardableResult
    private func run(_ arguments: [String], expecting status: Int32, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [[String: Any]] {
        let outcome = try await CheckoutBinary.run(arguments)
        #expect(outcome.status == status, "\(arguments): \(outcome.stdout)\(outcome.stderr)", sourceLocation: sourceLocation)
        try await SchemaValidator.expectValid(outcome.stdout, against: "run.schema.json", sourceLocation: sourceLocation)
        return try SchemaValidator.objects(outcome.stdout, sourceLocation: sourceLocation)
    }

    @Test func everyProvidersApprovedRunMatchesTheRunSchema() async throws {
        let ids = try await providers().compactMap { $0["id"] as? String }
        #expect(ids.count >= 6, "\(ids)")
        for id in ids {
            let objects = try await run(["run", "--provider", id, "--customer", "approve", "--json"], expecting: 0)
            #expect(objects.first?["state"] as? String == "notStarted", "\(id)")
            let summary = objects.last { $0["summary"] as? Bool == true }
            #expect(summary?["provider"] as? String == id && summary?["exit_status"] as? Int == 0, "\(id): \(objects)")
        }
    }

    /// A decline, the error states, a settlement that fails, a webhook among the states, a receipt:
    /// each run's arguments and its exit status.
    static let outcomes: [([String], Int32)] = [
        (["run", "--customer", "decline", "--json"], 1),
        (["run", "--amount", "6670", "--json"], 2),
        (["run", "--fault", "GET /customer-request reset*5", "--retry-base-ms", "10", "--json"], 2),
        (["run", "--customer", "none", "--timeout", "2", "--json"], 2),
        (["run", "--provider", "afterpay", "--amount", "4440", "--json"], 1),
        (["run", "--provider", "adyen", "--amount", "7001", "--json"], 1),
        (["run", "--provider", "adyen", "--amount", "7004", "--json"], 0),
        (["run", "--provider", "square", "--card", "ok", "--tip", "75", "--receipt", "--json"], 0),
        (["run", "--provider", "antom", "--amount", "8004", "--json"], 1),
        (["run", "--provider", "wallet", "--shipping-methods", "courier:Courier:Priced at dispatch:pending", "--json"], 0),
        (["run", "--provider", "wallet", "--require", "email", "--shipping-type", "delivery", "--json"], 0),
    ]

    @Test(arguments: outcomes)
    func eachOutcomeMatchesTheRunSchema(arguments: [String], status: Int32) async throws {
        let objects = try await run(arguments, expecting: status)
        #expect(objects.last { $0["summary"] as? Bool == true }?["exit_status"] as? Int == Int(status), "\(objects)")
    }

    /// Cash App Pay's on-file payment beside the one-time payment, and alone: the approved line
    /// names each grant's type (ONE_TIME, EXTENDED) in the order of its grants.
    @Test(arguments: [("also", ["ONE_TIME", "EXTENDED"]), ("only", ["EXTENDED"])])
    func onFileGrantsSayTheirTypes(onFile: String, types: [String]) async throws {
        let objects = try await run(
            ["run", "--on-file", onFile, "--account-reference-id", "customer-42", "--redirect-url", "https://shop.example/return", "--json"],
            expecting: 0)
        let approved = try #require(objects.first { $0["state"] as? String == "approved" }, "\(objects)")
        #expect(approved["grant_types"] as? [String] == types, "\(approved)")
        #expect((approved["grants"] as? [String])?.count == types.count, "\(approved)")
        // A one-time payment alone reads as it always has: no grant_types.
        let plain = try await run(["run", "--json"], expecting: 0)
        #expect(plain.first { $0["state"] as? String == "approved" }?["grant_types"] == nil, "\(plain)")
    }

    @Test func aScenarioExpectationLineMatches() async throws {
        let scenario = SchemaValidator.root.appendingPathComponent("Resources/scenarios/customer-declines.yaml").path
        let objects = try await run(["run", scenario, "--json"], expecting: 0)
        #expect(objects.last?["met"] as? Bool == true, "\(objects)")
    }

    /// A recorded run played back prints the lines it printed, and a re-run says it told the same story.
    @Test func replayPrintsTheRecordedLinesAndRunReplayItsVerdict() async throws {
        let har = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).har").path
        defer { try? FileManager.default.removeItem(atPath: har) }
        let recorded = try await CheckoutBinary.run(["run", "--provider", "afterpay", "--json", "--record", har])
        #expect(recorded.status == 0, "\(recorded.stderr)")

        let replayed = try await CheckoutBinary.run(["replay", har, "--headless", "--json"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        try await SchemaValidator.expectValid(replayed.stdout, against: "replay.schema.json")
        #expect(replayed.lines == recorded.lines)

        let objects = try await run(["run", "--replay", har, "--json"], expecting: 0)
        #expect(objects.last?["replay"] as? String == "same", "\(objects)")
    }

    /// The schemas' closed lists are the binary's: a new provider or step must be documented.
    @Test func theSchemasListEveryProviderAndStep() async throws {
        let listed = try await providers()
        let ids = Set(listed.compactMap { $0["id"] as? String })
        let steps = Set(listed.flatMap { $0["steps"] as? [String] ?? [] }).union(["completed", "settlementFailed"])
        let behaviours = Set(listed.flatMap { $0["customer_behaviours"] as? [String] ?? [] })
        let run = try SchemaValidator.schema("run.schema.json")
        let definitions = try #require(run["$defs"] as? [String: Any])
        let enumeration = { (name: String) in Set(((definitions[name] as? [String: Any])?["enum"] as? [String]) ?? []) }
        #expect(enumeration("providerID") == ids)
        #expect(enumeration("phaseName") == steps)
        let providerSchema = try #require((try SchemaValidator.schema("providers.schema.json")["$defs"] as? [String: Any])?["provider"] as? [String: Any])
        let properties = try #require(providerSchema["properties"] as? [String: Any])
        #expect(Set(((properties["id"] as? [String: Any])?["enum"] as? [String]) ?? []) == ids)
        let behaviourItems = ((properties["customer_behaviours"] as? [String: Any])?["items"] as? [String: Any])?["enum"] as? [String]
        #expect(Set(behaviourItems ?? []) == behaviours)
    }

    /// A schema test that cannot fail is worthless: real lines, each made wrong in one way, are refused.
    @Test func aWrongDocumentIsRejected() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--json"])
        let objects = try SchemaValidator.objects(outcome.stdout)
        let approved = try #require(objects.first { $0["state"] as? String == "approved" })
        let summary = try #require(objects.first { $0["summary"] as? Bool == true })
        var unknownState = approved
        unknownState["state"] = "finished"
        var missingGrants = approved
        missingGrants.removeValue(forKey: "grants")
        var stringStatus = summary
        stringStatus["exit_status"] = "0"
        var unexpectedField = objects[0]
        unexpectedField["colour"] = "green"
        for (wrong, mentions) in [(unknownState, "/state"), (missingGrants, "grants"), (stringStatus, "/exit_status"), (unexpectedField, "colour")] {
            let line = String(decoding: try JSONSerialization.data(withJSONObject: wrong, options: [.sortedKeys]), as: UTF8.self)
            let verdict = try #require(try await SchemaValidator.check(line, against: "run.schema.json"))
            #expect(verdict.status == 1, "accepted: \(line)")
            #expect(verdict.output.contains(mentions), "\(verdict.output)")
        }
        let notJSON = try #require(try await SchemaValidator.check("state: approved", against: "run.schema.json"))
        #expect(notJSON.status == 1 && notJSON.output.contains("not JSON"), "\(notJSON.output)")
    }
}
