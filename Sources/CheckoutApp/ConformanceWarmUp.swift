import CConformanceWarmUp
import Dispatch
import Foundation

/// The Swift runtime answers a dynamic cast it has not seen before by reading all 14,000 of the
/// binary's conformance records, and a session's start asks about a hundred such questions (NIO
/// checking each new channel handler's type, the HTTP client's log metadata, ServiceLifecycle
/// naming its services): a third of a headless checkout's CPU, on its critical path. The
/// questions, recorded by `make warm-up-list`, are asked on the other core as the process
/// starts, so the answers are cached by the time the session asks them (a headless checkout
/// 24.9 → 21.5 ms, median of 60 runs each, interleaved).
public enum ConformanceWarmUp {
    /// The commands that start a session or a sandbox with no screen to draw first. The
    /// screen's first frame needs the other core for the catalog, and asking there first made
    /// it slower (P1 1.7× → 2.3× its floor).
    static let headlessCommands: Set<String> = ["run", "sandbox"]

    /// Whether `arguments` (the command line after the program's name) start a headless
    /// session or sandbox (and do not ask for help).
    public static func startsHeadlessSession(_ arguments: [String]) -> Bool {
        guard let first = arguments.first, headlessCommands.contains(first) else { return false }
        return !arguments.contains { $0 == "-h" || $0 == "--help" }
    }

    /// `CHECKOUT_CONFORMANCE_WARM_UP=0` asks nothing: `make warm-up-list` records the questions
    /// a start asks by itself, and a measurement can compare with and without.
    static let switchVariable = "CHECKOUT_CONFORMANCE_WARM_UP"

    /// Whether the variable's value (nil when unset) switches the warm-up off.
    static func isSwitchedOff(by value: String?) -> Bool { value == "0" }

    /// Starts asking on a dispatch worker when `arguments` start a headless session or sandbox.
    public static func start(for arguments: [String]) {
        guard startsHeadlessSession(arguments), !isSwitchedOff(by: getenv(switchVariable).map { String(cString: $0) }) else { return }
        DispatchQueue.global(qos: .userInitiated).async { _ = conformance_warm_up_run() }
    }

    /// Asks them all now; returns how many entries were asked (those this binary lacks are skipped).
    static func runNow() -> Int { Int(conformance_warm_up_run()) }

    /// Whether this platform asks (Linux; elsewhere `runNow` asks nothing).
    static var asksOnThisPlatform: Bool { conformance_warm_up_supported() == 1 }

    /// How many entries the recorded list has.
    static var entryCount: Int { Int(conformance_warm_up_entry_count()) }
}
