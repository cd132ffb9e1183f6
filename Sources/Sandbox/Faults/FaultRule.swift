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
    /// Close the connection without processing the request: it never reached the provider
    /// (unlike `reset`, whose request was processed before its response was lost).
    case drop
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
    /// The methods a rule may name: the ones the sandbox's routes answer, and `*` for any.
    public static let methods = ["*", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
    /// How many requests one rule may apply to.
    public static let counts = 1...10_000
    /// The longest path prefix a rule may hold.
    public static let maxPathPrefixLength = 1_024

    /// Parses 'METHOD PATH-PREFIX KIND[*N]'.
    public init(spec: String) throws(FaultSpecError) {
        let words = spec.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count == 3 else { throw FaultSpecError(spec: spec, problem: "expected three words, got \(words.count)") }
        let method = words[0].uppercased()
        guard Self.methods.contains(method) else {
            throw FaultSpecError(
                spec: spec, problem: "method \"\(words[0])\" is not an HTTP method the sandbox answers (one of \(Self.methods.joined(separator: ", ")))")
        }
        guard words[1].hasPrefix("/") else { throw FaultSpecError(spec: spec, problem: "the path prefix must start with /") }
        guard words[1].utf8.count <= Self.maxPathPrefixLength else {
            throw FaultSpecError(spec: spec, problem: "the path prefix is over \(Self.maxPathPrefixLength) bytes")
        }
        let kindAndCount = words[2].split(separator: "*", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let kind = FaultKind(rawValue: kindAndCount[0].lowercased()) else {
            throw FaultSpecError(spec: spec, problem: "\(kindAndCount[0]) is not a fault kind")
        }
        var count = 1
        if kindAndCount.count == 2 {
            let text = kindAndCount[1]
            // Digits only: Int() would also take "+3", and a huge count must not trap.
            guard !text.isEmpty, text.utf8.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }), let parsed = Int(text),
                Self.counts.contains(parsed)
            else {
                throw FaultSpecError(
                    spec: spec, problem: "count \"*\(text)\" is not a positive count from \(Self.counts.lowerBound) to \(Self.counts.upperBound)")
            }
            count = parsed
        }
        self.init(method: method, pathPrefix: words[1], kind: kind, remaining: count)
    }

    /// A path prefix a spec can carry: from `/`, with no whitespace (which separates its words).
    public static func isPathPrefix(_ prefix: String) -> Bool {
        prefix.hasPrefix("/") && !prefix.contains(where: \.isWhitespace)
    }
}
