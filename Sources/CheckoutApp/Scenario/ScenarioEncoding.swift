import CheckoutModel
import Foundation

extension Scenario {
    /// The scenario as a scenario file's JSON object: transcripts carry it, and
    /// `ScenarioParser` reads it back to the same scenario.
    public var jsonObject: [String: Any] {
        var object: [String: Any] = ["name": name, "provider": provider, "customer": customer.spelling]
        if let cart {
            object["cart"] = cart.map { line -> [String: Any] in
                switch line {
                case .sku(let sku, let quantity): ["sku": sku, "quantity": quantity]
                case .item(let name, let price, let quantity): ["name": name, "price": price.decimalString, "quantity": quantity]
                }
            }
        }
        if let shipping { object["shipping"] = shipping }
        if !faults.isEmpty { object["faults"] = faults.map(\.description) }
        if let referenceID { object["reference_id"] = referenceID }
        if !metadata.isEmpty { object["metadata"] = metadata }
        if let amount { object["amount"] = amount.decimalString }
        if !options.isEmpty {
            let switches = Set(ProviderRegistry.builtIn.options.filter(\.isSwitch).map(\.flag))
            object["options"] = Dictionary(uniqueKeysWithValues: options.map { flag, value -> (String, Any) in
                (flag, switches.contains(flag) ? (value == "true") : value)
            })
        }
        if let sandbox {
            var timings: [String: Any] = [:]
            if let rotation = sandbox.triggerRotationSeconds { timings["trigger_rotation"] = rotation }
            if let lifetime = sandbox.requestLifetimeSeconds { timings["request_lifetime"] = lifetime }
            object["sandbox"] = timings
        }
        if let expect {
            var expectation: [String: Any] = ["state": expect.state]
            if let phase = expect.phase { expectation["phase"] = phase }
            object["expect"] = expectation
        }
        return object
    }
}
