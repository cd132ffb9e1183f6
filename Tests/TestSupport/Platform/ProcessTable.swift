import Foundation

/// Which processes are children of a process: the tests' only look at the process table.
/// Linux reads /proc (no procps needed); macOS asks `pgrep -P` (not yet run on a Mac).
enum ProcessTable {
    static func children(of parent: Int32, named name: String) -> [Int32] {
        #if os(Linux)
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init)
        return pids.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return false }
            let command = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return command == name && fields.count > 1 && Int32(fields[1]) == parent
        }
        #else
        let pgrep = Process()
        pgrep.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        pgrep.arguments = ["-P", String(parent), "-x", name]
        let output = Pipe()
        pgrep.standardOutput = output
        guard (try? pgrep.run()) != nil else { return [] }
        pgrep.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").compactMap { Int32($0) }
        #endif
    }

    /// How many write calls the process has made so far (Linux keeps the count in /proc/PID/io);
    /// nil where the system does not count them (macOS).
    static func writeCalls(of pid: Int32) -> Int? {
        #if os(Linux)
        guard let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        let line = io.split(separator: "\n").first { $0.hasPrefix("syscw:") }
        return line.flatMap { Int($0.dropFirst("syscw:".count).trimmingCharacters(in: .whitespaces)) }
        #else
        return nil
        #endif
    }
}
