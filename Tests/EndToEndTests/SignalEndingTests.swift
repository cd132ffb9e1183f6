import Foundation
import Testing
import TestSupport

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT end `checkout run` and `checkout sandbox` cleanly, with
/// 128 + the signal; an interrupted `run --record` still writes its transcript.
@Suite struct SignalEndingTests {
    private func waitUntil(_ process: ChildProcess, prints marker: String, in stream: KeyPath<ChildProcess, String>) async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while !process[keyPath: stream].contains(marker), process.status == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(process[keyPath: stream].contains(marker), "\(process.stdout)\(process.stderr)")
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func anInterruptedRecordedRunWritesAReplayableTranscript(signal: Int32) async throws {
        let transcript = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-\(UUID().uuidString).har").path
        defer { try? FileManager.default.removeItem(atPath: transcript) }
        let run = try ChildProcess([CheckoutBinary.url.path, "run", "--customer", "none", "--record", transcript])
        try await waitUntil(run, prints: "state: polling", in: \.stdout)
        run.signal(signal)
        let status = await run.exit(timeout: 10)
        #expect(status == 128 + signal, "exit \(status); stderr: \(run.stderr)")
        #expect(run.stderr.contains("interrupted: SIG"), "\(run.stderr)")
        #expect(run.stderr.contains("transcript: wrote"), "\(run.stderr)")
        #expect(!run.stderr.contains("Backtrace"), "\(run.stderr)")
        let replay = try await CheckoutBinary.run(["replay", "--headless", transcript])
        #expect(replay.states.last == "polling", "\(replay.stdout)\(replay.stderr)")
        #expect(replay.lines.last?.hasPrefix("interrupted by SIG") == true, "\(replay.stdout)")
        #expect(replay.status == 2)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func theSandboxStopsOnEverySignal(signal: Int32) async throws {
        let (server, _) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        try await waitUntil(server, prints: "Ctrl-C", in: \.stderr)
        server.signal(signal)
        let status = await server.exit(timeout: 10)
        #expect(status == 128 + signal, "exit \(status); stderr: \(server.stderr)")
        #expect(server.stderr.contains("stopping"), "\(server.stderr)")
        #expect(!server.stderr.contains("Backtrace"), "\(server.stderr)")
    }
}
