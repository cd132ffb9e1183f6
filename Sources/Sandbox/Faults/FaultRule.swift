/// What an injected fault does to a matching request.
public enum FaultKind: String, Codable, Hashable, Sendable, CaseIterable {
    /// Answer with this HTTP status and the provider's error body, without processing.
    case internalServerError = "500", serviceUnavailable = "503", gatewayTimeout = "504", rateLimited = "429"
    /// Answer nothing within the client's timeout (the request is not processed).
    case timeout
    /// Process the request, then close the connection without answering: the response is lost.
    case reset
    /// Process the request, then answer 200 with a body that is not JSON.
    case malformed
    /// Answer normally, after 3 s.
    case slow
}

/// One `--fault 'METHOD PATH-PREFIX KIND[*N]'`: the next N requests whose method and path
/// match get KIND.
public struct FaultRule: Codable, Hashable, Sendable, CustomStringConvertible {
    public var method: String
    public var pathPrefix: String
    public var kind: FaultKind
    /// How many more matching requests it applies to.
    public var remaining: Int

    public init(method: String, pathPrefix: String, kind: FaultKind, remaining: Int = 1) {
        self.method = method.uppercased()
        self.pathPrefix = pathPrefix
        self.kind = kind
        self.remaining = remaining
    }

    public var description: String { "\(method) \(pathPrefix) \(kind.rawValue)*\(remaining)" }

    public func matches(method: String, path: String) -> Bool {
        remaining > 0 && (self.method == "*" || self.method == method.uppercased()) && path.hasPrefix(pathPrefix)
    }

    enum CodingKeys: String, CodingKey {
        case method, kind, remaining
        case pathPrefix = "path_prefix"
    }
}

/// A fault spec that cannot be used, with what is wrong and an example.
public struct FaultSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    public let spec: String
    public let problem: String
    public var description: String {
        "fault \"\(spec)\": \(problem). Write it as 'METHOD PATH-PREFIX KIND[*N]', e.g. 'POST /v2/payments/capture reset*2'; "
            + "KIND is one of \(FaultKind.allCases.map(\.rawValue).joined(separator: ", "))"
    }
}

extension FaultRule {
    /// Parses 'METHOD PATH-PREFIX KIND[*N]'.
    public init(spec: String) throws(FaultSpecError) {
        let words = spec.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count == 3 else { throw FaultSpecError(spec: spec, problem: "expected three words, got \(words.count)") }
        let method = words[0].uppercased()
        guard Self.isMethod(method) else {
            throw FaultSpecError(spec: spec, problem: "\(words[0]) is not an HTTP method")
        }
        guard Self.isPathPrefix(words[1]) else { throw FaultSpecError(spec: spec, problem: "the path prefix must start with /") }
        let kindAndCount = words[2].split(separator: "*", maxSplits: 1).map(String.init)
        // A lone "*" splits into nothing.
        guard let kindText = kindAndCount.first, let kind = FaultKind(rawValue: kindText.lowercased()) else {
            throw FaultSpecError(spec: spec, problem: "\(kindAndCount.first ?? words[2]) is not a fault kind")
        }
        var count = 1
        if kindAndCount.count == 2 {
            guard let parsed = Int(kindAndCount[1]), parsed > 0 else {
                throw FaultSpecError(spec: spec, problem: "*\(kindAndCount[1]) is not a positive count")
            }
            count = parsed
        }
        self.init(method: method, pathPrefix: words[1], kind: kind, remaining: count)
    }

    /// `*` (any) or an HTTP method's letters, as a spec's first word.
    public static func isMethod(_ method: String) -> Bool {
        method == "*" || (!method.isEmpty && method.allSatisfy { $0.isASCII && $0.isLetter })
    }

    /// A path prefix a spec can carry: from `/`, with no whitespace (which separates its words).
    public static func isPathPrefix(_ prefix: String) -> Bool {
        prefix.hasPrefix("/") && !prefix.contains(where: \.isWhitespace)
    }
}
