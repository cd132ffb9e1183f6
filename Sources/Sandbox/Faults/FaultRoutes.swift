import Foundation
import Hummingbird

/// `POST /sandbox/faults` {"fault": "METHOD PATH-PREFIX KIND[*N]", "owner": "run id"} adds one
/// (owner defaults to `sandbox`); `GET` lists the pending ones with their owners; `DELETE`
/// clears them, or with `?owner=ID` only that owner's.
struct FaultRoutes {
    let plan: FaultPlan
    let limits: SandboxLimits

    struct AddFault: Decodable {
        let fault: String
        /// nil when absent or null; `.failure` when present but not a string.
        let owner: Result<String, OwnerProblem>?

        enum CodingKeys: String, CodingKey { case fault, owner }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            fault = try container.decode(String.self, forKey: .fault)
            if !container.contains(.owner) {
                owner = nil
            } else if try container.decodeNil(forKey: .owner) {
                owner = nil
            } else if let text = try? container.decode(String.self, forKey: .owner) {
                owner = .success(text)
            } else {
                owner = .failure(OwnerProblem(description: "is not a string"))
            }
        }
    }

    struct OwnerProblem: Error { let description: String }

    struct Listing: Encodable { let faults: [PlannedFault] }
    struct Removal: Encodable { let removed: Int; let faults: [PlannedFault] }
    struct Problem: Encodable { let error: String }

    static func ownerProblem(_ detail: String) -> Response {
        SandboxResponse.json(Problem(error: "owner \(detail): it must be \(FaultPlan.ownerRule)"), status: .badRequest)
    }

    /// The owner asked for, or why it cannot be one.
    static func validOwner(_ owner: String) -> Result<String, OwnerProblem> {
        FaultPlan.isValidOwner(owner) ? .success(owner) : .failure(OwnerProblem(description: "\"\(owner)\" is not allowed"))
    }

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        let faults = router.group("sandbox/faults")
        faults.get { _, _ in SandboxResponse.json(Listing(faults: try await plan.pendingWithOwners)) }
        faults.delete { request, _ in
            let removed: Int
            if let owner = request.uri.queryParameters.get("owner") {
                switch Self.validOwner(owner) {
                case .success(let owner): removed = try await plan.remove(owner: owner)
                case .failure(let problem): return Self.ownerProblem(problem.description)
                }
            } else {
                removed = try await plan.clear()
            }
            return SandboxResponse.json(Removal(removed: removed, faults: try await plan.pendingWithOwners))
        }
        faults.post { request, context in
            let body: Data
            do { body = try await request.readBody(limit: limits.maxBodyBytes) } catch let error as BodyTooLarge {
                return SandboxResponse.json(Problem(error: error.description), status: .contentTooLarge)
            } catch {
                return SandboxResponse.json(Problem(error: "the request body could not be read"), status: .badRequest)
            }
            guard let add = try? JSONDecoder().decode(AddFault.self, from: body) else {
                return SandboxResponse.json(Problem(error: #"send {"fault": "METHOD PATH-PREFIX KIND[*N]"}"#), status: .badRequest)
            }
            let owner: String
            switch (add.owner ?? .success(FaultPlan.sandboxOwner)).flatMap(Self.validOwner) {
            case .success(let valid): owner = valid
            case .failure(let problem): return Self.ownerProblem(problem.description)
            }
            switch Result(catching: { () throws(FaultSpecError) in try FaultRule(spec: add.fault) }) {
            case .success(let rule):
                do { try await plan.add(rule, owner: owner) } catch let full as FaultPlanFull {
                    return SandboxResponse.json(Problem(error: full.description), status: .conflict)
                }
            case .failure(let error): return SandboxResponse.json(Problem(error: error.description), status: .badRequest)
            }
            return SandboxResponse.json(Listing(faults: try await plan.pendingWithOwners), status: .created)
        }
    }
}
