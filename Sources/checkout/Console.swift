import Foundation

/// Unbuffered writes, so lines reach pipes (and tests) as they happen.
enum Console {
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
    }

    static func err(_ line: String) {
        FileHandle.standardError.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
    }
}
