import Hummingbird

/// The methods each registered path answers, so a known path asked with another method gets
/// 405 and an `Allow` list rather than the router's empty 404.
struct RouteMethods: Sendable {
    private struct Route: Sendable {
        let segments: [Substring]
        let methods: Set<HTTPRequest.Method>
    }

    private let routes: [Route]

    init(_ described: [Router<SandboxRequestContext>.RouteDescription]) {
        let byPath = Dictionary(grouping: described, by: \.path.description)
        routes = byPath.map { path, entries in
            Route(segments: path.split(separator: "/"), methods: Set(entries.map(\.method)))
        }
    }

    /// The methods some route answers on `path`, sorted; nil when no route has this path.
    func allowed(on path: String) -> [String]? {
        let segments = path.split(separator: "/")
        let methods = routes.filter { Self.matches($0.segments, segments) }.flatMap(\.methods)
        return methods.isEmpty ? nil : Set(methods.map(\.rawValue)).sorted()
    }

    /// Segments match one for one, a `:name` or `{name}` capture or `*` matching any one, `**` the rest.
    private static func matches(_ pattern: [Substring], _ path: [Substring]) -> Bool {
        for (index, part) in pattern.enumerated() {
            if part == "**" { return true }
            guard index < path.count else { return false }
            let capture = part.hasPrefix(":") || part == "*" || (part.hasPrefix("{") && part.hasSuffix("}"))
            guard capture || part == path[index] else { return false }
        }
        return pattern.count == path.count
    }
}
