import Foundation

/// Turns each credential source into its value: an environment variable, a file, or a
/// command's output (a password manager's, say). Each failure names the profile, the option
/// and what to do, never the value.
public struct CredentialResolver: Sendable {
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public let flag: String
        public let source: CredentialSource
        public let problem: String
        public var description: String { "\(flag) (\(source.redactedDescription)): \(problem)" }
    }

    /// Runs a credential command; returns its exit status and standard output.
    public typealias CommandRunner = @Sendable (_ command: String) throws -> (status: Int32, output: Data)

    public var environment: [String: String]
    public var runCommand: CommandRunner
    /// A secret is a line or a few (a PEM key); anything larger is not one.
    public static let maximumBytes = 64 * 1024

    public init(environment: [String: String], runCommand: @escaping CommandRunner = CredentialCommand.run) {
        self.environment = environment
        self.runCommand = runCommand
    }

    public func value(of flag: String, from source: CredentialSource) throws(Failure) -> String {
        func fail(_ problem: String) -> Failure { Failure(flag: flag, source: source, problem: problem) }
        let value: String
        switch source {
        case .inline(let secret):
            value = secret
        case .environment(let name):
            guard let set = environment[name], !set.isEmpty else { throw fail("the environment variable \(name) is not set; export it, or change the profile") }
            value = set
        case .file(let written):
            let path = ConfigLocation.expandingTilde(written, environment: environment)
            do {
                let data = try InputFile.contents(of: path, kind: "a file holding only the secret", limit: Self.maximumBytes)
                value = try InputFile.text(data)
            } catch { throw fail("\(path) \(error.text)") }
        case .command(let command):
            let result: (status: Int32, output: Data)
            do { result = try runCommand(command) } catch { throw fail("could not be started: \(error.localizedDescription)") }
            guard result.status == 0 else { throw fail("exited with status \(result.status); run it yourself to see why") }
            guard result.output.count <= Self.maximumBytes else { throw fail("printed more than \(Self.maximumBytes) bytes; it should print only the secret") }
            guard let text = String(data: result.output, encoding: .utf8) else { throw fail("printed something that is not UTF-8 text") }
            value = text
        }
        let trimmed = Self.droppingTrailingNewlines(value)
        guard !trimmed.isEmpty else { throw fail("is empty") }
        return trimmed
    }

    /// Every credential's value or why not, in flag order: resolving profiles throws the first
    /// failure, `config check` reports them all.
    public func resolveAll(_ sources: [String: CredentialSource]) -> [(flag: String, source: CredentialSource, value: Result<String, Failure>)] {
        sources.sorted { $0.key < $1.key }.map { flag, source in
            (flag, source, Result { () throws(Failure) -> String in try value(of: flag, from: source) })
        }
    }

    /// Files and commands end their secret with a newline (`pass show`, `echo`); the secret doesn't.
    static func droppingTrailingNewlines(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == "\n" || last == "\r\n" || last == "\r" { text = text.dropLast() }
        return String(text)
    }
}

/// Credential commands run through `/bin/sh -c`, as `git`'s credential helpers do, with the
/// terminal still theirs (a password manager may ask for a passphrase) and stdout captured.
public enum CredentialCommand {
    public static func run(_ command: String) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Read before waiting: a secret larger than the pipe's buffer would otherwise deadlock.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }
}
