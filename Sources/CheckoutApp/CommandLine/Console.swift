import Foundation
import TerminalUI

/// Unbuffered writes, so lines reach pipes (and tests) as they happen. Everything printed may
/// carry text from a file, a provider or the network, so control characters are escaped here,
/// on every output path.
public enum Console {
    public static func out(_ line: String) {
        FileHandle.standardOutput.write(Data(printable(line).utf8))
    }

    public static func err(_ line: String) {
        FileHandle.standardError.write(Data(printable(line).utf8))
    }

    private static func printable(_ line: String) -> String {
        let body = line.hasSuffix("\n") ? String(line.dropLast()) : line
        return TerminalText.escapingControls(lines: body) + "\n"
    }
}
