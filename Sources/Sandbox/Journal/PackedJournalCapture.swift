import Foundation
import HTTPTypes
import NIOCore

/// A capture as the memory journal keeps it: one array of bytes. The capture itself holds a dozen
/// allocations (its header lists, their longer strings, its body buffers), and the journal keeps
/// 5,000 captures: each was freed when pushed out, its memory long gone cold, and keeping them
/// cost a sandbox under load more than making them (`make bench`'s P4). Unpacked, it is the
/// capture it was made from, field for field, so its entry is the same.
struct PackedJournalCapture: Sendable {
    private let bytes: [UInt8]

    init(_ capture: JournalCapture) {
        // Measured first, then written once into an array of exactly that size.
        let size = Packer.size(of: capture)
        bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, written in
            var out = Packer(buffer)
            out.integer(Int(bitPattern: UInt(capture.time.timeIntervalSinceReferenceDate.bitPattern)))
            out.integer(Int(capture.duration.components.seconds))
            out.integer(Int(capture.duration.components.attoseconds))
            out.text(capture.method)
            out.text(capture.target)
            out.headers(capture.requestHeaders)
            out.body(capture.requestBody.map { [$0] } ?? [])
            out.integer(capture.requestBodyBytes)
            out.integer(capture.status)
            out.headers(capture.responseHeaders)
            out.body(capture.responseBody)
            out.integer(capture.responseBodyBytes)
            out.text(capture.endpoint)
            out.text(capture.claimant)
            out.text(capture.fault)
            written = out.offset
        }
    }

    /// The capture it was packed from.
    func unpacked() -> JournalCapture {
        var input = Unpacker(bytes: bytes)
        let time = Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(UInt(bitPattern: input.integer()))))
        let duration = Duration(secondsComponent: Int64(input.integer()), attosecondsComponent: Int64(input.integer()))
        let method = input.text() ?? ""
        let target = input.text() ?? ""
        let requestHeaders = input.headers()
        let requestBody = input.body().first
        let requestBodyBytes = input.integer()
        let status = input.integer()
        let responseHeaders = input.headers()
        let responseBody = input.body()
        let responseBodyBytes = input.integer()
        return JournalCapture(
            time: time, duration: duration, method: method, target: target, requestHeaders: requestHeaders, requestBody: requestBody,
            requestBodyBytes: requestBodyBytes, status: status, responseHeaders: responseHeaders, responseBody: responseBody,
            responseBodyBytes: responseBodyBytes, endpoint: input.text(), claimant: input.text(), fault: input.text())
    }
}

/// Integers as eight bytes, texts and bodies as their length (-1: none) then their bytes, written
/// into a buffer `size(of:)` measured.
private struct Packer {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    var offset = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    static func size(of capture: JournalCapture) -> Int {
        func text(_ text: String?) -> Int { 8 + (text?.utf8.count ?? 0) }
        func headers(_ fields: HTTPFields) -> Int { fields.reduce(8) { $0 + text($1.name.rawName) + text($1.value) } }
        return 8 * 8 + text(capture.method) + text(capture.target) + headers(capture.requestHeaders) + (capture.requestBody?.readableBytes ?? 0)
            + headers(capture.responseHeaders) + capture.responseBody.reduce(0) { $0 + $1.readableBytes } + text(capture.endpoint)
            + text(capture.claimant) + text(capture.fault)
    }

    mutating func integer(_ value: Int) {
        precondition(offset + 8 <= buffer.count, "a packed capture written past the size measured")
        UnsafeMutableRawBufferPointer(buffer).storeBytes(of: Int64(value).littleEndian, toByteOffset: offset, as: Int64.self)
        offset += 8
    }

    private mutating func copy(_ bytes: UnsafeRawBufferPointer) {
        precondition(offset + bytes.count <= buffer.count, "a packed capture written past the size measured")
        UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[offset..<offset + bytes.count]).copyMemory(from: bytes)
        offset += bytes.count
    }

    mutating func text(_ text: String?) {
        guard var text else { return integer(-1) }
        integer(text.utf8.count)
        text.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
    }

    mutating func headers(_ fields: HTTPFields) {
        integer(fields.count)
        for field in fields {
            text(field.name.rawName)
            text(field.value)
        }
    }

    /// The parts as one body (the entry joins them anyway); none as -1.
    mutating func body(_ parts: [ByteBuffer]) {
        guard !parts.isEmpty else { return integer(-1) }
        integer(parts.reduce(0) { $0 + $1.readableBytes })
        for part in parts { part.withUnsafeReadableBytes { copy($0) } }
    }
}

/// Reads what `Packer` wrote, in the same order; past the end it reads zeros and nothing.
private struct Unpacker {
    let bytes: [UInt8]
    var offset = 0

    mutating func integer() -> Int {
        guard offset + 8 <= bytes.count else { return 0 }
        var value: Int64 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<offset + 8]) }
        offset += 8
        return Int(Int64(littleEndian: value))
    }

    private mutating func slice() -> ArraySlice<UInt8>? {
        let count = integer()
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func text() -> String? {
        slice().map { String(decoding: $0, as: UTF8.self) }
    }

    mutating func headers() -> HTTPFields {
        var fields = HTTPFields()
        // Each field takes at least two lengths: a count past that is not this packer's.
        for _ in 0..<min(max(0, integer()), (bytes.count - offset) / 16) {
            let name = text() ?? ""
            let value = text() ?? ""
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return fields
    }

    mutating func body() -> [ByteBuffer] {
        slice().map { [ByteBuffer(bytes: $0)] } ?? []
    }
}
