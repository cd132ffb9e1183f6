import Hummingbird

/// The methods each registered path answers, so a known path asked with another method gets
/// 405 and an `Allow` list rather than the router's empty 404.
struct RouteMethods: Sendable {
    private struct Route: Sendable {
        let segments: [Substring]
        let methods: Set<HTTPRequest.Method>
    }

    /// A registered route: its method, and its path as the router spells it.
    struct Entry: Sendable, Equatable {
        let method: HTTPRequest.Method
        let path: String
    }

    private let routes: [Route]

    /// From the routes as they were registered (`OwnedRoutes`): asking Hummingbird's router for
    /// them walks its whole tree, a fifth of the sandbox's start.
    init(_ registered: [Entry]) {
        let byPath = Dictionary(grouping: registered, by: \.path)
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
