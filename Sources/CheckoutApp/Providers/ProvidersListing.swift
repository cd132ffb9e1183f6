import Foundation

/// `checkout providers`: every registered provider with what it emulates, its endpoints, its
/// options and its sandbox magic values, as text or JSON.
public enum ProvidersListing {
    public static func text(_ registry: ProviderRegistry) -> String {
        var lines: [String] = []
        for descriptor in registry.descriptors {
            let method = descriptor.method
            lines.append("\(descriptor.id) — \(method.label)\(method.detail.isEmpty ? "" : " (\(method.detail))")")
            lines.append("  emulates: \(descriptor.emulates)")
            var flow = "state machine"
            if !method.steps.isEmpty { flow += "; steps \(method.steps.joined(separator: ", "))" }
            if method.settles { flow += "; settles after approval (exit 0 only once completed)" }
            lines.append("  flow: \(flow)")
            lines.append("  customer: \(descriptor.customerBehaviours.joined(separator: ", "))")
            lines.append("  endpoints:")
            lines += descriptor.endpoints.map { "    \($0)" }
            if !descriptor.options.isEmpty {
                lines.append("  options:")
                for option in descriptor.options {
                    lines.append("    \(option.usage)\(option.environment.map { " (or \($0))" } ?? "")")
                }
            }
            if !descriptor.magicValues.isEmpty {
                lines.append("  magic values:")
                lines += descriptor.magicValues.map { "    \($0.field) \($0.value): \($0.effect)" }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    public static func json(_ registry: ProviderRegistry) -> String {
        let providers: [[String: Any]] = registry.descriptors.map { descriptor in
            [
                "id": descriptor.id, "label": descriptor.method.label, "detail": descriptor.method.detail,
                "emulates": descriptor.emulates, "steps": descriptor.method.steps, "settles": descriptor.method.settles,
                "customer_behaviours": descriptor.customerBehaviours, "endpoints": descriptor.endpoints,
                "options": descriptor.options.map { option -> [String: Any] in
                    var object: [String: Any] = ["flag": "--" + option.flag, "value_name": option.valueName, "help": option.help, "secret": option.secret]
                    if let environment = option.environment { object["environment"] = environment }
                    return object
                },
                "magic_values": descriptor.magicValues.map { ["field": $0.field, "value": $0.value, "effect": $0.effect] },
                "variants": descriptor.variants.map(\.listing),
            ]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: ["providers": providers], options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]),
            let text = String(data: data, encoding: .utf8)
        else { return "{}" }
        return text
    }
}
