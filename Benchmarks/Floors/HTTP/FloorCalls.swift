import Foundation
import NIOHTTP1

/// One HTTP call of a provider's approved checkout: method, path, and the bytes each way.
struct FloorCall: Sendable {
    var method: HTTPMethod
    var path: String
    var requestBytes: Int
    var responseBytes: Int
}

/// The calls file `bench.py` writes from our own `checkout run --record` transcript, so the floor
/// makes exactly the calls our run made and knows no provider: one call per line,
/// `METHOD PATH REQUEST_BYTES RESPONSE_BYTES`.
enum FloorCalls {
    static let methods: [String: HTTPMethod] = ["GET": .GET, "POST": .POST, "PATCH": .PATCH, "PUT": .PUT, "DELETE": .DELETE]

    static func read(_ path: String) throws(FloorCallsError) -> [FloorCall] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw FloorCallsError("\(path): cannot be read") }
        let lines = text.split(separator: "\n").map { $0.split(separator: " ") }.filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw FloorCallsError("\(path): no calls") }
        return try lines.enumerated().map { (number, fields) throws(FloorCallsError) in
            guard fields.count == 4, let method = methods[String(fields[0])], fields[1].hasPrefix("/"),
                let request = Int(fields[2]), let response = Int(fields[3]), (0...(1 << 20)).contains(request), (0...(1 << 20)).contains(response)
            else {
                throw FloorCallsError("\(path):\(number + 1): expected METHOD (\(methods.keys.sorted().joined(separator: "|"))) /PATH REQUEST_BYTES RESPONSE_BYTES (0…1048576)")
            }
            return FloorCall(method: method, path: String(fields[1]), requestBytes: request, responseBytes: response)
        }
    }
}

struct FloorCallsError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
