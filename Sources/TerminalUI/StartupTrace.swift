
/// Where the time to the first frame goes (`make bench`'s P1; Benchmarks/README.md), and through
/// a headless run (P2: run, session, sandbox-listening, session-ready, drive, driven, stopped):
/// with CHECKOUT_STARTUP_TRACE=FILE, each mark appends "label nanoseconds" (CLOCK_MONOTONIC) to FILE.
public enum StartupTrace {
    public static func mark(_ label: String) {
        guard let path = getenv("CHECKOUT_STARTUP_TRACE") else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let line = "\(label) \(Int(now.tv_sec) * 1_000_000_000 + now.tv_nsec)\n"
        guard let file = fopen(path, "a") else { return }
        fputs(line, file)
        fclose(file)
    }
}
