import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ProviderWire
import ServiceLifecycle

/// The embedded sandbox: one Hummingbird server emulating every provider on 127.0.0.1.
public struct SandboxServer: Sendable {
    public let settings: SandboxSettings
    public let faults: FaultPlan
    /// Webhook receivers and deliveries (`/sandbox/webhooks`), shared by every provider.
    public let webhooks: WebhookDispatcher
    /// Every provider it serves, from the provider registry.
    public let providers: [any SandboxProvider]
    /// Every request served (`GET /sandbox/journal`, the access log).
    let journal: SandboxJournal

    public init(settings: SandboxSettings = SandboxSettings(), providers: [any SandboxProvider]) {
        self.settings = settings
        self.faults = FaultPlan(limit: settings.limits.maxFaults, storage: settings.storage)
        self.webhooks = WebhookDispatcher(settings: settings)
        self.providers = providers
        self.journal = SandboxJournal(settings: settings, providers: providers)
    }

    /// The router with every route, and the routes as registered (for the 405 check).
    func makeRouter() -> (router: Router<SandboxRequestContext>, routes: [RouteMethods.Entry]) {
        let router = Router(context: SandboxRequestContext.self)
        // Every route goes through an `OwnedRoutes`, which notes it: asking the router for its
        // routes afterwards walks its whole tree.
        let own = OwnedRoutes(router)
        // First, so nothing of a control request runs before its token is checked; not there at
        // all without a token (the embedded sandbox), which keeps the hot path as it was.
        if let token = settings.controlToken { own.add(middleware: ControlTokenMiddleware(token: token, providers: providers)) }
        own.add(middleware: FaultInjectionMiddleware(plan: faults, settings: settings, providers: providers))
        own.get("sandbox/health") { _, _ in SandboxResponse.json(["status": "ok"]) }
        // Browsers ask every origin for its icon: the sandbox's pages (and images) get an empty one,
        // not a 404 in the console.
        own.get("favicon.ico") { _, _ in Response(status: .noContent, headers: [.cacheControl: "max-age=86400"]) }
        FaultRoutes(plan: faults, limits: settings.limits).register(on: own)
        let core = SandboxCore(settings: settings, webhooks: webhooks, cardTokens: providers.lazy.compactMap { $0.cardTokens }.first)
        SimulatedCustomerRoutes(providers: providers, core: core).register(on: own)
        WebhookRoutes(dispatcher: webhooks, limits: settings.limits).register(on: own)
        LedgerRoutes(providers: providers, settings: settings).register(on: own)
        JournalRoutes(journal: journal, providerIDs: providers.map(\.id)).register(on: own)
        // Which provider registered each route: the journal names the provider that served a request.
        // A route the sandbox's own (above) or an earlier provider registered stays theirs.
        var owners: [String: String] = [:]
        var registered = Set(own.registered)
        var routes = own.routes
        for provider in providers {
            let providerRoutes = OwnedRoutes(router)
            provider.register(on: providerRoutes, core: core)
            for route in providerRoutes.registered where registered.insert(route).inserted { owners[route] = provider.id }
            routes += providerRoutes.routes
        }
        #if DEBUG
        // The routes noted are the router's own, by the names the journal looks them up by.
        assert(Set(router.routes.map { OwnedRoutes.name($0.method, $0.path) }) == registered,
               "a route was registered without being noted, or is noted under another name")
        #endif
        journal.serve(routeOwners: owners)
        return (router, routes)
    }

