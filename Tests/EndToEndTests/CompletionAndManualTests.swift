import Foundation
import Testing
import TestSupport

/// Shell completions as ArgumentParser writes them, loaded by a real bash; the custom ones
/// (profile names) answered by the binary; the man page rendered by man.
@Suite struct CompletionAndManualTests {
    private func shell(_ script: String, environment: [String: String] = [:]) async throws -> CheckoutBinary.Outcome {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        // bash from PATH: macOS's /bin/bash is 3.2, too old for the completion script; Homebrew's is current.
        let child = try ChildProcess(["bash", "-c", script], environment: env)
        let status = await child.exit(timeout: 60)
        return CheckoutBinary.Outcome(status: status, stdout: child.stdout, stderr: child.stderr)
    }

    @Test func theBashScriptParsesAndRegistersItsCompletion() async throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-completion-\(UUID().uuidString).bash")
        defer { try? FileManager.default.removeItem(at: script) }
        let generated = try await CheckoutBinary.run(["--generate-completion-script", "bash"])
        #expect(generated.status == 0)
        try generated.stdout.write(to: script, atomically: true, encoding: .utf8)
        let syntax = try await shell("bash -n '\(script.path)'")
        #expect(syntax.status == 0, "\(syntax.stderr)")
        let registered = try await shell("source '\(script.path)' && complete -p checkout")
        #expect(registered.status == 0, "\(registered.stderr)")
        #expect(registered.stdout.contains("checkout"), "\(registered.stdout)")
        // Subcommands, provider ids and scenario files are in it.
        for word in ["config", "providers", "'cashapp'$'\\n''afterpay'", "--profile"] {
            #expect(generated.stdout.contains(word), "\(word) missing from the bash completion")
        }
    }

    @Test(arguments: ["zsh", "fish"]) func theOtherShellsScriptsAreGenerated(shell name: String) async throws {
        let generated = try await CheckoutBinary.run(["--generate-completion-script", name])
        #expect(generated.status == 0)
        #expect(generated.stdout.contains("config") && generated.stdout.contains("--profile"))
    }

    /// `checkout run …` is first parsed as `run` alone, which leaves a completion-script request
    /// to the root's parse: the script is still the whole program's.
    @Test func aCompletionScriptRequestAfterASubcommandGetsTheWholeScript() async throws {
        let generated = try await CheckoutBinary.run(["run", "--generate-completion-script", "bash"])
        #expect(generated.status == 0, "\(generated.stderr)")
        for word in ["config", "providers", "--profile"] {
            #expect(generated.stdout.contains(word), "\(word) missing from the bash completion")
        }
    }

    @Test func profileNamesCompleteFromTheConfigFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(atPath: folder.path + "/checkout", withIntermediateDirectories: true)
        try "profiles:\n  staging-eu: {}\n  prod-us: {}\n".write(toFile: folder.path + "/checkout/config.yaml", atomically: true, encoding: .utf8)
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-completion-\(UUID().uuidString).bash")
        defer { try? FileManager.default.removeItem(at: script) }
        try (try await CheckoutBinary.run(["--generate-completion-script", "bash"])).stdout.write(to: script, atomically: true, encoding: .utf8)
        // What bash offers after `checkout run --profile `, as the completion function computes it.
        let binaryFolder = CheckoutBinary.url.deletingLastPathComponent().path
        let offered = try await shell(
            """
            source '\(script.path)'
            COMP_WORDS=(checkout run --profile ''); COMP_CWORD=3; COMP_LINE='checkout run --profile '; COMP_POINT=${#COMP_LINE}
            _checkout checkout '' --profile 2>/dev/null || "$(complete -p checkout | sed 's/.*-F \\([^ ]*\\).*/\\1/')" checkout '' --profile
            printf '%s\\n' "${COMPREPLY[@]}"
            """, environment: ["XDG_CONFIG_HOME": folder.path, "PATH": binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")])
        #expect(offered.stdout.contains("staging-eu") && offered.stdout.contains("prod-us"), "\(offered.stdout)\(offered.stderr)")
    }

    @Test func theManPageRendersAndNamesEveryCommand() async throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Docs/checkout.1").standardized
        let rendered = try await shell("MANPAGER=cat MANWIDTH=100 man -l '\(page.path)'")
        #expect(rendered.status == 0, "\(rendered.stderr)")
        for word in ["checkout", "run", "replay", "sandbox", "providers", "config", "--profile", "EXIT CODES"] {
            #expect(rendered.stdout.contains(word), "\(word) missing from the man page")
        }
    }
}
