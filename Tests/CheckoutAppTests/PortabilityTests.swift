import Foundation
import TestSupport
import Testing

/// The package builds on Linux and macOS by construction: a platform's C library, its `/proc`,
/// `#if os(…)` / `canImport(…)` on a platform, and the C declarations known to differ between
/// glibc and Darwin are named only in a `Platform/` folder (one small file per concern), never in
/// the rest of Sources/, Resources/, Tests/, Benchmarks/ or Fuzz/.
@Suite struct PortabilityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Everything that is compiled: the product, its tests and the benchmark floors.
    static let compiled = ["Sources", "Resources", "Tests", "Benchmarks", "Fuzz"].map { root.appendingPathComponent($0) }

    /// What names a platform: its C library module, its kernel's files, a platform condition.
    static let platformNames = #"\b(Glibc|Musl|Darwin)\b|"/proc/|os\((Linux|macOS|iOS)\)|canImport\((Glibc|Musl|Darwin)\)"#
        + "|" + differingDeclarations

    /// What compiles on one platform only, or means something else on the other: posix_spawn's
    /// values (structs on glibc, pointers on Darwin), socket types (an enum on glibc), the
    /// no-SIGPIPE flags, Darwin's process and Mach calls, the window-size ioctls (Darwin's are
    /// macros Swift cannot import), glibc's spawn flag for a new session, and glibc's C.UTF-8
    /// locale (macOS has none by that name).
    static let differingDeclarations =
        #"posix_spawn_file_actions_t\(\)|posix_spawnattr_t\(\)|\bSOCK_(STREAM|DGRAM)\b|\b(MSG_NOSIGNAL|SO_NOSIGPIPE)\b"#
        + #"|\b(proc_pid_rusage|task_info|mach_task_self_?)\b|\bTIOC[GS]WINSZ\b|\bPOSIX_SPAWN_SETSID\b|"C\.UTF-8""#

    /// `path:line: text` of every line outside a Platform/ folder that names a platform.
    static func offenders(in root: URL) throws -> [String] {
        guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var found: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" && !file.pathComponents.contains("Platform") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), code.range(of: platformNames, options: .regularExpression) != nil else { continue }
                found.append("\(file.path.replacingOccurrences(of: root.path + "/", with: "")):\(number + 1): \(code)")
            }
        }
        return found.sorted()
    }

    @Test func noPlatformIsNamedOutsideThePlatformFolders() async throws {
        // This file names the platforms it looks for; it is the check, not a use. Every file is
        // read on a thread of its own (`onOwnThread`): the scan takes seconds in a debug build.
        let found = try await onOwnThread { try Self.compiled.flatMap { try Self.offenders(in: $0) } }
            .filter { !$0.hasPrefix("CheckoutAppTests/PortabilityTests.swift") }
        #expect(found.isEmpty, "move these behind a Platform/ file:\n\(found.joined(separator: "\n"))")
    }

    /// The check finds what it is for (a test that cannot fail proves nothing).
    @Test func theCheckFindsAGlibcImportAProcReadAndADifferingDeclaration() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("portability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Platform"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "import Glibc\nlet a = 1\n".write(to: root.appendingPathComponent("Leaky.swift"), atomically: true, encoding: .utf8)
        try "let s = try String(contentsOfFile: \"/proc/self/status\")\n#if os(Linux)\n#endif\n// Glibc in a comment is fine\n"
            .write(to: root.appendingPathComponent("Reader.swift"), atomically: true, encoding: .utf8)
        try "var actions = posix_spawn_file_actions_t()\nlet fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)\nenv[\"LANG\"] = \"C.UTF-8\"\n"
            .write(to: root.appendingPathComponent("Spawner.swift"), atomically: true, encoding: .utf8)
        try "import Darwin\nvar actions: posix_spawn_file_actions_t? = nil\n".write(to: root.appendingPathComponent("Platform/Fine.swift"), atomically: true, encoding: .utf8)
        let found = try Self.offenders(in: root)
        #expect(
            found == [
                "Leaky.swift:1: import Glibc", "Reader.swift:1: let s = try String(contentsOfFile: \"/proc/self/status\")", "Reader.swift:2: #if os(Linux)",
                "Spawner.swift:1: var actions = posix_spawn_file_actions_t()", "Spawner.swift:2: let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)",
                "Spawner.swift:3: env[\"LANG\"] = \"C.UTF-8\"",
            ])
    }
}
