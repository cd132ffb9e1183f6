import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// A Hummingbird server as a service, answering as `Application.run` does (a `Date` and a
/// `Server` header on every answer; 500 for an error the responder throws) without what that
/// adds here: a calendar for the `Date` header (see `HTTPDateHeader`), a logger copied with a
/// request id for every request (the loggers here log nothing), and a service group of its own.
/// Built here, its per-request code is specialized for the responder it serves.
public struct LocalHTTPService: Service {
    private let server: any Service

    public init<Responder: HTTPResponder>(
        responder: Responder, server builder: HTTPServerBuilder = .http1(), address: BindAddress, serverName: String,
        logger: Logger, onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) throws where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let dates = HTTPDateHeader()
        server = try builder.buildServer(
            configuration: ServerConfiguration(address: address, serverName: serverName),
            eventLoopGroup: EventLoopGroupProvider.singleton.eventLoopGroup, logger: logger
        ) { (request, writer: consuming ResponseWriter, channel) in
            let context = Responder.Context(source: ApplicationRequestContextSource(channel: channel, logger: logger))
            var response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as HTTPParserError {
                throw error
            } catch {
                response = Response(status: .internalServerError, body: .init())
            }
            response.headers[.date] = dates.current
            response.headers[.server] = serverName
            do {
                try await writer.write(response: response.head, body: response.body)
            } catch is HTTPParserError {
                // Thrown as it is, the parser's error would be answered a second time: any other
                // error closes the connection with nothing more written.
                throw ParseErrorWhileWritingResponse()
            }
        } onServerRunning: { channel in
            await onServerRunning(channel)
        }
    }

    public func run() async throws {
        try await server.run()
    }
}

/// The request could not be parsed while its answer was being written.
private struct ParseErrorWhileWritingResponse: Error {}
