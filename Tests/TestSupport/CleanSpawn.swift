import CheckoutApp
import Foundation

/// A child with every signal at its default action and none blocked, whatever the test runner set.
enum CleanSpawn {
    /// Starts `arguments[0]` (looked up in PATH); `files` sets up its standard streams.
    static func start(_ arguments: [String], environment: [String: String], files: [PosixSpawn.FileAction]) throws -> pid_t {
        switch PosixSpawn.spawn(arguments, environment: environment, files: files) {
        case .success(let pid): return pid
        case .failure(let failure): throw ChildProcessError(arguments: arguments, errno: failure.errno)
        }
    }
}
