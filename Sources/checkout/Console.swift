import ArgumentParser
import CheckoutApp
import CheckoutModel
import Foundation
import TerminalUI

/// Unbuffered writes, so lines reach pipes (and tests) as they happen. Everything printed may
/// carry text from a file, a provider or the network, so control characters are escaped here,
/// on every output path.
enum Console {
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data(printable(line).utf8))
    }

    static func err(_ line: String) {
        FileHandle.standardError.write(Data(printable(line).utf8))
    }

    private static func printable(_ line: String) -> String {
        let body = line.hasSuffix("\n") ? String(line.dropLast()) : line
        return TerminalText.escapingControls(lines: body) + "\n"
    }
}

/// The bundled catalog, or exit 2 with why it cannot be read (a broken install).
func loadCatalog(currency: String = "USD") throws -> Catalog {
    do { return try Catalog.bundled(currency: currency) } catch {
        Console.err("error: the bundled catalog cannot be read: \(error); reinstall or rebuild checkout")
        throw ExitCode(.failed)
    }
}
