import CheckoutModel
import Foundation
import PaymentFlow
import Sandbox
import Yams

/// Reads scenario files (YAML, or JSON, which YAML reads too) from Yams' node tree, so every
/// mistake is reported at its line and column, and prices are read from their exact text
/// (never through a floating-point number).
public enum ScenarioParser {
    public static let keys = [
        "name", "provider", "cart", "shipping", "customer", "faults", "reference_id", "metadata", "amount", "sandbox",
        "expect", "options",
    ]

    /// A scenario is a cart and a few settings; anything larger is not one.
    static let maximumBytes = 1_000_000

    /// Reads and parses the file at `path`.
    public static func load(path: String, catalog: Catalog, registry: ProviderRegistry = .builtIn) throws(ScenarioError) -> Scenario {
        let data: Data
        do { data = try InputFile.contents(of: path, kind: "a .yaml or .json scenario", limit: maximumBytes) } catch {
            throw ScenarioError(file: path, line: error.line, column: error.column, field: "", problem: error.text)
        }
        return try parse(contents: data, file: path, catalog: catalog, registry: registry)
    }

    /// Parses a scenario file's bytes, which must be UTF-8 text.
    public static func parse(contents data: Data, file: String, catalog: Catalog, registry: ProviderRegistry = .builtIn) throws(ScenarioError) -> Scenario {
        let text: String
        do { text = try InputFile.text(data) } catch {
            throw ScenarioError(file: file, line: error.line, column: error.column, field: "", problem: error.text)
        }
        return try parse(text, file: file, catalog: catalog, registry: registry)
    }

    public static func parse(_ text: String, file: String, catalog: Catalog, registry: ProviderRegistry = .builtIn) throws(ScenarioError) -> Scenario {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw ScenarioError(file: file, line: 1, column: 1, field: "", problem: "the file is empty; a scenario needs at least a name")
            }
            root = node
        } catch let error as ScenarioError {
            throw error
        } catch let error as YamlError {
            throw syntaxError(error, file: file, text: text)
        } catch {
            throw ScenarioError(file: file, line: 1, column: 1, field: "", problem: "cannot be read as YAML: \(error)")
        }
        return try ScenarioReader(file: file, catalog: catalog, registry: registry).scenario(root)
    }

    private static func syntaxError(_ error: YamlError, file: String, text: String) -> ScenarioError {
        func at(_ mark: Mark, _ problem: String, _ context: YamlError.Context?) -> ScenarioError {
            let context = context.map { " (\($0.text))" } ?? ""
            return ScenarioError(file: file, line: mark.line, column: mark.column, field: "", problem: "YAML syntax: \(problem)\(context)")
        }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return at(mark, problem, context)
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Yams points at the mapping; the second spelling of the key is what to fix.
            let mark = duplicates.first.flatMap { secondOccurrence(of: $0, in: text) } ?? (context.mark.line, context.mark.column)
            return ScenarioError(
                file: file, line: mark.0, column: mark.1, field: duplicates.first ?? "",
                problem: "the key \(duplicates.map { "\"\($0)\"" }.joined(separator: ", ")) appears twice; keep one")
        default:
            return ScenarioError(file: file, line: 1, column: 1, field: "", problem: "YAML: \(error)")
        }
    }
}

/// Where `key:` starts a line for the second time (line and column from 1).
private func secondOccurrence(of key: String, in text: String) -> (Int, Int)? {
    var seen = 0
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let body = line.drop { $0 == " " || $0 == "-" }
        guard body.hasPrefix(key + ":") || body.hasPrefix("\"\(key)\":") else { continue }
        seen += 1
        if seen == 2 { return (index + 1, line.count - body.count + 1) }
    }
    return nil
}

/// Walks the node tree, checking each field where it is written.
private struct ScenarioReader {
    let file: String
    let catalog: Catalog
    let registry: ProviderRegistry

