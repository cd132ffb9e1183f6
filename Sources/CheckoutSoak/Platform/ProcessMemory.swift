import Foundation

/// A process's resident memory, in kilobytes: the only place the soak asks the operating system
/// about another process. Linux reads `/proc/PID/status` (VmRSS); macOS asks
/// `proc_pid_rusage` (its resident size). Nil when the process is gone or the platform has neither.
enum ProcessMemory {
    static func residentKilobytes(of pid: Int32) -> Int? {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "")
        #elseif canImport(Darwin)
        // Not compiled on this project's Linux CI: no Mac was reachable when it was written.
        var usage = rusage_info_v4()
        let result = withUnsafeMutablePointer(to: &usage) {
            $0.withMemoryRebound(to: rusage_info_t?.self, capacity: 1) { proc_pid_rusage(pid, RUSAGE_INFO_V4, $0) }
        }
        return result == 0 ? Int(usage.ri_resident_size / 1024) : nil
        #else
        return nil
        #endif
    }
}
