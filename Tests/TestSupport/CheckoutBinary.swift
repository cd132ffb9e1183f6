import Foundation

/// Runs the real `checkout` executable, as a user would from a shell.
public enum CheckoutBinary {
    public struct Outcome: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        /// The state names printed as `state: NAME …` lines, in order.
        public var states: [String] {
            lines.filter { $0.hasPrefix("state: ") }.map { String($0.dropFirst(7).prefix { $0 != " " }) }
        }
    }

    /// The built binary: $CHECKOUT_BINARY, or `checkout` beside the test bundle.
    public static var url: URL {
        if let override = ProcessInfo.processInfo.environment["CHECKOUT_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("checkout")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/checkout")
    }

    /// Runs `checkout ARGUMENTS` to completion; kills it after `timeout` seconds.
    public static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) async throws -> Outcome {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CASHAPP_CLIENT_ID")
        env.removeValue(forKey: "CASHAPP_BRAND_ID")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        let outData = Task.detached { stdout.fileHandleForReading.readDataToEndOfFile() }
        let errData = Task.detached { stderr.fileHandleForReading.readDataToEndOfFile() }
        try process.run()
        let killer = Task.detached {
            try await Task.sleep(for: .seconds(timeout))
            process.terminate()
        }
        let out = await outData.value
        let err = await errData.value
        process.waitUntilExit()
        killer.cancel()
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// Starts `checkout ARGUMENTS` and leaves it running, with its first stdout line.
    public static func start(_ arguments: [String]) async throws -> (process: Process, firstLine: String) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let line = await Task.detached { () -> String in
            var bytes = Data()
            while true {
                let chunk = stdout.fileHandleForReading.readData(ofLength: 1)
                if chunk.isEmpty || chunk == Data("\n".utf8) { break }
                bytes.append(chunk)
            }
            return String(decoding: bytes, as: UTF8.self)
        }.value
        return (process, line)
    }
}