    func scenario(_ root: Node) throws(ScenarioError) -> Scenario {
        let fields = try mapping(root, "", allowed: ScenarioParser.keys, what: "a scenario")
        guard let nameNode = fields["name"] else {
            throw error(at: root, "name", "a scenario needs a name, e.g. `name: happy path`")
        }
        var scenario = Scenario(name: try text(nameNode, "name"))
        if let node = fields["provider"] {
            let spelling = try text(node, "provider")
            guard registry.descriptor(spelling) != nil else {
                throw error(at: node, "provider", "\"\(spelling)\" is not a provider; use one of \(list(registry.ids))")
            }
            scenario.provider = spelling
        }
        if let node = fields["cart"] { scenario.cart = try cart(node) }
        if let node = fields["shipping"] {
            let id = try text(node, "shipping")
            guard catalog.shippingMethods.contains(where: { $0.id == id }) else {
                throw error(at: node, "shipping", "no shipping method \"\(id)\"; the catalog has \(list(catalog.shippingMethods.map(\.id)))")
            }
            scenario.shipping = id
        }
        if let node = fields["customer"] {
            let spelling = try text(node, "customer")
            guard let behaviour = CustomerBehaviour(spelling: spelling) else {
                throw error(at: node, "customer", "\"\(spelling)\" is not a customer behaviour; use approve, decline, none or approve-after SECONDS (0 to 3600)")
            }
            let supported = registry.descriptor(scenario.provider)?.customerBehaviours ?? []
            guard supported.contains(behaviour.keyword) else {
                throw error(at: node, "customer", "\(scenario.provider) does not support \"\(behaviour.keyword)\"; use one of \(list(supported))")
            }
            scenario.customer = behaviour
        }
        if let node = fields["faults"] { scenario.faults = try faults(node) }
        if let node = fields["reference_id"] {
            let reference = try text(node, "reference_id")
            let limit = registry.descriptor(scenario.provider)?.referenceLimit ?? .input
            guard reference.count <= limit.characters else { throw error(at: node, "reference_id", "is \(reference.count) characters; \(limit.rule)") }
            scenario.referenceID = reference
        }
        if let node = fields["metadata"] { scenario.metadata = try metadata(node) }
        if let node = fields["amount"] {
            let amount = try money(node, "amount")
            guard amount.isPositive else { throw error(at: node, "amount", "must be more than zero") }
            scenario.amount = amount
        }
        if let node = fields["sandbox"] { scenario.sandbox = try sandbox(node) }
        if let node = fields["expect"] { scenario.expect = try expectation(node) }
        if let node = fields["options"], let descriptor = registry.descriptor(scenario.provider) {
            scenario.options = try providerOptions(node, of: descriptor)
        }
        return scenario
    }

    /// The provider's options, by flag without dashes (`store: true`, `capture: manual`). Secrets
    /// stay in the environment: a scenario travels with tickets and transcripts.
    private func providerOptions(_ node: Node, of descriptor: ProviderDescriptor) throws(ScenarioError) -> [String: String] {
        let allowed = descriptor.options.filter { !$0.secret }
        let fields = try mapping(node, "options", allowed: allowed.flatMap { [$0.flag] + ($0.scenarioKey.map { [$0] } ?? []) }, what: "\(descriptor.id)'s options")
        var values = ProviderOptionValues()
        for option in allowed {
            // The flag, or the option's shorter scenario key (`flow:` for `adyen-flow`).
            let key = fields.values[option.flag] == nil ? option.scenarioKey ?? option.flag : option.flag
            guard let value = fields.values[key] else { continue }
            let written = try text(value, "options.\(key)")
            if option.isSwitch {
                guard ["true", "false"].contains(written) else { throw error(at: value, "options.\(key)", "must be true or false") }
                if written == "true" { values[option.flag] = "true" }
            } else {
                values[option.flag] = written
            }
        }
        if let problem = descriptor.optionProblem(values) { throw error(at: node, "options", problem) }
        return values.values
    }

    // MARK: Fields

