import Foundation
import Synchronization

/// The real opener: starts `BrowserCommand`'s program detached from the screen (its own session,
/// no terminal, stdin/stdout/stderr on /dev/null, so it cannot draw on it) and reports a start
/// that failed, or an opener that gave up at once (xdg-open with no browser configured).
struct BrowserLauncher: LinkOpener {
    /// How long an opener may take to fail before the link counts as opened; a browser may run for hours.
    static let failureWindow: Duration = .seconds(2)

    /// The process's environment (read when a link is opened, not at start-up) unless given.
    var environment: [String: String]?

    init(environment: [String: String]? = nil) {
        self.environment = environment
    }

    func open(_ url: String) async -> String? {
        let environment = environment ?? ProcessInfo.processInfo.environment
        var problem = "no browser command is set"
        for command in BrowserCommand.candidates(for: url, browserVariable: environment["BROWSER"]) {
            let pid: pid_t
            switch await DetachedProcess.spawnWaitingOutBusyText(command.arguments, environment: environment) {
            case .success(let started): pid = started
            case .failure(let failure):
                let code = failure.errno
                problem = code == ENOENT ? "\(command.name) is not installed" : "\(command.name) could not start: \(String(cString: strerror(code)))"
                continue
            }
            guard let status = await DetachedProcess.exitStatus(of: pid, within: Self.failureWindow) else { return nil }
            guard status != 0 else { return nil }
            problem = "\(command.name) failed (\(status < 0 ? "signal \(-status)" : "exit status \(status)"))"
        }
        return problem
    }
}

/// A child process started with posix_spawn (argv, no shell) and reaped on a thread of its own.
enum DetachedProcess {
    /// Starts `arguments` (the program found on PATH); its pid, or the errno why not.
    struct SpawnFailure: Error {
        let errno: Int32
    }

    static func spawn(_ arguments: [String], environment: [String: String]) -> Result<pid_t, SpawnFailure> {
        // A session of its own (no controlling terminal: it cannot open /dev/tty and draw on the
        // screen, nor get the terminal's SIGHUP), default signals and an empty mask.
        let files = [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO].map { fd in
            PosixSpawn.FileAction.open(fd, "/dev/null", flags: fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
        }
        return PosixSpawn.spawn(
            arguments, environment: environment, files: files, defaultSignals: [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD],
            newSession: true
        ).mapError { SpawnFailure(errno: $0.errno) }
    }

    /// `spawn`, tried again for up to 200 ms while it fails with ETXTBSY: a script just written
    /// is still open for writing in a child another thread forked meanwhile, whose exec closes it.
    static func spawnWaitingOutBusyText(_ arguments: [String], environment: [String: String]) async -> Result<pid_t, SpawnFailure> {
        var result = spawn(arguments, environment: environment)
        for _ in 0..<20 {
            guard case .failure(let failure) = result, failure.errno == ETXTBSY else { break }
            try? await Task.sleep(for: .milliseconds(10))
            result = spawn(arguments, environment: environment)
        }
        return result
    }

    /// The exit status (a negative signal number when killed) if the child ends within `window`;
    /// nil while it still runs. Reaping continues on its thread after the window.
    static func exitStatus(of pid: pid_t, within window: Duration) async -> Int32? {
        await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            let reaper = Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 {
                    guard errno == EINTR else { return once.resume(nil) }
                }
                let signal = status & 0x7F
                once.resume(signal == 0 ? (status >> 8) & 0xFF : -signal)
            }
            reaper.name = "browser-reaper"
            reaper.start()
            let (seconds, attoseconds) = window.components
            DispatchQueue.global().asyncAfter(deadline: .now() + Double(seconds) + Double(attoseconds) / 1e18) { once.resume(nil) }
        }
    }
}

/// Resumes a continuation once, with whichever answer comes first.
private final class ResumeOnce: Sendable {
    private let continuation: Mutex<CheckedContinuation<Int32?, Never>?>

    init(_ continuation: CheckedContinuation<Int32?, Never>) { self.continuation = Mutex(continuation) }

    func resume(_ value: Int32?) { continuation.withLock { $0.take() }?.resume(returning: value) }
}