    /// HTTP/1 with the connection bounds of `settings.limits`.
    private func serverBuilder(gate: ConnectionGate) -> HTTPServerBuilder {
        let limits = settings.limits
        let refusal = ByteBuffer(data: Self.connectRefusal())
        return HTTPServerBuilder { responder in
            SandboxHTTPChannel(
                http1: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: .fractionalSeconds(limits.idleTimeout))),
                gate: gate, requestReadTimeout: .fractionalSeconds(limits.requestReadTimeout), connectRefusal: refusal)
        }
    }

    /// The whole answer to CONNECT, written past the HTTP encoder (which drops a CONNECT answer's
    /// body and length): 405 in the sandbox's error shape, then the connection closes.
    static func connectRefusal() -> Data {
        let refusal = SandboxError(
            .methodNotAllowed, "METHOD_NOT_ALLOWED", "CONNECT is not allowed: this server does not tunnel; use GET, POST or PATCH on its API paths.")
        let body = (try? WireJSON.encoder().encode(SandboxErrorListBody(refusal))) ?? Data()
        let head = "HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
            + "Allow: DELETE, GET, PATCH, POST\r\nConnection: close\r\n\r\n"
        return Data(head.utf8) + body
    }

    /// Starts serving and returns once the port is bound. Port 0 picks a free port.
    public func start(host: String = "127.0.0.1", port: Int = 0, logger: Logger? = nil) async throws -> RunningSandbox {
        // Nothing below logs at a level we print, and a handler that keeps metadata would be
        // handed each request's id to format (Hummingbird sets it per request).
        let quiet = Logger(label: "sandbox", factory: { _ in SwiftLogNoOpLogHandler() })
        let bound = AsyncThrowingStream<Int, any Error>.makeStream()
        let connections = ConnectionGate(limit: settings.limits.maxConnections)
        let (router, routes) = makeRouter()
        // A store of the process's own memory costs nothing to ask: only a database's is asked less while idle.
        let cadence = settings.storageService == nil ? nil : DueWorkCadence()
        let responder = SandboxResponder(
            router: router.buildResponder(), methods: RouteMethods(routes), providers: providers, reportProblem: settings.reportProblem,
            journal: settings.limits.maxJournalEntries > 0 || settings.accessLog != nil ? journal : nil, cadence: cadence)
        let app: LocalHTTPService
        do {
            app = try LocalHTTPService(
                responder: responder, server: serverBuilder(gate: connections), address: .hostname(host, port: port),
                serverName: "TerminalCheckout-Sandbox", logger: logger ?? quiet,
                onServerRunning: { channel in bound.continuation.yield(channel.localAddress?.port ?? port) })
        } catch {
            throw SandboxStartError(host: host, port: port, underlying: error)
        }
        // Run as a service so `stop()` can shut it down gracefully: cancelling the serving task
        // while a connection is being accepted traps in NIO ("Deinited NIOAsyncWriter without
        // calling finish()", swift-nio#2813), which ended runs with SIGILL under load.
        // The store's service (a database's pool) runs beside the server and stops after it; the
        // due-time worker and the journal's writer between them (they need the store, and stop
        // before it; the writer once what it holds is written).
        let services: [(name: String, service: any Service)] =
            (settings.storageService.map { [("store", $0)] } ?? [])
            + [("due work", SandboxDueWork(providers: providers, settings: settings, webhooks: webhooks, cadence: cadence)),
               ("journal", journal), ("server", app)]
        let group = ServiceGroup.named(services, logger: quiet)
        let task = Task {
            do {
                try await group.run()
                bound.continuation.finish()
            } catch {
                bound.continuation.finish(throwing: error)
            }
        }
        do {
            for try await actualPort in bound.stream {
                return RunningSandbox(
                    host: host, port: actualPort, server: task, group: group, faults: faults, webhooks: webhooks, providers: providers,
                    connections: connections)
            }
        } catch {
            throw SandboxStartError(host: host, port: port, underlying: error)
        }
        throw SandboxStartError(host: host, port: port, underlying: nil)
    }
}

/// A sandbox that is serving; `stop()` ends it.
public struct RunningSandbox: Sendable {
    public let host: String
    public let port: Int
    let server: Task<Void, Never>
    let group: ServiceGroup
    public let faults: FaultPlan
    public let webhooks: WebhookDispatcher
    public let providers: [any SandboxProvider]
    let connections: ConnectionGate

    /// Connections open now (those over the cap until they are closed).
    public var openConnections: Int { connections.count }

    public var baseURL: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)"
    }

    /// Stops accepting, lets requests in flight finish, closes idle connections; returns once
    /// that is done or after `gracePeriod`, whichever comes first. The server is never
    /// cancelled: cancelling it while a connection is being accepted traps in NIO
    /// ("Deinited NIOAsyncWriter without calling finish()", swift-nio#2813; seen in CI under
    /// load). One still draining after the grace period finishes on its own (the read
    /// deadlines bound how long a client can hold it).
    public func stop(gracePeriod: Duration = .seconds(2)) async {
        await group.triggerGracefulShutdown()
        let (ended, signal) = AsyncStream.makeStream(of: Void.self)
        let waiting = Task { [server] in
            await server.value
            signal.finish()
        }
        let deadline = Task {
            try? await Task.sleep(for: gracePeriod)
            signal.finish()
        }
        for await _ in ended {}
        deadline.cancel()
        _ = waiting
    }

    /// Serves until the task running this is cancelled.
    public func wait() async {
        await withTaskCancellationHandler { await server.value } onCancel: { server.cancel() }
    }
}

/// The sandbox could not listen.
public struct SandboxStartError: Error, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let underlying: (any Error)?

    public var description: String {
        let reason = underlying.map { "\($0)" } ?? "the server stopped before it was ready"
        return "the sandbox could not listen on \(host):\(port): \(reason). Choose another --port, or 0 for any free port."
    }
}
