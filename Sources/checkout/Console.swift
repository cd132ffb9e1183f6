import ArgumentParser
import CheckoutApp
import CheckoutModel
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

/// The bundled catalog, or exit 2 with why it cannot be read (a broken install).
func loadCatalog() throws -> Catalog {
    do { return try Catalog.bundled() } catch {
        Console.err("error: the bundled catalog cannot be read: \(error); reinstall or rebuild checkout")
        throw ExitCode(2)
    }
}