    private func cart(_ node: Node) throws(ScenarioError) -> [ScenarioLine] {
        let items = try sequence(node, "cart", what: "a list of items (`- sku: MUG-ENAMEL` or `- name: …, price: …`)")
        guard !items.isEmpty else { throw error(at: node, "cart", "is empty; a cart needs at least one item") }
        var lines: [ScenarioLine] = []
        for (index, item) in items.enumerated() {
            let path = "cart[\(index)]"
            let fields = try mapping(item, path, allowed: ["sku", "name", "price", "quantity"], what: "an item")
            var quantity = 1
            if let node = fields["quantity"] { quantity = try count(node, path + ".quantity") }
            if let skuNode = fields["sku"] {
                for key in ["name", "price"] where fields[key] != nil {
                    throw error(at: fields.keyNodes[key] ?? item, "\(path).\(key)", "an item has either a sku (from the catalog) or a name and price, not both")
                }
                let sku = try text(skuNode, path + ".sku")
                guard catalog.product(sku: sku) != nil else {
                    throw error(at: skuNode, path + ".sku", "no SKU \"\(sku)\" in the catalog; it has \(list(catalog.products.map(\.sku)))")
                }
                lines.append(.sku(sku, quantity: quantity))
            } else {
                guard let nameNode = fields["name"], let priceNode = fields["price"] else {
                    throw error(at: item, path, "an item needs a sku, or a name and a price (e.g. `price: 19.99`)")
                }
                let price = try money(priceNode, path + ".price")
                guard price.isPositive else { throw error(at: priceNode, path + ".price", "must be more than zero") }
                lines.append(.item(name: try text(nameNode, path + ".name"), price: price, quantity: quantity))
            }
        }
        return lines
    }

    private func faults(_ node: Node) throws(ScenarioError) -> [FaultRule] {
        var rules: [FaultRule] = []
        for (index, item) in try sequence(node, "faults", what: "a list of faults").enumerated() {
            let path = "faults[\(index)]"
            if case .scalar = item {
                let spec = try text(item, path)
                do { rules.append(try FaultRule(spec: spec)) } catch { throw self.error(at: item, path, error.description) }
                continue
            }
            let fields = try mapping(item, path, allowed: ["method", "path", "kind", "count"], what: "a fault (or a 'METHOD PATH KIND[*N]' string)")
            guard let methodNode = fields["method"], let pathNode = fields["path"], let kindNode = fields["kind"] else {
                throw error(at: item, path, "a fault needs method, path and kind (count is optional), e.g. {method: POST, path: /customer-request, kind: 503}")
            }
            let method = try text(methodNode, path + ".method")
            guard FaultRule.methods.contains(method.uppercased()) else {
                throw error(at: methodNode, path + ".method", "\"\(method)\" is not an HTTP method the sandbox answers; use one of \(list(FaultRule.methods))")
            }
            let prefix = try text(pathNode, path + ".path")
            // Transcripts record a fault as its 'METHOD PATH KIND*N' spec, so the path has no spaces.
            guard FaultRule.isPathPrefix(prefix) else {
                throw error(at: pathNode, path + ".path", "must start with / and have no spaces, e.g. /v2/payments/capture")
            }
            let kindText = try text(kindNode, path + ".kind")
            guard let kind = FaultKind(rawValue: kindText.lowercased()) else {
                throw error(at: kindNode, path + ".kind", "\"\(kindText)\" is not a fault kind; use one of \(list(FaultKind.allCases.map(\.rawValue)))")
            }
            let times = try fields["count"].map { (node) throws(ScenarioError) in try count(node, path + ".count") } ?? 1
            rules.append(FaultRule(method: method, pathPrefix: prefix, kind: kind, remaining: times))
        }
        return rules
    }

    private func metadata(_ node: Node) throws(ScenarioError) -> [String: String] {
        guard case .mapping(let pairs) = node else { throw error(at: node, "metadata", "expected a mapping of keys to text, found \(node.kindDescription)") }
        var metadata: [String: String] = [:]
        for (key, value) in pairs {
            let name = try text(key, "metadata")
            metadata[name] = try text(value, "metadata.\(name)")
        }
        return metadata
    }

    private func sandbox(_ node: Node) throws(ScenarioError) -> ScenarioSandbox {
        let fields = try mapping(node, "sandbox", allowed: ["trigger_rotation", "request_lifetime"], what: "sandbox timings")
        var timings = ScenarioSandbox()
        if let node = fields["trigger_rotation"] { timings.triggerRotationSeconds = try seconds(node, "sandbox.trigger_rotation", in: InputLimits.triggerRotationSeconds) }
        if let node = fields["request_lifetime"] { timings.requestLifetimeSeconds = try seconds(node, "sandbox.request_lifetime", in: InputLimits.requestLifetimeSeconds) }
        return timings
    }

