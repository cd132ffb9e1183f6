import Foundation
import Hummingbird

/// `POST /sandbox/faults` {"fault": "METHOD PATH-PREFIX KIND[*N]"} adds one; `GET` lists the
/// pending ones; `DELETE` clears them.
struct FaultRoutes {
    let plan: FaultPlan

    struct AddFault: Decodable { let fault: String }
    struct Listing: Encodable { let faults: [FaultRule] }
    struct Problem: Encodable { let error: String }

    func register(on router: Router<SandboxRequestContext>) {
        let faults = router.group("sandbox/faults")
        faults.get { _, _ in SandboxResponse.json(Listing(faults: plan.pending)) }
        faults.delete { _, _ in
            plan.clear()
            return SandboxResponse.json(Listing(faults: []))
        }
        faults.post { request, context in
            let body = try? await request.collectBody(context)
            guard let body, let add = try? JSONDecoder().decode(AddFault.self, from: body) else {
                return SandboxResponse.json(Problem(error: #"send {"fault": "METHOD PATH-PREFIX KIND[*N]"}"#), status: .badRequest)
            }
            switch Result(catching: { () throws(FaultSpecError) in try FaultRule(spec: add.fault) }) {
            case .success(let rule): plan.add(rule)
            case .failure(let error): return SandboxResponse.json(Problem(error: error.description), status: .badRequest)
            }
            return SandboxResponse.json(Listing(faults: plan.pending), status: .created)
        }
    }
}
