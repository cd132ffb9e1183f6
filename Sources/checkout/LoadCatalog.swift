import ArgumentParser
import CheckoutApp
import CheckoutModel

/// The bundled catalog, or exit 2 with why it cannot be read (a broken install).
func loadCatalog(currency: String = "USD") throws -> Catalog {
    do { return try Catalog.bundled(currency: currency) } catch {
        Console.err("error: the bundled catalog cannot be read: \(error); reinstall or rebuild checkout")
        throw ExitCode(.failed)
    }
}
