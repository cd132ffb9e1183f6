import Foundation

/// posix_spawnp with its file actions and attributes, whose C types differ between the
/// platforms: structs on Linux, opaque pointers (`void *`, imported as optionals) on Darwin.
/// The rest of the code says what the child gets; only this file declares the C values.
public enum PosixSpawn {
    /// Why a child did not start: posix_spawnp's errno.
    public struct Failure: Error, Sendable {
        public let errno: Int32
    }

    /// What one of the child's descriptors is set to before it runs.
    public enum FileAction: Sendable {
        /// `descriptor` opened on `path`.
        case open(_ descriptor: Int32, _ path: String, flags: Int32, mode: mode_t = 0)
        /// `descriptor` a copy of the parent's `source`.
        case duplicate(_ source: Int32, as: Int32)
    }

    /// Starts `arguments[0]` (looked up in PATH) with `environment`, its descriptors opened on
    /// `files`, the signals in `defaultSignals` (nil: all) at their default action, none blocked,
    /// and with `newSession` in a session of its own (no controlling terminal).
    public static func spawn(
        _ arguments: [String], environment: [String: String], files: [FileAction], defaultSignals: [Int32]? = nil,
        newSession: Bool = false
    ) -> Result<pid_t, Failure> {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for file in files {
            switch file {
            case .open(let descriptor, let path, let flags, let mode):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, mode)
            case .duplicate(let source, let descriptor):
                posix_spawn_file_actions_adddup2(&actions, source, descriptor)
            }
        }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        if let defaultSignals {
            sigemptyset(&defaults)
            for signal in defaultSignals { sigaddset(&defaults, signal) }
        } else {
            sigfillset(&defaults)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)
        if newSession { flags |= newSessionFlag }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        return result == 0 ? .success(pid) : .failure(Failure(errno: result))
    }

    #if canImport(Darwin)
        static let newSessionFlag = Int32(POSIX_SPAWN_SETSID)
    #else
        // glibc's POSIX_SPAWN_SETSID: a GNU extension Swift's Glibc module leaves out.
        static let newSessionFlag: Int32 = 0x80
    #endif
}
