// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "TerminalCheckout",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "checkout", targets: ["checkout"])
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // HMAC-SHA256 for Adyen's webhook signatures (already resolved through jwt-kit).
        .package(url: "https://github.com/apple/swift-crypto", "4.1.0"..<"6.0.0"),
        // Graceful shutdown of the sandbox's server (already resolved through Hummingbird).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        // Square's offline payments: a durable on-disk queue (SQLite) that survives a crash or a quit.
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.0"),
        // The screen's HTTP log (up to 100,000 exchanges) drops its oldest in O(1) (already resolved through NIO).
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // `checkout sandbox --store postgres://…`: the sandbox's records in PostgreSQL, shared by instances.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
    ],
    targets: [
        // ncursesw through pkg-config; the shim turns on the wide-character API.
        .systemLibrary(
            name: "CNcurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        // Default catalog, shipping methods and discounts, found through Bundle.module.
        .target(
            name: "CheckoutResources",
            path: "Resources",
            resources: [.copy("catalog.json"), .copy("catalog-THB.json"), .copy("catalog-IDR.json"), .copy("scenarios")]
        ),
        .target(name: "CheckoutModel"),
        // The commit `checkout --version` names, written by `make` (Build/write-build-info.sh).
        .target(name: "CBuildInfo"),
        // The Swift runtime's conformance questions a session's start asks, asked ahead on an
        // idle core (entries.h, written by `make warm-up-list`).
        .target(name: "CConformanceWarmUp"),
        // The executable's .bss made resident as a headless command starts (writable_data.h).
        .target(name: "CWritableData"),
        .target(
            name: "ProviderWire",
            dependencies: [
                // ByteScan: the word-wide byte scans its JSON and redaction share with the screen.
                "CheckoutModel",
                .product(name: "JWTKit", package: "jwt-kit"), .product(name: "Crypto", package: "swift-crypto"),
                // Antom's RSA-SHA256 request signatures.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "ProviderClients",
            dependencies: [
                "ProviderWire", "CheckoutModel",
                .product(name: "JWTKit", package: "jwt-kit"),
                // Antom: signing requests and verifying answers.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // A response's bytes into Data as they lie (Data(buffer:)).
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "PaymentFlow",
            dependencies: ["CheckoutModel", "ProviderWire", "ProviderClients", .product(name: "_CryptoExtras", package: "swift-crypto")]
        ),
        .target(
            name: "Sandbox",
            dependencies: [
                "ProviderWire", "CheckoutModel", "QRCode",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "JWTKit", package: "jwt-kit"),
                // Antom's signed answers and notifications.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                // Webhook deliveries to the receivers registered at /sandbox/webhooks.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // The store several instances share (Store/Postgres).
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The in-memory journal, dropped from the front as it grows at the back.
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // libqrencode through pkg-config, for the QR code the customer scans.
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
        ),
        // zlib through pkg-config: deflate and CRC-32 for the PNG encoder.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "QRCode", dependencies: ["CQRencode", "CZlib"]),
        .target(name: "TerminalUI", dependencies: ["CNcurses", "CheckoutModel"]),
        .target(
            name: "CheckoutApp",
            dependencies: [
                "CBuildInfo", "CConformanceWarmUp", "CheckoutModel", "CheckoutResources", "PaymentFlow", "ProviderClients",
                "ProviderWire", "QRCode", "Sandbox", "TerminalUI",
                .product(name: "Yams", package: "Yams"),
                // Adyen's webhook receiver and its signatures.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                // Antom's notification signatures.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // Square's offline payment queue (SquareOfflineDatabase), kept in SQLite.
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "DequeModule", package: "swift-collections"),
                // The subcommands a provider brings (Adyen's listen, Square's offline), and the
                // command-line support they share with the executable's.
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "checkout",
            dependencies: [
                "CheckoutApp", "CheckoutModel", "CWritableData", "ProviderClients", "Sandbox", "TerminalUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `make bench`'s floors (Benchmarks/README.md): each does the least its figure's subject must.
        .executableTarget(name: "bench-floor-frame", dependencies: ["CNcurses"], path: "Benchmarks/Floors/FirstFrame"),
        .executableTarget(
            name: "bench-floor-http",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/Floors/HTTP"
        ),
        // `make soak`: seeded checkouts with random faults against one shared sandbox.
        .executableTarget(
            name: "checkout-soak",
            dependencies: [
                "TestSupport", "ProviderWire", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The balancer in front of several sandbox instances (`--instances`).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/CheckoutSoak"
        ),
        .target(
            name: "TestSupport",
            dependencies: ["Sandbox", "ProviderClients", "ProviderWire", "CheckoutApp"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "CheckoutModelTests", dependencies: ["CheckoutModel", "CheckoutResources", "CheckoutApp", "TestSupport"]),
        .testTarget(name: "PaymentFlowTests", dependencies: ["PaymentFlow", "ProviderWire", "ProviderClients", "CheckoutModel"]),
        .testTarget(
            name: "ProviderClientsTests",
            dependencies: [
                "ProviderClients", "ProviderWire", "Sandbox", "TestSupport",
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SandboxTests",
            dependencies: [
                "Sandbox", "ProviderWire", "ProviderClients", "PaymentFlow", "TestSupport", "CheckoutApp", "CheckoutModel",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // The stub Square that SquareOfflineUploaderTests upload to (stopped gracefully).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The PostgreSQL store's tests read and write its tables directly (a newer schema).
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "CheckoutAppTests",
            dependencies: [
                "CheckoutApp", "CheckoutModel", "PaymentFlow", "ProviderWire", "ProviderClients", "TerminalUI", "Sandbox", "TestSupport",
                "CWritableData",
                .product(name: "Hummingbird", package: "hummingbird"),
                // SquareOfflineDatabaseTests writes files the queue must refuse (a newer schema, a foreign table).
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                // The test provider's own subcommand.
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Golden"]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "QRCode", "ProviderWire"]),
        .testTarget(name: "SoakTests", dependencies: ["checkout-soak", "TestSupport"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "TestSupport", "CZlib"]),
    ]
)

// libFuzzer targets (`make fuzz`, README's Fuzzing): declared only when TERMINALCHECKOUT_FUZZ is
// set, so plain builds and tests never compile them. Each reads one kind of input through the
// entry point the app uses; its seed corpus and dictionary sit beside it.
// TERMINALCHECKOUT_FUZZ=1: `make fuzz` instruments every module (its own scratch path).
// TERMINALCHECKOUT_FUZZ=smoke: CI's short pass links only the harness with libFuzzer, on the
// debug build CI has already made, so it costs seconds rather than a second full build.
let fuzzMode = Context.environment["TERMINALCHECKOUT_FUZZ"]
if fuzzMode == "1" || fuzzMode == "smoke" {
    let harnessOnly = fuzzMode == "smoke"
    func fuzzTarget(_ name: String, dictionary: Bool = false, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(
            name: "Fuzz\(name)",
            dependencies: dependencies + (harnessOnly ? ["FuzzDriver"] : []),
            path: "Fuzz/\(name)",
            exclude: ["corpus"] + (dictionary ? ["fuzz.dict"] : []),
            // libFuzzer supplies main().
            swiftSettings: [.unsafeFlags(["-parse-as-library"] + (harnessOnly ? ["-sanitize=fuzzer", "-DFUZZ_SMOKE"] : []))],
            linkerSettings: harnessOnly ? [.unsafeFlags(["-sanitize=fuzzer"])] : []
        )
    }
    package.targets += [
        .target(name: "FuzzDriver", path: "Fuzz/Driver"),
        // The harnesses that drive the sandbox wait for its async stores here.
        .target(name: "FuzzAsync", path: "Fuzz/Async"),
        fuzzTarget("Scenario", dictionary: true, ["CheckoutApp", "CheckoutModel", "ProviderWire"]),
        fuzzTarget("Transcript", dictionary: true, ["CheckoutApp", "CheckoutModel"]),
        fuzzTarget("CashAppWire", dictionary: true, ["FuzzAsync", "ProviderClients", "ProviderWire", "Sandbox"]),
        fuzzTarget("AfterpayWire", dictionary: true, ["ProviderClients", "ProviderWire"]),
        fuzzTarget("AdyenWire", dictionary: true, ["PaymentFlow", "ProviderClients", "ProviderWire", "Sandbox", "CheckoutApp"]),
        fuzzTarget("SquareWire", dictionary: true, ["PaymentFlow", "ProviderClients", "ProviderWire", "Sandbox"]),
        fuzzTarget("AntomWire", dictionary: true, ["FuzzAsync", "PaymentFlow", "ProviderClients", "ProviderWire", "Sandbox"]),
        fuzzTarget("WalletWire", dictionary: true, ["ProviderClients", "ProviderWire", "Sandbox"]),
        fuzzTarget("FaultSpec", dictionary: true, ["Sandbox"]),
        fuzzTarget("KeyDecoder", ["TerminalUI"]),
        fuzzTarget("Money", dictionary: true, ["CheckoutModel"]),
    ]
}