    private func expectation(_ node: Node) throws(ScenarioError) -> ScenarioExpectation {
        let fields = try mapping(node, "expect", allowed: ["state", "phase"], what: "an expectation (`state:` and optionally `phase:`)")
        guard let stateNode = fields["state"] else { throw error(at: node, "expect", "needs a state, e.g. `state: approved`") }
        let state = try text(stateNode, "expect.state")
        guard CheckoutState.allNames.contains(state) else {
            throw error(at: stateNode, "expect.state", "\"\(state)\" is not a state; use one of \(list(CheckoutState.allNames))")
        }
        var expectation = ScenarioExpectation(state: state)
        if let phaseNode = fields["phase"] {
            let phase = try text(phaseNode, "expect.phase")
            guard registry.phaseNames.contains(phase) else {
                throw error(at: phaseNode, "expect.phase", "\"\(phase)\" is not a phase; use one of \(list(registry.phaseNames))")
            }
            expectation.phase = phase
        }
        return expectation
    }

    // MARK: Node shapes

    /// A mapping's values by key, with the key nodes kept for pointing at them.
    struct Fields {
        var values: [String: Node] = [:]
        var keyNodes: [String: Node] = [:]
        subscript(key: String) -> Node? { values[key] }
    }

    private func mapping(_ node: Node, _ path: String, allowed: [String], what: String) throws(ScenarioError) -> Fields {
        guard case .mapping(let pairs) = node else { throw error(at: node, path, "expected \(what) (a mapping of keys), found \(node.kindDescription)") }
        var fields = Fields()
        for (key, value) in pairs {
            let name = try text(key, path)
            guard allowed.contains(name) else {
                let field = path.isEmpty ? name : "\(path).\(name)"
                throw error(at: key, field, "unknown key \"\(name)\"; \(path.isEmpty ? "a scenario" : path) takes \(list(allowed))")
            }
            fields.values[name] = value
            fields.keyNodes[name] = key
        }
        return fields
    }

    private func sequence(_ node: Node, _ path: String, what: String) throws(ScenarioError) -> [Node] {
        guard case .sequence(let items) = node else { throw error(at: node, path, "expected \(what), found \(node.kindDescription)") }
        return Array(items)
    }

    private func text(_ node: Node, _ path: String) throws(ScenarioError) -> String {
        guard case .scalar(let scalar) = node else { throw error(at: node, path, "expected text, found \(node.kindDescription)") }
        guard node.null == nil || scalar.style != .plain else { throw error(at: node, path, "is empty") }
        return scalar.string
    }

    private func money(_ node: Node, _ path: String) throws(ScenarioError) -> Money {
        let written = try text(node, path)
        let money: Money
        do { money = try Money(decimal: written, currency: catalog.currency) } catch {
            throw self.error(at: node, path, "\(error.description); write it like 19.99")
        }
        guard money.minorUnits <= InputLimits.minorUnits.upperBound else {
            let most = Money(minorUnits: InputLimits.minorUnits.upperBound, currency: catalog.currency).decimalString
            throw self.error(at: node, path, "\"\(written)\" is more than \(most), the most a checkout charges")
        }
        return money
    }

    private func count(_ node: Node, _ path: String) throws(ScenarioError) -> Int {
        let written = try text(node, path)
        let range = InputLimits.quantity
        guard let value = Int(written), range.contains(value) else {
            throw error(at: node, path, "\"\(written)\" is not a whole number of 1 or more (up to \(range.upperBound))")
        }
        return value
    }

    private func seconds(_ node: Node, _ path: String, in range: ClosedRange<Double>) throws(ScenarioError) -> Double {
        let written = try text(node, path)
        guard let value = Double(written), range.contains(value) else {
            throw error(at: node, path, "\"\(written)\" is not a number of seconds from \(InputLimits.describe(range) { $0.plainText })")
        }
        return value
    }

    private func list(_ names: [String]) -> String { names.joined(separator: ", ") }

    private func error(at node: Node, _ path: String, _ problem: String) -> ScenarioError {
        let mark = node.mark
        return ScenarioError(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, field: path, problem: problem)
    }
}
