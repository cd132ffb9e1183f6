import Foundation

/// Runs the real `zbarimg` decoder, so the tests prove a scanner reads what we draw.
enum Zbar {
    /// `zbarimg` from PATH, or nil when it is not installed.
    static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("zbarimg") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// In CI the Makefile installs zbar-tools, so a missing decoder is a failure there,
    /// not a reason to skip.
    static var isCI: Bool {
        !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Decodes the image at `file`; returns zbarimg's `--raw` text without its final newline.
    static func decode(_ executable: URL, file: URL) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--raw", "-q", file.path]
        let output = Pipe()
        process.standardOutput = output
        // stderr goes to a file: two pipes read one after the other could deadlock if the
        // unread one filled up.
        let errorFile = file.appendingPathExtension("stderr")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw Failure(description: "could not create \(errorFile.path)")
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        defer { try? errorHandle.close() }
        process.standardError = errorHandle

        try process.run()
        // Drain stdout before waiting, else a full pipe would block zbarimg forever.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()

        guard process.terminationStatus == 0 else {
            let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw Failure(description: "zbarimg exited \(process.terminationStatus) (4 = no code found): \(stderr)")
        }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
