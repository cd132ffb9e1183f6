import Foundation
import QRCode
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The sandbox's qr.svg is well-formed and draws exactly the code's dark modules.
@Suite struct QRImageSVGTests {
    /// Collects the attributes of each element, by name.
    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String]
        ) {
            elements.append((name, attributes))
        }
    }

    @Test func svgIsWellFormedAndMatchesTheCode() throws {
        let code = try QRCode(encoding: Fixtures.authorizeURL)
        let moduleSize = 8, margin = 4
        let svg = QRImage.svg(code, moduleSize: moduleSize, margin: margin)
        #expect(svg.hasPrefix("<svg"))

        let collector = Collector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "SVG is not well-formed XML: \(String(describing: parser.parserError))")

        let root = try #require(collector.elements.first)
        let side = (code.size + 2 * margin) * moduleSize
        #expect(root.name == "svg")
        #expect(root.attributes["viewBox"] == "0 0 \(side) \(side)")
        #expect(root.attributes["shape-rendering"] == "crispEdges")
        #expect(collector.elements.map(\.name) == ["svg", "rect", "path"])
        #expect(collector.elements[1].attributes["fill"] == "#ffffff")

        // Each subpath is one dark module's square: "M<left> <top>h8v8h-8z".
        let path = try #require(collector.elements[2].attributes["d"])
        let squares = path.split(separator: "z").map { square -> (Int, Int) in
            let numbers = square.dropFirst().split(separator: "h").first!.split(separator: " ")
            return (Int(numbers[0])! / moduleSize - margin, Int(numbers[1])! / moduleSize - margin)
        }
        var drawn = Set<[Int]>()
        for (x, y) in squares { drawn.insert([x, y]) }
        var dark = Set<[Int]>()
        for y in 0..<code.size { for x in 0..<code.size where code[x, y] { dark.insert([x, y]) } }
        #expect(squares.count == dark.count)
        #expect(drawn == dark)
    }

    @Test func pbmHeaderAndSize() {
        let rows = [[true, false], [false, true]]
        let data = QRImage.pbm(rows, scale: 3, margin: 1)
        // (2 + 2·1)·3 = 12 pixels square; 12 bits round up to 2 bytes per row.
        let header = Data("P4\n12 12\n".utf8)
        #expect(data.prefix(header.count) == header)
        #expect(data.count == header.count + 2 * 12)
        // Pixel row 3 is the first row of module (0, 0): pixels 3–5 black.
        let row3 = data.dropFirst(header.count + 2 * 3).prefix(2)
        #expect(Array(row3) == [0b0001_1100, 0b0000_0000])
    }
}
