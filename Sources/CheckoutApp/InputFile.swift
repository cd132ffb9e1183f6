import Foundation

/// Reads a file the user names (a scenario, a transcript), telling apart the ways it can be
/// unusable so the message says what to do: no such file, a directory, a device or pipe, no
/// permission, too large, not UTF-8 (with the line and column of the first bad byte).
enum InputFile {
    /// Why a named file cannot be read, in words that follow its path.
    struct Problem: Error {
        var text: String
        /// From 1 where a place in the file is meant (not UTF-8); 0 otherwise.
        var line = 0
        var column = 0
    }

    /// The file's bytes; at most `limit` of them.
    static func contents(of path: String, kind: String, limit: Int) throws(Problem) -> Data {
        guard !path.isEmpty else { throw Problem(text: "is an empty path; give the path of \(kind)") }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw Problem(text: errno == EACCES ? "cannot be reached; check the permissions of its directories" : "no such file; give the path of \(kind)")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Problem(text: "is a directory; give the path of \(kind)")
        default: throw Problem(text: "is not a regular file (a device, pipe or socket); give the path of \(kind)")
        }
        guard status.st_size <= limit else {
            throw Problem(text: "is \(status.st_size) bytes, more than the \(limit) bytes \(kind) may have")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Problem(text: "cannot be read: permission denied; check its permissions")
        }
        defer { try? handle.close() }
        do { return try handle.read(upToCount: limit + 1) ?? Data() } catch {
            throw Problem(text: "cannot be read (\(error.localizedDescription))")
        }
    }

    /// The bytes as UTF-8 text, or where the first byte that is not UTF-8 is.
    static func text(_ data: Data) throws(Problem) -> String {
        if let text = String(data: data, encoding: .utf8) { return text }
        var line = 1, column = 1, index = data.startIndex
        while index < data.endIndex {
            let length = validSequenceLength(data, at: index)
            if length == 0 {
                throw Problem(
                    text: "is not UTF-8 text (byte 0x\(String(data[index], radix: 16, uppercase: true))); save it as UTF-8",
                    line: line, column: column)
            }
            if data[index] == 0x0A { (line, column) = (line + 1, 1) } else { column += 1 }
            index += length
        }
        throw Problem(text: "is not UTF-8 text; save it as UTF-8")
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0 when there is none.
    private static func validSequenceLength(_ data: Data, at index: Data.Index) -> Int {
        let first = data[index]
        let length = first < 0x80 ? 1 : first >= 0xC2 && first <= 0xDF ? 2 : first >= 0xE0 && first <= 0xEF ? 3 : first >= 0xF0 && first <= 0xF4 ? 4 : 0
        guard length > 0, data.endIndex - index >= length else { return 0 }
        let sequence = data[index..<index + length]
        return String(data: Data(sequence), encoding: .utf8) == nil ? 0 : length
    }
}
