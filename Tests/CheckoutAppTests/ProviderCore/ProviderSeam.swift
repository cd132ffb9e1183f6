import CheckoutApp
import Foundation

/// The provider seam as a reading of `Sources/`: which lines outside a provider's own folders
/// name it, by id (`adyen`, `cashApp`, `isSquareNonce`) or by a type declared in its folders.
struct ProviderSeam: Sendable {
    /// A provider that may name another's types and id, with why.
    struct Dependency: Sendable {
        let provider: String
        let uses: String
        let reason: String
    }

    /// The dependencies that are the design, each written where the depending provider's code is.
    static let dependencies = [
        Dependency(provider: "afterpay", uses: "cashapp", reason: "Afterpay's checkout is paid through Cash App Pay's customer request"),
        Dependency(provider: "adyen", uses: "cashapp", reason: "Adyen's Cash App Pay component makes Cash App's customer request"),
        Dependency(provider: "wallet", uses: "adyen", reason: "Adyen is one of the processors that charge the wallet's token"),
        Dependency(provider: "wallet", uses: "square", reason: "Square is the other processor, and charges the card form's keyed nonce"),
    ]

    /// The one file outside the providers' folders that lists them.
    static let registryFile = "Sources/CheckoutApp/Providers/ProviderRegistry.swift"

    /// A line that names a provider it should not.
    struct Leak: CustomStringConvertible {
        let file: String
        let line: Int
        let text: String
        let names: [String]
        var description: String { "\(file):\(line): \(text)    [\(names.joined(separator: ", "))]" }
    }

    /// A source file: where it is, whose folder it is in, its code lines.
    struct SourceFile: Sendable {
        let path: String
        let provider: String?
        let code: [Substring]
        let text: [Substring]
    }

    let providers: [String]
    let files: [SourceFile]
    /// Type names declared in each provider's folders (top level, not private).
    let declaredTypes: [Substring: Set<String>]

    /// Reads every Swift file under the package's `Sources/`; a provider's folders are those named as its id.
    init(packageRoot: URL, providers: [String]) throws {
        self.providers = providers
        let sources = packageRoot.appendingPathComponent("Sources")
        var files: [SourceFile] = []
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(packageRoot.standardizedFileURL.path.count + 1))
            let folders = path.split(separator: "/").dropLast().map { $0.lowercased() }
            let source = try String(contentsOf: url, encoding: .utf8)
            files.append(SourceFile(
                path: path, provider: providers.first { folders.contains($0) },
                code: SwiftCodeText.lines(of: source), text: source.split(separator: "\n", omittingEmptySubsequences: false)))
        }
        self.files = files.sorted { $0.path < $1.path }
        var declared: [Substring: Set<String>] = [:]
        var neutral = Set<Substring>()
        let declaration = try Self.declaration()
        for file in files {
            // Only a line that starts at the margin can declare a top-level type.
            for line in file.code where line.first.map({ $0.isLetter || $0 == "@" }) == true {
                guard let name = (try? declaration.prefixMatch(in: line))?.output[1].substring else { continue }
                if let provider = file.provider { declared[name, default: []].insert(provider) } else { neutral.insert(name) }
            }
        }
        // A name declared outside the providers too is not one provider's to claim.
        self.declaredTypes = declared.filter { !neutral.contains($0.key) }
    }

    /// A top-level type declaration that is not private; its name is the capture.
    static func declaration() throws -> Regex<AnyRegexOutput> {
        try Regex(
            #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|open|final|indirect|nonisolated)\s+)*(?:struct|enum|class|actor|protocol|typealias)\s+([A-Z]\w*)"#)
    }

    /// The providers each may name: itself and those it depends on.
    func allowed(for provider: String?) -> Set<String> {
        guard let provider else { return [] }
        return Set([provider] + Self.dependencies.filter { $0.provider == provider }.map(\.uses))
    }

    /// The lines naming a provider outside its folders, in file order.
    func leaks() -> [Leak] {
        var leaks: [Leak] = []
        for file in files where file.path != Self.registryFile {
            let allowed = allowed(for: file.provider)
            for (index, line) in file.code.enumerated() {
                let names = namedProviders(in: line).filter { !allowed.contains($0.provider) }
                guard !names.isEmpty else { continue }
                leaks.append(Leak(
                    file: file.path, line: index + 1, text: String(file.text[index].trimmingCharacters(in: .whitespaces)),
                    names: names.map { "\($0.provider): \($0.identifier)" }))
            }
        }
        return leaks
    }

    /// Each identifier in `line` that names a provider, with the provider: by id in its words, or as a type of its.
    func namedProviders(in line: Substring) -> [(provider: String, identifier: Substring)] {
        var found: [(provider: String, identifier: Substring)] = []
        for identifier in Self.identifiers(in: line) {
            var named = declaredTypes[identifier] ?? []
            let lowercased = identifier.lowercased()
            if providers.contains(where: { lowercased.contains($0) }) { named.formUnion(Self.words(of: identifier).mentioning(providers)) }
            for provider in named.sorted() { found.append((provider, identifier)) }
        }
        return found
    }

    static func identifiers(in line: Substring) -> [Substring] {
        var result: [Substring] = []
        var start: Substring.Index?
        for index in line.indices {
            let character = line[index]
            let part = character == "_" || (character.isASCII && (character.isLetter || character.isNumber))
            if part, start == nil, !character.isNumber { start = index }
            if !part, let first = start {
                result.append(line[first..<index])
                start = nil
            }
        }
        if let first = start { result.append(line[first...]) }
        return result
    }

    /// `isSquareNonce` → is, square, nonce; `AdyenHMACKey` → adyen, hmac, key.
    static func words(of identifier: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(identifier)
        for (index, character) in characters.enumerated() {
            guard character != "_" else {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if let previous = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord = (character.isUppercase && previous.isLowercase)
                    || (character.isUppercase && previous.isUppercase && next?.isLowercase == true)
                    || (character.isNumber != previous.isNumber)
                if startsWord {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }
    }
}

extension [String] {
    /// The provider ids these words spell, alone or run together (`cash`, `app` → cashapp).
    func mentioning(_ providers: [String]) -> [String] {
        var found: [String] = []
        for start in indices {
            var joined = ""
            for word in self[start...] {
                joined += word
                if providers.contains(joined) { found.append(joined) }
                guard providers.contains(where: { $0.hasPrefix(joined) }) else { break }
            }
        }
        return found
    }
}
